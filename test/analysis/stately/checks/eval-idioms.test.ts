// The eval idioms of upstream's docs and tests (issue 31): state paths and event logs collected into local
// lists by onTransition / subscribe / inspection, createScriptedExecutors keys, machines built by a local
// factory, and unnamed requests judged by whether the missing name changes what runs.
import assert from "node:assert/strict";
import { analyzeIn, codes } from "../../helpers";

const AGENT = `import { z } from "zod";
import { setupAgent, createTextLogic } from "@statelyai/agent";
const agent = setupAgent({
  events: { SEND: {}, REVISE: {} },
  requests: {
    draftEmail: { model: "writer", schemas: { input: z.object({ topic: z.string() }), output: z.string() }, prompt: ({ input }) => input.topic },
  },
});
export const machine = agent.createMachine({
  initial: "drafting",
  states: {
    drafting: { invoke: { src: "draftEmail", onDone: "titling" } },
    titling: { invoke: { src: createTextLogic({ model: "writer", prompt: "A title." }), onDone: "review" } },
    review: { on: { SEND: "sent", REVISE: "drafting" } },
    sent: { type: "final" },
  },
});
`;
const IMPORTS = `import { createActor } from "xstate";\nimport { runAgent, createScriptedExecutors, provideExecutors } from "@statelyai/agent";\nimport { runSeam, canReach, explorePaths, matchesTrajectory } from "@statelyai/agent/testing";\nimport { machine } from "./agent";\n`;
const check = (body: string, agent = AGENT) => analyzeIn({ "agent.ts": agent, "agent.test.ts": IMPORTS + body }, "agent.test.ts");
const found = (body: string, agent = AGENT) => {
  const text = IMPORTS + body;
  return analyzeIn({ "agent.ts": agent, "agent.test.ts": text }, "agent.test.ts").findings.map((f) => `${f.code} ${text.slice(f.range.start, f.range.end)}`);
};

describe("eval idioms: a state path collected into a local list", () => {
  it("onTransition: a typo in the expected trajectory fires, with the nearest state in the message and as the fix", () => {
    const a = check(`const statePath: string[] = [];
await runAgent(machine, { input: {}, executors: {}, onTransition: (snapshot) => statePath.push(String(snapshot.value)) });
const path = matchesTrajectory(statePath, ["drafting", "reveiw", "sent"]);`);
    assert.deepEqual(codes(a), ["unknown-state-ref"]);
    assert.match(a.findings[0]!.message, /has no state "reveiw"\. Did you mean 'review'\?$/);
    assert.deepEqual(a.findings[0]!.fixes?.map((f) => [f.title, f.edits[0]!.newText]), [["Change to 'review'", "review"]]);
  });
  it("subscribe on an actor of the machine (also through provideExecutors), and inspection events", () => {
    assert.deepEqual(found(`const seen: unknown[] = [];
const actor = createActor(provideExecutors(machine, {}), { input: {} });
actor.subscribe((s) => seen.push(s.value));
actor.start();
matchesTrajectory(seen, ["drafting", "sennt"]);`), ["unknown-state-ref sennt"]);
    assert.deepEqual(found(`const events: string[] = [];
await runAgent(machine, { input: {}, inspect: (e) => { if (e.type === "@xstate.event") events.push(e.event.type); } });
matchesTrajectory(events, ["SEND", "REVISEE"]);`), ["unknown-event REVISEE"]);
    assert.deepEqual(found(`const events: string[] = [];
await runAgent(machine, { input: {}, onTransition: (snapshot, event) => events.push(event.type) });
matchesTrajectory(events, ["xstate.init", "SEND"]);`), []);
  });
  it("near misses: a list that is handed on, filled otherwise, or filled from two machines is not judged", () => {
    const other = `\nimport { otherMachine } from "./other";\n`;
    for (const body of [
      `const p: string[] = [];\nrecord(p);\nawait runAgent(machine, { input: {}, onTransition: (s) => p.push(String(s.value)) });\nmatchesTrajectory(p, ["nothing"]);`,
      `const p: string[] = [];\np.unshift("nothing");\nawait runAgent(machine, { input: {}, onTransition: (s) => p.push(String(s.value)) });\nmatchesTrajectory(p, ["nothing"]);`,
      `const p: string[] = [];\nawait runAgent(machine, { input: {}, onTransition: (s) => p.push(JSON.stringify(s.value)) });\nmatchesTrajectory(p, ["nothing"]);`,
      `const p: string[] = ["start"];\nawait runAgent(machine, { input: {}, onTransition: (s) => p.push(String(s.value)) });\nmatchesTrajectory(p, ["nothing"]);`,
      `${other}const p: string[] = [];\nawait runAgent(machine, { input: {}, onTransition: (s) => p.push(String(s.value)) });\nawait runAgent(otherMachine, { input: {}, onTransition: (s) => p.push(String(s.value)) });\nmatchesTrajectory(p, ["nothing"]);`,
      `const p: string[] = [];\nconst record = (s: { value: string }) => p.push(s.value);\nawait runAgent(machine, { input: {}, onTransition: record });\nmatchesTrajectory(p, ["nothing"]);`,
    ]) {
      assert.deepEqual(codes(check(body)), [], body);
    }
  });
  it("a simulateAgent trail mapped to its states is a state path", () => {
    const sim = `import { simulateAgent } from "@statelyai/agent/testing";\nconst legal = await simulateAgent(machine, { input: {}, script: {} });\n`;
    assert.deepEqual(found(`${sim}matchesTrajectory(legal.trail.map((entry) => entry.state), ["drafting", "sentt"]);`), ["unknown-state-ref sentt"]);
    assert.deepEqual(found(`${sim}const legalPath = legal.trail.map((entry) => entry.state);\nmatchesTrajectory(legalPath, ["draftin"]);`), ["unknown-state-ref draftin"]);
    assert.deepEqual(found(`${sim}matchesTrajectory(legal.trail.map((entry) => entry.event), ["draftin"]);`), []);
  });
});

describe("eval idioms: a machine built by a local factory", () => {
  const factory = `import { setupAgent } from "@statelyai/agent";
import { canReach, explorePaths, matchesTrajectory, runSeam } from "@statelyai/agent/testing";
function createRefundMachine() {
  const agent = setupAgent({ requests: { classify: { model: "m", prompt: "p" } } });
  return agent.createMachine({ initial: "classifying", states: { classifying: { invoke: { src: "classify", onDone: "issued" } }, issued: { type: "final" } } });
}
const arrow = () => setupAgent({ requests: {} }).createMachine({ initial: "a", states: { a: {} } });
`;
  it("canReach / explorePaths / runSeam on the factory's result name its machine", () => {
    const text = `${factory}canReach(createRefundMachine(), "nonexistent");\ncanReach(createRefundMachine(), "issued");\ncanReach(arrow(), "b");\nconst run = await runSeam(createRefundMachine(), { scripts: { clasify: ["x"] }, seam: { request: "classify" } });\nmatchesTrajectory(run.path, ["classifyng"]);`;
    const a = analyzeIn({ "refund.test.ts": text }, "refund.test.ts");
    assert.deepEqual(a.findings.map((f) => `${f.code} ${text.slice(f.range.start, f.range.end)}`), ["unknown-state-ref nonexistent", "unknown-state-ref b", "unknown-script-key clasify", "unknown-state-ref classifyng"]);
  });
  it("near miss: a factory that can return different machines is not judged", () => {
    const text = `${factory}function pick(x: boolean) { return x ? createRefundMachine() : arrow(); }\nfunction either(x: boolean) { if (x) return createRefundMachine(); return arrow(); }\ncanReach(either(true), "nonexistent");\ncanReach(pick(true), "nonexistent");`;
    assert.deepEqual(codes(analyzeIn({ "refund.test.ts": text }, "refund.test.ts")), []);
  });
});

describe("eval idioms: createScriptedExecutors keys", () => {
  it("a key naming no request of the machine fires (inline, or a const used only as executors), with the nearest name", () => {
    assert.deepEqual(found(`await runAgent(machine, { input: {}, executors: createScriptedExecutors({ text: { draftEmial: ["x"], "*": ["y"] } }) });`), ["unknown-script-key draftEmial"]);
    const a = check(`const scripted = createScriptedExecutors({ text: { draftEmail: ["x"], "0.(machine).titling": ["t"], draftEmial: ["y"] } });\nawait runAgent(machine, { input: {}, executors: scripted });\nconsole.log(scripted.calls.length);`);
    assert.deepEqual(codes(a), ["unknown-script-key"]);
    assert.match(a.findings[0]!.message, /Did you mean 'draftEmail'\?$/);
  });
  it("near misses: executors that also go elsewhere, serve an unknown machine, or come from a factory", () => {
    for (const body of [
      `const scripted = createScriptedExecutors({ text: { other: ["x"] } });\nawait runAgent(machine, { input: {}, executors: scripted });\nhelper(scripted);`,
      `import { otherMachine } from "./other";\nconst executors = createScriptedExecutors({ text: { other: ["x"] } });\nawait runAgent(machine, { input: {}, executors });\nawait runAgent(otherMachine, { input: {}, executors });`,
      `const make = () => createScriptedExecutors({ text: { other: ["x"] } });\nawait runAgent(machine, { input: {}, executors: make() });`,
    ]) {
      assert.deepEqual(codes(check(body)), [], body);
    }
  });
});

describe("unnamed-request: a warning only where the missing name changes what runs", () => {
  it("elsewhere a hint that says the request's name (its invoke id) and why naming helps", () => {
    const a = analyzeIn({ "agent.ts": AGENT }, "agent.ts");
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]), [["unnamed-request", "hint"]]);
    assert.match(a.findings[0]!.message, /request\.name is its invoke id "0\.\(machine\)\.titling"/);
    assert.match(a.findings[0]!.message, /name: "titling"/);
  });
  it("upstream's quickstart: an inline `src: \"agent.decide\"` with no name gives no warning", () => {
    const quickstart = `import { setupAgent, runAgent } from "@statelyai/agent";
const agentSetup = setupAgent({ events: { PUBLISH: {}, FLAG: {}, BLOCK: {} } });
const moderationMachine = agentSetup.createMachine({
  initial: "reviewing",
  states: {
    reviewing: {
      invoke: { src: "agent.decide", input: ({ context }) => ({ model: "fast", system: "s", prompt: "p", allowedEvents: ["PUBLISH", "FLAG", "BLOCK"] }) },
      on: { PUBLISH: "published", FLAG: "flagged", BLOCK: "blocked" },
    },
    published: { type: "final" }, flagged: { type: "final" }, blocked: { type: "final" },
  },
});
await runAgent(moderationMachine, { input: {}, executors: {} });
`;
    const a = analyzeIn({ "quickstart.ts": quickstart }, "quickstart.ts");
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]), [["unnamed-request", "hint"]]);
  });
  it("a scripts key that is a model key shared by an unnamed request and another request warns, at the key", () => {
    const a = check(`await runSeam(machine, { scripts: { writer: ["draft", "title"] }, seam: { request: "draftEmail" } });`);
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]), [["unnamed-request", "warning"]]);
    assert.match(a.findings[0]!.message, /scripts key "writer" is a model key: it answers 2 requests .*"draftEmail".*"0\.\(machine\)\.titling"/);
  });
  it("two unnamed requests of one model key warn too; keying the answers by name, or naming them, does not", () => {
    const two = AGENT.replace(`review: { on:`, `subtitling: { invoke: { src: createTextLogic({ model: "editor", prompt: "Sub." }), onDone: "review" } },\n    review: { on:`).replace(`model: "writer", prompt: "A title."`, `model: "editor", prompt: "A title."`);
    assert.deepEqual(found(`await runSeam(machine, { scripts: { editor: ["t", "s"] }, seam: { request: "draftEmail" } });`, two), ["unnamed-request editor"]);
    assert.deepEqual(found(`await runSeam(machine, { scripts: { draftEmail: ["d"], writer: ["t"] }, seam: { request: "draftEmail" } });`), []);
    assert.deepEqual(found(`await runSeam(machine, { scripts: { writer: ["d", "t"] }, seam: { request: "draftEmail" } });`, AGENT.replace(`createTextLogic({ model`, `createTextLogic({ name: "title", model`)), []);
  });
});
