// The runtime's messages say the user's names: state paths instead of XState's state node ids, "the
// machine" instead of its default id "(machine)", "the unnamed request of state …" instead of a generated
// invoke id; XState's own words stay on the error as `rawMessage` (and `raw` in a report).
import assert from "node:assert/strict";
import { createTextLogic, runAgent } from "../../../runtime/src/stately";
import { runSeam } from "../../../runtime/src/stately/testing";
import { errorPayload } from "../../../runtime/src/stately/json-safe";
import { notesAgent, typoMachine } from "./notes-agent";

const agent = notesAgent;

describe("stately: messages in the user's names", () => {
  it("an invalid transition names the state path and the machine, not '(machine).summarizing'", async () => {
    const typo = typoMachine();
    const result = await runAgent(typo, { executors: { generateText: async () => ({ result: "s" }) } });
    assert.equal(result.status, "error");
    const error = (result as { error: Error & { rawMessage?: string } }).error;
    assert.equal(error.message, `Invalid transition for state "summarizing": Child state 'reveiw' does not exist on the machine`);
    assert.equal(error.rawMessage, "Invalid transition for '(machine).summarizing': Child state 'reveiw' does not exist on '(machine)'");
    assert.equal(errorPayload(error).raw, error.rawMessage, "the report keeps XState's words for the hover");
  });

  it("a machine with its own id is named by it", async () => {
    const named = agent.createMachine({
      id: "notes",
      context: { notes: "" },
      initial: "a",
      states: { a: { invoke: { src: "summarize", input: ({ context }) => ({ notes: context.notes }), onDone: () => ({ target: "nope" as "b" }) } }, b: { type: "final" } },
    });
    const result = await runAgent(named, { executors: { generateText: async () => ({ result: "s" }) } });
    assert.match((result as { error: Error }).error.message, /for state "a": .* on machine "notes"$/);
  });

  it("runSeam lists an unnamed request by its state, not by its generated invoke id", async () => {
    const inline = agent.createMachine({
      context: { notes: "" },
      initial: "titling",
      states: { titling: { invoke: { src: createTextLogic({ model: "writer", prompt: "Title?" }), onDone: { target: "done" } } }, done: { type: "final" } },
    });
    await assert.rejects(runSeam(inline, { scripts: {}, seam: { request: "summarize" } }), (error: Error) => {
      assert.match(error.message, /its text requests: the unnamed request of state "titling"\.$/);
      assert.doesNotMatch(error.message, /\(machine\)/);
      return true;
    });
  });
});
