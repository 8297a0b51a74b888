import assert from "node:assert/strict";
import { AGENT_IMPORTS, analyzeAgent, codes, findingText } from "../../helpers";

const REQUESTS = `
const agent = setupAgent({
  requests: {
    draftEmail: { model: "writer", schemas: { input: z.object({ topic: z.string() }), output: z.string() }, prompt: ({ input }) => input.topic },
  },
  actors: { fetchUser: fromPromise(async () => 1) },
});
`;
const machineWith = (states: string) => `${REQUESTS}
export const machine = agent.createMachine({
  initial: "a",
  states: ${states},
});
`;

describe("checks: unnamed-request", () => {
  it("a hint on an inline createTextLogic / agent.decide without a name, with an add-name fix", () => {
    const body = machineWith(`{
      a: { invoke: { src: createTextLogic({ model: "writer", prompt: "x" }), onDone: "b" } },
      b: { invoke: { src: agent.decide({ model: "writer", prompt: "y" }) }, on: { OK: "a" } } }`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["unnamed-request", "unnamed-request"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "unnamed-request"), ["createTextLogic", "agent.decide"]);
    assert.deepEqual(a.findings.map((f) => f.severity), ["hint", "hint"]);
    assert.match(a.findings[1]!.message, /request\.name is its invoke id "0\.\(machine\)\.b"/);
    const fix = a.findings[0]!.fixes![0]!;
    assert.equal(fix.edits[0]!.newText, ` name: "a",`);
    const text = AGENT_IMPORTS + body;
    const fixed = text.slice(0, fix.edits[0]!.range.start) + fix.edits[0]!.newText + text.slice(fix.edits[0]!.range.end);
    assert.ok(fixed.includes(`createTextLogic({ name: "a", model`));
  });
  it("reads the built-in `src: agent.decide` with its name in the invoke input", () => {
    const unnamed = machineWith(`{ a: { invoke: { src: agent.decide, input: { model: "writer", prompt: "Approve?" } }, on: { APPROVE: "b" } }, b: { type: "final" } }`);
    const a = analyzeAgent(unnamed);
    assert.deepEqual(codes(a), ["unnamed-request"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + unnamed, "unnamed-request"), ["agent.decide"]);
    assert.equal(a.findings[0]!.fixes![0]!.edits[0]!.newText, ` name: "a",`);
    const named = analyzeAgent(unnamed.replace(`input: { model`, `input: { name: "approval", model`));
    assert.deepEqual(codes(named), []);
    assert.ok(named.symbols.some((s) => s.kind === "request" && s.name === "approval"));
  });
  it("reads the documented `src: \"agent.decide\"` the same way: an input (object, or a function returning one) without a name", () => {
    const fn = machineWith(`{ a: { invoke: { src: "agent.decide", input: ({ context }) => ({ model: "writer", prompt: "Approve?", allowedEvents: ["APPROVE"] }) }, on: { APPROVE: "b" } }, b: { type: "final" } }`);
    const a = analyzeAgent(fn);
    assert.deepEqual(codes(a), ["unnamed-request"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + fn, "unnamed-request"), ["agent.decide"]);
    assert.equal(a.findings[0]!.fixes![0]!.edits[0]!.newText, ` name: "a",`);
    const obj = machineWith(`{ a: { invoke: { src: "agent.decide", input: { model: "writer", prompt: "Approve?" } }, on: { APPROVE: "b" } }, b: { type: "final" } }`);
    assert.deepEqual(codes(analyzeAgent(obj)), ["unnamed-request"]);
    assert.deepEqual(codes(analyzeAgent(fn.replace("({ model:", "({ name: \"approval\", model:"))), []);
  });
  it("near miss: an input whose spread may carry the name, or a string src with no input, is not judged", () => {
    assert.deepEqual(codes(analyzeAgent(machineWith(`{ a: { invoke: { src: "agent.decide", input: ({ context }) => ({ ...context.decision, model: "writer" }) }, on: { APPROVE: "b" } }, b: { type: "final" } }`))), []);
    assert.deepEqual(codes(analyzeAgent(machineWith(`{ a: { invoke: { src: agent.decide, input: { ...shared, model: "writer" } }, on: { APPROVE: "b" } }, b: { type: "final" } }`))), []);
    assert.deepEqual(codes(analyzeAgent(machineWith(`{ a: { invoke: { src: "agent.decide" }, on: { APPROVE: "b" } }, b: { type: "final" } }`))), []);
  });
  it("near miss: an invoke id names the request (request.name falls back to it), literal or computed", () => {
    const withId = (id: string) => machineWith(`{
      a: { invoke: { id: ${id}, src: createTextLogic({ model: "writer", prompt: "x" }), onDone: "b" } },
      b: { invoke: { id: ${id}, src: "agent.decide", input: () => ({ model: "writer", prompt: "y" }) }, on: { OK: "a" } } }`);
    assert.deepEqual(codes(analyzeAgent(withId(`"step"`))), []);
    assert.deepEqual(codes(analyzeAgent(withId("stepId"))), []);
    // the same machine without ids still reports both
    assert.deepEqual(codes(analyzeAgent(withId(`"step"`).replace(/id: "step", /g, ""))), ["unnamed-request", "unnamed-request"]);
  });
  it("near miss: named inline requests are fine", () => {
    const a = analyzeAgent(machineWith(`{
      a: { invoke: { src: createTextLogic({ name: "summary", model: "writer", prompt: "x" }), onDone: "b" } },
      b: { invoke: { src: agent.decide({ name: "route", prompt: "y" }) }, on: { OK: "a" } } }`));
    assert.deepEqual(codes(a), []);
    assert.ok(a.symbols.some((s) => s.kind === "request" && s.name === "summary"));
  });
});

describe("checks: unknown-request", () => {
  it("fires on a src naming no request or actor, with a fix", () => {
    const body = machineWith(`{ a: { invoke: { src: "draftEmial", onDone: "b" } }, b: { type: "final" } }`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["unknown-request"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "unknown-request"), ["draftEmial"]);
    assert.equal(a.findings[0]!.fixes?.[0]?.edits[0]?.newText, "draftEmail");
  });
  it("near misses: requests, actors and built-in agent.* srcs; unknown when requests are spread from elsewhere", () => {
    assert.deepEqual(codes(analyzeAgent(machineWith(`{ a: { invoke: { src: "draftEmail", onDone: "b" } }, b: { invoke: { src: "fetchUser" }, on: { X: "c" } }, c: { invoke: { src: "agent.decide" }, on: { Y: "a" } } }`))), []);
    const spread = `import { shared } from "./shared-requests";\nconst agent = setupAgent({ requests: { ...shared } });\nexport const m = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "fromShared" } } } });`;
    assert.deepEqual(codes(analyzeAgent(spread)), []);
  });
  it("checks xstate setup({ actors }) machines too", () => {
    const bad = `export const m = setup({ actors: { load: fromPromise(async () => 1) } }).createMachine({ initial: "a", states: { a: { invoke: { src: "lod" } } } });`;
    assert.deepEqual(codes(analyzeAgent(bad)), ["unknown-request"]);
    assert.deepEqual(codes(analyzeAgent(bad.replace(`"lod"`, `"load"`))), []);
  });
  it("reads actor sources registered under actorSources (later XState v6 alphas' name), for setupAgent and setup", () => {
    const child = `const child = createMachine({ initial: "a", states: { a: { type: "final" } } });\n`;
    const agentMachine = (src: string) => `${child}export const m = setupAgent({ requests: {}, actorSources: { child } }).createMachine({ initial: "a", states: { a: { invoke: { src: "${src}", onDone: "b" } }, b: { type: "final" } } });`;
    const setupMachine = (src: string) => `${child}export const m = setup({ actorSources: { child } }).createMachine({ initial: "a", states: { a: { invoke: { src: "${src}", onDone: "b" } }, b: { type: "final" } } });`;
    assert.deepEqual(codes(analyzeAgent(agentMachine("child"))), []);
    assert.deepEqual(codes(analyzeAgent(setupMachine("child"))), []);
    const typo = analyzeAgent(agentMachine("chlid"));
    assert.deepEqual(codes(typo), ["unknown-request"]);
    assert.equal(typo.findings[0]!.fixes?.[0]?.edits[0]?.newText, "child");
    assert.deepEqual(codes(analyzeAgent(setupMachine("chlid"))), ["unknown-request"]);
  });
});

describe("checks: direct-object-src", () => {
  it("fires on a machine or fromPromise logic used directly as src", () => {
    const body = machineWith(`{ a: { invoke: { src: fromPromise(async () => 1), onDone: "b" } }, b: { invoke: { src: child } , on: { X: "a" } } }`).replace("export const machine", `const child = createMachine({});\nexport const machine`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["direct-object-src", "direct-object-src"]);
  });
  it("near miss: request logic from createTextLogic is fine, and plain xstate machines are not judged", () => {
    assert.deepEqual(codes(analyzeAgent(machineWith(`{ a: { invoke: { src: createTextLogic({ name: "n", prompt: "p" }) } } }`))), []);
    assert.deepEqual(codes(analyzeAgent(`export const m = createMachine({ initial: "a", states: { a: { invoke: { src: fromPromise(async () => 1) } } } });`)), []);
  });
});

describe("checks: decide-without-events", () => {
  it("fires when no state on the way handles an event", () => {
    const body = machineWith(`{ a: { invoke: { src: agent.decide({ name: "route", prompt: "p" }) } } }`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["decide-without-events"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "decide-without-events"), ["agent.decide({ name: \"route\", prompt: \"p\" })"]);
  });
  it("near miss: the invoke handles the decision's completion itself (onDone), as the library's lint allows", () => {
    assert.deepEqual(codes(analyzeAgent(machineWith(`{ a: { invoke: { src: agent.decide({ name: "route", prompt: "p" }), onDone: "b" } }, b: { type: "final" } }`))), []);
  });
  it("near miss: an ancestor handles events", () => {
    const a = analyzeAgent(`${REQUESTS}\nexport const m = agent.createMachine({ initial: "p", on: { APPROVE: ".done" }, states: { p: { initial: "a", states: { a: { invoke: { src: createDecisionLogic({ name: "route", prompt: "p" }) } } } }, done: { type: "final" } } });`);
    assert.deepEqual(codes(a), []);
  });
});

describe("checks: invoke-without-on-error (off by default)", () => {
  const body = machineWith(`{ a: { invoke: { src: "draftEmail", onDone: "b" } }, b: { type: "final" } }`);
  it("is off unless enabled", () => {
    assert.deepEqual(codes(analyzeAgent(body)), []);
  });
  it("fires when enabled, at the src", () => {
    const a = analyzeAgent(body, { "invoke-without-on-error": "info" });
    assert.deepEqual(codes(a), ["invoke-without-on-error"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "invoke-without-on-error"), ["draftEmail"]);
  });
  it("near miss: onError present, or an ancestor handles xstate.error.actor", () => {
    const withError = machineWith(`{ a: { invoke: { src: "draftEmail", onDone: "b", onError: "b" } }, b: { type: "final" } }`);
    assert.deepEqual(codes(analyzeAgent(withError, { "invoke-without-on-error": "info" })), []);
    const ancestor = body.replace(`initial: "a",`, `initial: "a",\n  on: { "xstate.error.actor.*": ".b" },`);
    assert.deepEqual(codes(analyzeAgent(ancestor, { "invoke-without-on-error": "info" })), []);
  });
});
