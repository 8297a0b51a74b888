// setupAgent / runAgent options beyond the seed: isIdle (machine rule and host override), onTransition,
// the event log (result.events), payload-less events written {}, src "agent.decide", .provide, and
// the snapshot helpers.
import assert from "node:assert/strict";
import { z } from "zod";
import { createAsyncLogic } from "xstate";
import { AgentError, getStateMeta, getStatePath, isAgentIdle, runAgent, setupAgent } from "../../../runtime/src/stately/index";
import { createScriptedExecutors, simulateAgent } from "../../../runtime/src/stately/testing";
import { createActor, inspectTransitions, observeTransitions } from "../../../runtime/src/stately/xstate";
import { chatMachine, seedMachine } from "./fixtures";

const isCode = (code: string) => (error: unknown) => error instanceof AgentError && error.code === code;
const never = createAsyncLogic({ run: () => new Promise<never>(() => {}) });

/** Waits for approval with a listener invoke that never settles (a human gate kept open by an actor). */
function gateMachine(isIdle?: (snapshot: { value: unknown }) => boolean) {
  const agent = setupAgent({
    context: z.object({ n: z.number() }),
    events: { APPROVE: {}, NOTE: z.object({ text: z.string() }) },
    requests: { ask: { model: "m", prompt: "ask" } },
    actors: { listen: never },
    ...(isIdle ? { isIdle } : {}),
  });
  return agent.createMachine({
    context: { n: 0 },
    initial: "asking",
    states: {
      asking: { invoke: { src: "ask", onDone: { target: "waiting" } } },
      waiting: {
        meta: { interaction: "approve" } as never, // (setupAgent takes no meta schema; see runtime/README.md)
        invoke: { src: "listen" },
        on: { APPROVE: { target: "done" }, NOTE: ({ context }) => ({ context: { n: context.n + 1 } }) },
      },
      done: { type: "final" },
    },
  });
}

const race = <T>(p: Promise<T>, ms = 500) => Promise.race([p, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms))]);

describe("setupAgent({ isIdle }) and runAgent({ isIdle })", () => {
  it("without a rule, a state kept busy by a pending invoke never settles idle; the machine's rule settles it", async () => {
    const executors = createScriptedExecutors({ text: { ask: "q" } });
    const stuck = await race(runAgent(gateMachine(), { executors, signal: AbortSignal.timeout(200) }));
    assert.ok(stuck !== "timeout" && stuck.status === "error" && isCode("aborted")(stuck.error), "the default rule waits for the listener until aborted");
    const idle = await runAgent(gateMachine((s) => s.value === "waiting"), { executors });
    assert.equal(idle.status, "idle");
    assert.equal(idle.snapshot.value, "waiting");
    const done = await runAgent(gateMachine((s) => s.value === "waiting"), { executors, snapshot: idle.snapshot, event: { type: "APPROVE" } });
    assert.equal(done.status, "done");
  });

  it("runAgent's rule overrides the machine's; a rule that throws ends the run with a coded error", async () => {
    const executors = createScriptedExecutors({ text: { ask: "q" } });
    const overridden = await runAgent(gateMachine(() => false), { executors, isIdle: (s) => s.value === "waiting" });
    assert.equal(overridden.status, "idle");
    const broken = await runAgent(chatMachine(), { executors: createScriptedExecutors({ text: { reply: "r" } }), isIdle: () => { throw new Error("bad rule"); } });
    assert.equal(broken.status, "error");
    assert.ok(isCode("invalid-options")((broken as { error: unknown }).error));
    assert.throws(() => setupAgent({ context: z.object({}), requests: {}, isIdle: "waiting" as never }), isCode("invalid-options"));
  });

  it("a rule that says 'not idle' keeps the run going while a timer is pending", async () => {
    const agent = setupAgent({ context: z.object({}), requests: {}, isIdle: (s) => s.value === "later" });
    const machine = agent.createMachine({ context: {}, initial: "soon", states: { soon: { after: { 20: { target: "later" } } }, later: {} } });
    const result = await runAgent(machine, { executors: {} });
    assert.equal(result.status, "idle");
    assert.equal(result.snapshot.value, "later");
    // without a rule a pending timer does not keep the run busy
    const plain = setupAgent({ context: z.object({}), requests: {} }).createMachine({ context: {}, initial: "soon", states: { soon: { after: { 20: { target: "later" } } }, later: {} } });
    assert.equal((await runAgent(plain, { executors: {} })).snapshot.value, "soon");
  });

  it("isAgentIdle is the default rule: active with no invoke still running", async () => {
    const snapshots: Array<{ value: unknown; idle: boolean }> = [];
    await runAgent(seedMachine(), {
      input: { topic: "t" },
      executors: createScriptedExecutors({ text: { draftEmail: "d", scoreDraft: { score: 1 } } }),
      onTransition: (snapshot) => snapshots.push({ value: snapshot.value, idle: isAgentIdle(snapshot as never) }),
    });
    assert.deepEqual(snapshots, [{ value: "drafting", idle: false }, { value: "scoring", idle: false }, { value: "done", idle: false }]);
  });
});

describe("runAgent({ onTransition }) and result.events", () => {
  it("onTransition sees each transition's snapshot and event; a callback that throws ends the run with its error", async () => {
    const seen: string[] = [];
    await runAgent(seedMachine(), {
      input: { topic: "t" },
      executors: createScriptedExecutors({ text: { draftEmail: "d", scoreDraft: { score: 1 } } }),
      onTransition: (snapshot, event) => seen.push(`${event.type}→${getStatePath(snapshot)}`),
    });
    assert.deepEqual(seen, ["@xstate.init→drafting", "xstate.done.actor→scoring", "xstate.done.actor→done"]);
    const failed = await runAgent(seedMachine(), {
      input: { topic: "t" },
      executors: createScriptedExecutors({ text: { draftEmail: "d", scoreDraft: { score: 1 } } }),
      onTransition: () => { throw new Error("callback broke"); },
    });
    assert.equal(failed.status, "error");
    assert.equal((failed as { error: Error }).error.message, "callback broke");
    await assert.rejects(runAgent(seedMachine(), { input: { topic: "t" }, executors: {}, onTransition: 1 as never }), isCode("invalid-options"));
  });

  it("the log starts with @agent.init (the input), one JSON-safe entry per transition; resuming with events continues it", async () => {
    const executors = createScriptedExecutors({ text: { reply: ["one", "two"] } });
    const first = await runAgent(chatMachine(), { executors });
    assert.deepEqual(first.events.map((e) => [e.index, e.event.type]), [[0, "@agent.init"], [1, "xstate.done.actor"]]);
    const entry = first.events[1]!;
    assert.equal(entry.schemaVersion, 1);
    assert.equal(entry.machineId, "(machine)");
    assert.match(entry.machineVersion, /^[0-9a-f]{8}$/);
    assert.ok(!Number.isNaN(Date.parse(entry.recordedAt)));
    assert.deepEqual(JSON.parse(JSON.stringify(first.events)), first.events);
    const second = await runAgent(chatMachine(), { executors, snapshot: first.snapshot, event: { type: "USER", text: "hi" }, events: first.events });
    assert.deepEqual(second.events.map((e) => [e.index, e.event.type]), [[0, "@agent.init"], [1, "xstate.done.actor"], [2, "USER"], [3, "xstate.done.actor"]]);
    assert.equal(new Set(second.events.map((e) => e.id)).size, 4);
    assert.equal(second.events[2]!.event.text, "hi");
    await assert.rejects(runAgent(chatMachine(), { executors, events: [1] as never }), isCode("invalid-options"));
    const seeded = await runAgent(seedMachine(), { input: { topic: "t" }, executors: createScriptedExecutors({ text: { draftEmail: "d", scoreDraft: { score: 1 } } }) });
    assert.deepEqual(seeded.events[0]!.event, { type: "@agent.init", input: { topic: "t" } });
    // the version names the machine's structure: another machine differs, the same machine repeats it
    assert.notEqual(seeded.events[0]!.machineVersion, first.events[0]!.machineVersion);
    assert.equal(second.events[3]!.machineVersion, first.events[0]!.machineVersion);
  });
});

describe("setupAgent extras", () => {
  it("events written {} have no payload; src \"agent.decide\" decides like agent.decide", async () => {
    const agent = setupAgent({ context: z.object({}), events: { YES: {}, NO: z.object({ why: z.string() }) }, requests: {} });
    const machine = agent.createMachine({
      context: {},
      initial: "deciding",
      states: {
        deciding: { invoke: { src: "agent.decide", input: { name: "gate", model: "judge" } } as never, on: { YES: { target: "yes" }, NO: { target: "no" } } },
        yes: { type: "final" },
        no: { type: "final" },
      },
    });
    const offered: string[] = [];
    const yes = await runAgent(machine, { executors: { decide: async (request) => { offered.push(...request.events.map((o) => `${o.type}:${o.schema ? "schema" : "none"}`)); return { event: { type: "YES" } }; } } });
    assert.equal(yes.snapshot.value, "yes");
    assert.deepEqual(offered.sort(), ["NO:schema", "YES:none"]);
    const bad = await runAgent(machine, { executors: createScriptedExecutors({ decisions: { gate: { type: "NO" } } }) });
    assert.equal(bad.status, "error");
    assert.ok(isCode("decision-exhausted")((bad as { error: unknown }).error));
    assert.match(String((bad as { error: unknown }).error), /invalid-payload/);
  });

  it("machine.provide keeps the agent's schemas and rules; agent.schemas lists them", async () => {
    const agent = setupAgent({ input: z.object({ topic: z.string() }), context: z.object({ topic: z.string() }), requests: {}, actors: { listen: never } });
    const machine = agent.createMachine({ context: ({ input }) => ({ topic: input.topic }), initial: "a", states: { a: { invoke: { src: "listen", onDone: { target: "b" } } }, b: { type: "final" } } });
    const provided = machine.provide({ actors: { listen: createAsyncLogic({ run: async () => 1 }) } } as never);
    await assert.rejects(runAgent(provided, { input: { topic: 1 } as never, executors: {} }), isCode("invalid-machine-input"));
    assert.equal((await runAgent(provided, { input: { topic: "t" }, executors: {} })).status, "done");
    assert.deepEqual(Object.keys(agent.schemas).sort(), ["context", "input"]);
    const sim = await simulateAgent(provided, { input: { topic: "t" }, script: {} });
    assert.equal(sim.status, "done");
  });

  it("actorSources registers actors as actors does (the name upstream's newer docs use)", async () => {
    const agent = setupAgent({ context: z.object({}), requests: {}, actorSources: { load: createAsyncLogic({ run: async () => 7 }) } });
    const machine = agent.createMachine({ context: {}, initial: "a", states: { a: { invoke: { src: "load", onDone: { target: "b" } } }, b: { type: "final" } } });
    const result = await runAgent(machine, { executors: {} });
    assert.equal(result.status, "done");
    assert.equal(result.snapshot.value, "b");
  });

  it("getStatePath and getStateMeta read snapshots and state values", async () => {
    assert.equal(getStatePath({ review: { pane: "editing" } }), "review.pane.editing");
    assert.equal(getStatePath("drafting"), "drafting");
    assert.throws(() => getStatePath(3 as never), isCode("invalid-options"));
    const idle = await runAgent(gateMachine((s) => s.value === "waiting"), { executors: createScriptedExecutors({ text: { ask: "q" } }) });
    assert.equal(getStatePath(idle.snapshot), "waiting");
    let meta: unknown;
    await runAgent(gateMachine((s) => s.value === "waiting"), {
      executors: createScriptedExecutors({ text: { ask: "q" } }),
      onTransition: (snapshot) => { meta = getStateMeta(snapshot as never); },
    });
    assert.deepEqual(meta, { interaction: "approve" });
  });
});

describe("observeTransitions", () => {
  it("reports the root's transitions, the initial one included, through its own hook or through inspection", () => {
    const machine = setupAgent({ context: z.object({}), events: { GO: {} }, requests: {} }).createMachine({ context: {}, initial: "a", states: { a: { on: { GO: { target: "b" } } }, b: {} } });
    for (const hooked of [true, false]) {
      const actor = createActor(machine as never);
      const seen: string[] = [];
      (hooked ? observeTransitions : inspectTransitions)(actor, (snapshot, event) => seen.push(`${event.type}→${String(snapshot.value)}`));
      actor.start();
      actor.send({ type: "GO" } as never);
      assert.deepEqual(seen, ["@xstate.init→a", "GO→b"], hooked ? "own hook" : "inspection fallback");
      actor.stop();
    }
  });
});
