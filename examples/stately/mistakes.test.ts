// A deliberate mistake in an eval: "draftEmial" is not a request (nor a model key) of the email machine,
// so its queue is never used — draftEmail is answered from the "writer" model queue instead. The run still
// passes, which is exactly why the checker flags the key.
import assert from "node:assert/strict";
import { runSeam } from "@statelyai/agent/testing";
import { machine } from "./email-agent";

const run = await runSeam(machine, {
  input: { topic: "saved cards at checkout" },
  scripts: {
    writer: ["Checkout now supports saved cards."],
    judge: [{ score: 4 }],
    draftEmial: ["A draft that is never used."], // expect: unknown-script-key
  },
  seam: { request: "scoreDraft" },
});

assert.deepEqual(run.seamOutput, { score: 4 });
