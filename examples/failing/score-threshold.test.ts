// A planted FAILING eval, for the Testing view (and the end-to-end suite): the judge is scripted to
// answer 4 and the second test insists on 5, so it fails with an expected/actual diff. Nothing here is
// wrong for the analysis (the scripts and the seam are valid): only running it shows the problem.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runSeam } from "@statelyai/agent/testing";
import { machine } from "../stately/email-agent";

const scripts = {
  draftEmail: ["Checkout now supports saved cards."],
  scoreDraft: [{ score: 4 }],
};

test("the judge's score is the seam output", async () => {
  const run = await runSeam(machine, { input: { topic: "saved cards at checkout" }, scripts, seam: { request: "scoreDraft" } });
  assert.deepEqual(run.seamOutput, { score: 4 });
});

test("the draft scores a perfect 5", async () => {
  const run = await runSeam(machine, { input: { topic: "saved cards at checkout" }, scripts, seam: { request: "scoreDraft" } });
  assert.deepEqual(run.seamOutput, { score: 5 }, "the judge scored the draft below 5");
});
