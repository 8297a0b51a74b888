import assert from "node:assert/strict";
import { analyzeIn, codes } from "../helpers";

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
  it("fires on canReach / matchesTrajectory names the machine lacks", () => {
    const a = check(`canReach(machine, "reveiw");\nconst sim = await simulateAgent(machine, { input: {}, script: {} });\nmatchesTrajectory(sim.trail, ["drafting", "scorng"]);`);
    assert.deepEqual(codes(a), ["unknown-state-ref", "unknown-state-ref"]);
    assert.deepEqual(a.findings.map((f) => f.fixes?.[0]?.edits[0]?.newText), ["review", "scoring"]);
  });
  it("near miss: names, dotted paths; an actual trajectory of unknown origin is not judged", () => {
    assert.deepEqual(codes(check(`canReach(machine, "review");\nmatchesTrajectory(someTrail, ["nothing", "known"]);`)), []);
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
