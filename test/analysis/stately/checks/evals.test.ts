import assert from "node:assert/strict";
import { analyzeIn, codes } from "../../helpers";

const AGENT = `import { z } from "zod";
import { setupAgent, createTextLogic } from "@statelyai/agent";
const agent = setupAgent({
  requests: {
    draftEmail: { model: "writer", schemas: { input: z.object({ topic: z.string() }), output: z.string() }, prompt: ({ input }) => input.topic },
    scoreDraft: { model: "judge", schemas: { input: z.object({ draft: z.string() }), output: z.object({ score: z.number() }) }, prompt: ({ input }) => input.draft },
  },
});
export const machine = agent.createMachine({
  initial: "drafting",
  states: {
    drafting: { invoke: { src: "draftEmail", onDone: ({ output }) => ({ target: "scoring", context: { draft: output.result } }) } },
    scoring: { invoke: { src: "scoreDraft", onDone: { target: "review" } } },
    review: { invoke: { id: "polish", src: createTextLogic({ model: "editor", prompt: "p" }), onDone: "done" } },
    done: { type: "final" },
  },
});
`;
const evalFile = (body: string) => `import { runSeam, canReach, matchesTrajectory, simulateAgent } from "@statelyai/agent/testing";\nimport { machine } from "./agent";\n${body}`;

function check(body: string) {
  return analyzeIn({ "agent.ts": AGENT, "agent.test.ts": evalFile(body) }, "agent.test.ts");
}

describe("checks: unknown-script-key", () => {
  it("fires on a key that is neither a request name nor a model key (across files), with a fix", () => {
    const a = check(`await runSeam(machine, { scripts: { draftEmail: ["x"], scoreDraf: [{ score: 4 }] }, seam: { request: "scoreDraft" } });`);
    assert.deepEqual(codes(a), ["unknown-script-key"]);
    assert.equal(a.findings[0]!.fixes?.[0]?.edits[0]?.newText, "scoreDraft");
    assert.equal(a.findings[0]!.file, "/ws/agent.test.ts");
  });
  it("near misses: model keys, invoke ids of unnamed inline requests, and scripts built elsewhere", () => {
    assert.deepEqual(codes(check(`await runSeam(machine, { scripts: { writer: ["x"], judge: [{ score: 4 }], polish: ["p"], editor: ["e"] }, seam: { request: "scoreDraft" } });`)), []);
    assert.deepEqual(codes(check(`import { more } from "./somewhere";\nawait runSeam(machine, { scripts: more, seam: { request: "scoreDraft" } });`)), []);
  });
  it("near misses: an agent this analysis cannot read (a package's), and request logic registered in setup({ actors })", () => {
    const seam = `await runSeam(machine, { seam: { request: "draft" }, scripts: { draft: ["x"], writer: ["y"] } });`;
    const packaged = `import { agent } from "shared-agents";\nexport const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draft", onDone: "b" } }, b: { type: "final" } } });\n`;
    assert.deepEqual(codes(analyzeIn({ "agent.ts": packaged, "agent.test.ts": evalFile(seam) }, "agent.test.ts")), []);
    const viaSetup = (key: string) => `import { setup } from "xstate";\nimport { createTextLogic } from "@statelyai/agent";\nexport const machine = setup({ actors: { ${key}: createTextLogic({ name: "draft", model: "writer", prompt: "p" }) } }).createMachine({ initial: "a", states: { a: { invoke: { src: "${key}", onDone: "b" } }, b: { type: "final" } } });\n`;
    assert.deepEqual(codes(analyzeIn({ "agent.ts": viaSetup("draft"), "agent.test.ts": evalFile(`await runSeam(machine, { seam: { request: "draft" }, scripts: { draft: ["x"] } });`) }, "agent.test.ts")), []);
    // the setup's actors are all known: a key naming none of them still fires
    assert.deepEqual(codes(analyzeIn({ "agent.ts": viaSetup("draft"), "agent.test.ts": evalFile(`await runSeam(machine, { seam: { request: "draft" }, scripts: { draf: ["x"] } });`) }, "agent.test.ts")), ["unknown-script-key"]);
  });
  it("near misses: request logic under actors carries its own name and model, or its invoke's id (written or generated)", () => {
    const agent = `import { setupAgent, createTextLogic } from "@statelyai/agent";
const agent = setupAgent({ requests: {}, actors: { critic: createTextLogic({ name: "critique", model: "critic-model", prompt: "c" }), polisher: createTextLogic({ model: "polish-model", prompt: "p" }) } });
export const machine = agent.createMachine({ initial: "c", states: { c: { invoke: { src: "critic", onDone: "p" } }, p: { invoke: { src: "polisher", onDone: "q" } }, q: { invoke: { id: "polishStep", src: "polisher", onDone: "d" } }, d: { type: "final" } } });
`;
    const run = (body: string) => codes(analyzeIn({ "agent.ts": agent, "agent.test.ts": evalFile(body) }, "agent.test.ts"));
    assert.deepEqual(run(`await runSeam(machine, { seam: { request: "critique" }, scripts: { critique: ["c"], "critic-model": ["c"], "polish-model": ["p"], polishStep: ["p"] } });`), []);
    assert.deepEqual(run(`await runSeam(machine, { seam: { request: "0.(machine).p" }, scripts: {} });`), []);
    // in the order of the text (seam before scripts here)
    assert.deepEqual(run(`await runSeam(machine, { seam: { request: "critiqe" }, scripts: { "critic-modl": ["c"] } });`), ["unknown-seam", "unknown-script-key"]);
  });
  it("near misses: a model this analysis cannot read (a request factory, an enum member) leaves the model keys unjudged", () => {
    const agent = (model: string) => `import { setupAgent } from "@statelyai/agent";
import { Models } from "./models";
function textRequest(model: string, prompt: string) { return { model, prompt }; }
const agent = setupAgent({ requests: { plan: ${model} } });
export const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "plan", onDone: "b" } }, b: { type: "final" } } });
`;
    const body = `await runSeam(machine, { seam: { request: "plan" }, scripts: { "planner-model": ["p"] } });`;
    assert.deepEqual(codes(analyzeIn({ "agent.ts": agent(`textRequest("planner-model", "Plan.")`), "agent.test.ts": evalFile(body) }, "agent.test.ts")), []);
    assert.deepEqual(codes(analyzeIn({ "agent.ts": agent(`{ model: Models.Planner, prompt: "Plan." }`), "agent.test.ts": evalFile(body) }, "agent.test.ts")), []);
    // a model it reads still judges the keys
    assert.deepEqual(codes(analyzeIn({ "agent.ts": agent(`{ model: "writer", prompt: "Plan." }`), "agent.test.ts": evalFile(body) }, "agent.test.ts")), ["unknown-script-key"]);
  });
});

describe("checks: unknown-seam", () => {
  it("fires on a seam request the machine does not have", () => {
    const a = check(`await runSeam(machine, { scripts: { draftEmail: ["x"] }, seam: { request: "scoreDraftt" } });`);
    assert.deepEqual(codes(a), ["unknown-seam"]);
    assert.equal(a.findings[0]!.fixes?.[0]?.edits[0]?.newText, "scoreDraft");
  });
  it("near miss: a model key is not a seam, but the invoke id of an unnamed request is", () => {
    assert.deepEqual(codes(check(`await runSeam(machine, { scripts: {}, seam: { request: "polish" } });`)), []);
    assert.deepEqual(codes(check(`await runSeam(machine, { scripts: {}, seam: { request: "writer" } });`)), ["unknown-seam"]);
  });
});

describe("checks: unknown-state-ref", () => {
  it("fires on canReach / matchesTrajectory over a state path naming states the machine lacks", () => {
    const a = check(`canReach(machine, "reveiw");\nconst run = await runSeam(machine, { scripts: {}, seam: { request: "scoreDraft" } });\nmatchesTrajectory(run.path, ["drafting", "scorng"]);\nmatchesTrajectory(run.after.statePath, ["done"]);`);
    assert.deepEqual(codes(a), ["unknown-state-ref", "unknown-state-ref"]);
    assert.deepEqual(a.findings.map((f) => f.fixes?.[0]?.edits[0]?.newText), ["review", "scoring"]);
  });
  it("fires on a state value written as an object, at the key or value that names nothing", () => {
    const text = evalFile(`const run = await runSeam(machine, { scripts: {}, seam: { request: "scoreDraft" } });\nmatchesTrajectory(run.pathAfter, [{ review: "done" }, { scorng: {} }, "drafting"]);`);
    const a = analyzeIn({ "agent.ts": AGENT, "agent.test.ts": text }, "agent.test.ts");
    assert.deepEqual(a.findings.map((f) => [f.code, text.slice(f.range.start, f.range.end)]), [["unknown-state-ref", "done"], ["unknown-state-ref", "scorng"]]);
  });
  it("near miss: a state-node id, with or without \"#\", names its state; an id nothing carries still fires", () => {
    const withIds = AGENT.replace(`review: { invoke:`, `review: { id: "humanReview", invoke:`);
    const run = (body: string) => analyzeIn({ "agent.ts": withIds, "agent.test.ts": evalFile(body) }, "agent.test.ts");
    assert.deepEqual(codes(run(`canReach(machine, "humanReview");\ncanReach(machine, "#humanReview");`)), []);
    const miss = run(`canReach(machine, "humanReviw");`);
    assert.deepEqual(codes(miss), ["unknown-state-ref"]);
    // an id that is not a literal could be any name: not judged
    const computed = AGENT.replace(`review: { invoke:`, `review: { id: reviewId, invoke:`);
    assert.deepEqual(codes(analyzeIn({ "agent.ts": computed, "agent.test.ts": evalFile(`canReach(machine, "humanReview");`) }, "agent.test.ts")), []);
  });
  it("near miss: names and dotted paths; a trajectory that is not surely a state path is not judged", () => {
    assert.deepEqual(codes(check(`canReach(machine, "review");\nmatchesTrajectory(someTrail, ["nothing", "known"]);`)), []);
    // a trail (entries of events and states), or a list built in code, may hold anything (its states,
    // `trail.map((e) => e.state)`, are a state path: eval-idioms.test.ts)
    assert.deepEqual(codes(check(`const sim = await simulateAgent(machine, { input: {}, script: {} });\nmatchesTrajectory(sim.trail, ["nothing"]);\nmatchesTrajectory(sim.trail.map((e) => e.event), ["nothing"]);`)), []);
  });
});

describe("checks: matchesTrajectory over an event log", () => {
  const logMachine = `import { z } from "zod";
import { setupAgent, runAgent } from "@statelyai/agent";
const agent = setupAgent({ context: z.object({}), events: { SUBMIT: {}, MORE: z.object({ details: z.string() }) }, requests: { ask: { model: "m", schemas: {}, prompt: "p" } } });
export const machine = agent.createMachine({
  initial: "idle",
  states: {
    idle: { on: { SUBMIT: "asking" } },
    asking: { invoke: { src: "ask", onDone: "waiting" } },
    waiting: { on: { MORE: "asking", ACCEPT: "done" } },
    done: { type: "final" },
  },
});
`;
  const run = (body: string) => analyzeIn({ "agent.ts": logMachine, "agent.test.ts": evalFile(`import { runAgent } from "@statelyai/agent";\nconst result = await runAgent(machine, { input: {} });\nconst seam = await runSeam(machine, { scripts: {}, seam: { request: "ask" } });\n${body}`) }, "agent.test.ts");

  it("event types are not states: declared and handled events, built-ins, state names and objects by type pass", () => {
    const a = run(`matchesTrajectory(seam.after.events, ["MORE", "ACCEPT"]);\nmatchesTrajectory(result.events, ["@agent.init", "xstate.done.actor.0", "SUBMIT", "done"]);\nmatchesTrajectory(seam.eventsAfter, [{ type: "MORE", details: "x" }]);`);
    assert.deepEqual(a.findings, []);
  });

  it("near miss: an event a handled wildcard (\"user.*\", \"*\") matches", () => {
    const wild = (on: string) => logMachine.replace(`waiting: { on: { MORE: "asking", ACCEPT: "done" } }`, `waiting: { on: { MORE: "asking", ACCEPT: "done", ${on} } }`);
    const body = `const result = await runAgent(machine, { input: {} });\nmatchesTrajectory(result.events, ["user.scroll"]);`;
    const analyze = (machineText: string) => codes(analyzeIn({ "agent.ts": machineText, "agent.test.ts": evalFile(`import { runAgent } from "@statelyai/agent";\n${body}`) }, "agent.test.ts"));
    assert.deepEqual(analyze(wild(`"user.*": "asking"`)), []);
    assert.deepEqual(analyze(wild(`"*": "asking"`)), []);
    assert.deepEqual(analyze(wild(`"admin.*": "asking"`)), ["unknown-event"]);
  });

  it("fires on an event type the machine neither declares nor handles, with the nearest as fix", () => {
    const a = run(`matchesTrajectory(seam.after.events, ["MORE", "ACCEPTT"]);\nmatchesTrajectory(result.events, [{ type: "SUBMITT" }]);`);
    assert.deepEqual(a.findings.map((f) => [f.code, f.fixes?.[0]?.edits[0]?.newText]), [["unknown-event", "ACCEPT"], ["unknown-event", "SUBMIT"]]);
  });

  it("near miss: events of a machine whose events cannot all be read are not judged", () => {
    const open = logMachine.replace("events: { SUBMIT: {}, MORE: z.object({ details: z.string() }) }", "events: loadEvents()");
    const a = analyzeIn({ "agent.ts": open, "agent.test.ts": evalFile(`import { runAgent } from "@statelyai/agent";\nconst result = await runAgent(machine, { input: {} });\nmatchesTrajectory(result.events, ["WHATEVER"]);`) }, "agent.test.ts");
    assert.deepEqual(a.findings, []);
  });
});

describe("checks: empty-trajectory", () => {
  it("fires on an empty expected trajectory", () => {
    const a = check(`matchesTrajectory(trail, []);`);
    assert.deepEqual(codes(a), ["empty-trajectory"]);
  });
  it("near miss: a non-empty one", () => {
    assert.deepEqual(codes(check(`matchesTrajectory(trail, ["drafting"]);`)), []);
  });
});
