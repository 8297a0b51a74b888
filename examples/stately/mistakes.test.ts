// Deliberate mistakes in an eval. First: "draftEmial" is not a request (nor a model key) of the email
// machine, so its queue is never used — runSeam rejects it, and the checker flags the key.
import assert from "node:assert/strict";
import { runSeam } from "@statelyai/agent/testing";
import { machine } from "./email-agent";
import { inlineMachine } from "./mistakes";

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

// A second one: "writer" is a model key, so its queue answers every writer request without a queue of
// its own in call order — "summarize" and the unnamed title request. Which answer reaches which call
// depends on the order the machine makes them; naming the title request and keying by name says it.
const titled = await runSeam(inlineMachine, {
  scripts: {
    writer: ["A summary.", "A title."], // expect: unnamed-request
  },
  seam: { request: "summarize" },
});
assert.equal(titled.seamOutput, "A summary.");
