// node:test-style evals for the support-triage agent: each test is its own item in the Test Explorer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runAgent } from "@statelyai/agent";
import { runSeam } from "@statelyai/agent/testing";
import { machine } from "./support-triage";

const howTo = { ticket: "How do I export my invoices as CSV?" };

test("a how-to question is answered", async () => {
  const names: string[] = [];
  const result = await runAgent(machine, {
    input: howTo,
    executors: {
      decide: async (request) => {
        names.push(request.name ?? "");
        return { event: { type: "ANSWER" } };
      },
      generateText: async (request) => {
        names.push(request.name ?? "");
        return { result: "Open Billing, pick the invoices and choose Export CSV." };
      },
    },
  });
  assert.deepEqual(names, ["triage", "draftReply"]);
  assert.equal(result.status, "done");
  if (result.status === "done") {
    assert.deepEqual(result.output, { route: "answer", reply: "Open Billing, pick the invoices and choose Export CSV." });
  }
});

test("an outage is escalated without drafting a reply", async () => {
  const result = await runAgent(machine, {
    input: { ticket: "Nothing loads since this morning, the whole team is blocked." },
    executors: {
      decide: async () => ({ event: { type: "ESCALATE" } }),
      generateText: async (request) => {
        throw new Error(`unexpected request ${request.name}`);
      },
    },
  });
  assert.equal(result.status, "done");
  if (result.status === "done") assert.deepEqual(result.output, { route: "escalate", reply: null });
});

test("the reply seam, with the decision answered by an executor", async () => {
  const run = await runSeam(machine, {
    input: howTo,
    scripts: { draftReply: ["Open Billing, pick the invoices and choose Export CSV."] },
    seam: { request: "draftReply" },
    executors: { decide: async () => ({ event: { type: "ANSWER" } }) },
  });
  assert.equal(run.seamOutput, "Open Billing, pick the invoices and choose Export CSV.");
});
