// simulateAgent, explorePaths, canReach, matchesTrajectory, keylessScripts, describeAgentMachine.
import assert from "node:assert/strict";
import { z } from "zod";
import { AgentError, setupAgent } from "../../../runtime/src/stately/index";
import { notesAgent, typoMachine } from "./notes-agent";
import { canReach, describeAgentMachine, explorePaths, keylessScripts, matchesTrajectory, runSeam, simulateAgent } from "../../../runtime/src/stately/testing";
import { chatMachine, reviewMachine, seedMachine, wrappedOutputMachine } from "./fixtures";

const isCode = (code: string) => (error: unknown) => error instanceof AgentError && error.code === code;

describe("verification helpers", () => {
  it("simulateAgent: scripted text, decisions and events per src", async () => {
    const sim = await simulateAgent(reviewMachine(), {
      script: { text: { draft: ["v1", "v2"] }, decisions: { review: [{ type: "REWRITE" }, { type: "APPROVE" }] } },
    });
    assert.equal(sim.status, "done");
    assert.deepEqual(sim.snapshot.value, "approved");
    assert.deepEqual(
      sim.trail.filter((t) => !t.event.startsWith("xstate.")).map((t) => [t.event, t.state]),
      [["@xstate.init", "drafting"], ["REWRITE", "drafting"], ["APPROVE", "approved"]],
    );
  });

  it("simulateAgent: idle when no event is left, exhausted when an answer is missing, errors first", async () => {
    const idle = await simulateAgent(chatMachine(), { script: { text: { reply: ["hi", "again"] }, events: [{ type: "USER", text: "x" }] } });
    assert.equal(idle.status, "idle");
    assert.deepEqual(idle.snapshot.context.replies, ["hi", "again"]);
    const exhausted = await simulateAgent(chatMachine(), { script: { text: { reply: ["hi"] }, events: [{ type: "USER", text: "x" }] } });
    assert.equal(exhausted.status, "exhausted");
    const failed = await simulateAgent(reviewMachine(), { script: { errors: { draft: [new Error("down")] } } });
    assert.equal(failed.status, "done");
    assert.equal(failed.snapshot.value, "failed");
  });

  it("explorePaths: terminals of the seed machine and of a decision loop", () => {
    const seed = explorePaths(seedMachine(), { input: { topic: "t" } });
    assert.deepEqual(seed.terminals.map((t) => [t.states, t.end]), [[["drafting", "scoring", "done"], "done"]]);
    assert.deepEqual(seed.reachedStates.sort(), ["done", "drafting", "scoring"]);
    const review = explorePaths(reviewMachine(), { errors: true });
    const ends = review.terminals.map((t) => t.states[t.states.length - 1]).sort();
    assert.ok(ends.includes("approved") && ends.includes("failed"), JSON.stringify(review.terminals));
    assert.equal(review.hitPathCap, false);
    const capped = explorePaths(reviewMachine(), { errors: true, maxPaths: 1 });
    assert.equal(capped.hitPathCap, true);
  });

  it("explorePaths counts events a guard refuses in prunedByGuard", () => {
    const agent = setupAgent({ context: z.object({ ok: z.boolean() }), events: { GO: z.object({}) }, requests: {} });
    const machine = agent.createMachine({
      context: { ok: false },
      initial: "a",
      states: {
        a: { on: { GO: ({ context }) => (context.ok ? { target: "b" } : undefined), STOP: { target: "c" } } },
        b: { type: "final" },
        c: { type: "final" },
      },
    });
    const result = explorePaths(machine);
    assert.equal(result.prunedByGuard, 1);
    assert.deepEqual(result.terminals.map((t) => t.states), [["a", "c"]]);
    assert.equal(canReach(machine, "b").reachable, false);
  });

  it("explorePaths reports a transition XState rejects as an error of the exploration, not as a guard", () => {
    const typo = typoMachine();
    const agent = notesAgent;
    const result = explorePaths(typo);
    assert.equal(result.prunedByGuard, 0, "no guard pruned anything");
    assert.deepEqual(result.terminals.map((t) => [t.states, t.end]), [[["summarizing"], "error"]]);
    assert.equal(result.errors.length, 1);
    assert.equal(result.errors[0]!.state, "summarizing");
    assert.match(result.errors[0]!.message, /reveiw/);
    assert.doesNotMatch(result.errors[0]!.message, /\(machine\)/, "the user's names, not XState's ids");
    assert.match(result.errors[0]!.message, /state "summarizing"/);
    // An invoke without onDone: its done event changes nothing, and no guard said so.
    const quiet = agent.createMachine({
      context: { notes: "" },
      initial: "a",
      states: { a: { invoke: { src: "summarize", input: ({ context }) => ({ notes: context.notes }) }, on: { NEXT: { target: "b" } } }, b: { type: "final" } },
    });
    const q = explorePaths(quiet);
    assert.equal(q.prunedByGuard, 0);
    assert.deepEqual(q.errors, []);
    assert.deepEqual(q.terminals.map((t) => t.states), [["a", "b"]]);
  });

  it("canReach: witness path, unreachable, unknown state", () => {
    const yes = canReach(reviewMachine(), "approved");
    assert.equal(yes.reachable, true);
    assert.deepEqual(yes.witness?.states, ["drafting", "reviewing", "approved"]);
    assert.equal(canReach(reviewMachine(), "failed").reachable, false); // errors not explored
    assert.equal(canReach(reviewMachine(), "failed", { errors: { draft: new Error("x") } }).reachable, true);
    assert.throws(() => canReach(reviewMachine(), "nowhere"), isCode("unknown-state"));
    // no input needed: the walk starts from an example of the input schema
    assert.equal(canReach(seedMachine(), "done").reachable, true);
    assert.throws(() => canReach(seedMachine(), "done", { input: { topic: 3 } }), isCode("invalid-machine-input"));
    assert.equal(explorePaths(seedMachine()).terminals[0]!.end, "done");
    // a machine that cannot start from the example input asks for one, naming the helper
    const picky = setupAgent({ input: z.object({ code: z.string() }), context: z.object({ code: z.string() }), requests: {} }).createMachine({
      context: ({ input }) => {
        if (input.code !== "secret") throw new Error("wrong code");
        return { code: input.code };
      },
      initial: "open",
      states: { open: {} },
    });
    assert.throws(() => canReach(picky, "open"), (error: unknown) => isCode("invalid-machine-input")(error) && /canReach: the machine could not start without an input \(wrong code\); pass \{ input \}/.test((error as Error).message));
    assert.equal(canReach(picky, "open", { input: { code: "secret" } }).reachable, true);
  });

  it("matchesTrajectory: ordered subsequence with score and first miss; empty and unknown fail loudly", () => {
    const path = ["drafting", "reviewing", "drafting", "reviewing", "approved"];
    assert.deepEqual(matchesTrajectory(path, ["drafting", "approved"]), { matched: true, matchedCount: 2, expectedCount: 2, score: 1 });
    assert.deepEqual(matchesTrajectory(path, ["approved", "drafting"]), { matched: false, matchedCount: 1, expectedCount: 2, score: 0.5, firstMiss: { index: 1, expected: "drafting", searchedFrom: 5 } });
    assert.throws(() => matchesTrajectory(path, []), isCode("empty-trajectory"));
    assert.throws(() => matchesTrajectory(path, ["nope"], { machine: reviewMachine() }), isCode("unknown-state"));
  });

  it("describeAgentMachine lists requests; keylessScripts runs a seam with no eval written", async () => {
    const machine = seedMachine();
    const described = describeAgentMachine(machine);
    assert.deepEqual(described.requests.map((r) => [r.name, r.model, r.kind, r.state]), [["draftEmail", "writer", "text", "drafting"], ["scoreDraft", "judge", "text", "scoring"]]);
    assert.equal(described.requests[0]!.output, "string");
    assert.deepEqual((described.requests[1]!.output as { properties: unknown }).properties, { score: { type: "number" } });
    const scripts = keylessScripts(machine);
    assert.deepEqual(scripts, { draftEmail: ["Example answer for draftEmail."], scoreDraft: [{ score: 0 }] });
    const run = await runSeam(machine, { input: { topic: "t" }, scripts, seam: { request: "scoreDraft" }, repeatLast: true });
    assert.deepEqual(run.seamOutput, { score: 0 });
    assert.equal(run.result.status, "done");
    // an output that is itself { result } is wrapped once more
    assert.deepEqual(keylessScripts(wrappedOutputMachine()), { answer: [{ result: { result: "example" } }] });
  });
});
