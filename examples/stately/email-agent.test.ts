// Evals for the email machine, as the document writes them: a seam eval with every request scripted,
// and a full run with plain-function executors that route on request.name. A plain script: it passes
// when it runs to the end.
import assert from "node:assert/strict";
import { runAgent } from "@statelyai/agent";
import { runSeam } from "@statelyai/agent/testing";
import { machine } from "./email-agent";

// Seam evals: the seam is scoreDraft; both requests are answered from scripts.
const run = await runSeam(machine, {
  input: { topic: "saved cards at checkout" },
  scripts: {
    draftEmail: ["Checkout now supports saved cards."],
    scoreDraft: [{ score: 4 }],
  },
  seam: { request: "scoreDraft" },
});

assert.deepEqual(run.seamOutput, { score: 4 });
assert.deepEqual(run.calls.map((call) => call.source), ["script", "script"]);

// Plain-function executors: the machine only, no provider.
const calls: string[] = [];

const result = await runAgent(machine, {
  input: { topic: "saved cards at checkout" },
  executors: {
    generateText: async (request) => {
      calls.push(request.name ?? "");
      switch (request.name) {
        case "draftEmail":
          return { result: "Checkout now supports saved cards." };
        case "scoreDraft":
          return { result: { score: 4 } };
        default:
          throw new Error(`No answer for request "${request.name}"`);
      }
    },
  },
});

assert.deepEqual(calls, ["draftEmail", "scoreDraft"]);
assert.equal(result.status, "done");
if (result.status === "done") {
  assert.deepEqual(result.output, { draft: "Checkout now supports saved cards.", score: 4 });
}
