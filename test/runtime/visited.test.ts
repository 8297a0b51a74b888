// What a run visited, as the reports carry it for agent coverage (issue 27): stately runs record every
// state entered (transient ones too), every transition with its event as written and its target, and the
// requests invoked; turns record steps entered, the way out of each step, and the fields filled. Only
// under a reporter.
import assert from "node:assert/strict";
import { createAsyncLogic, setup } from "xstate";
import { falai, fakeClock } from "@falai/agent";
import { REPORTER_KEY, type AgentRunReportPayload, type RuntimeReport, type SeamReportPayload, type TurnReportPayload } from "../../runtime/src/shared/report";
import { runAgent } from "../../runtime/src/stately/index";
import { runSeam } from "../../runtime/src/stately/testing";
import { RunTrace } from "../../runtime/src/stately/trace";
import { seedMachine } from "./stately/fixtures";
import { scripted, spoken, understood, T0 } from "./falai/scripted";

const g = globalThis as Record<symbol, unknown>;
const reports: RuntimeReport[] = [];

// A router passes through two transient states in the start's macrostep (a guarded `always` list, then a
// function transition), a parallel state enters both regions, and a delayed transition is labelled by its key.
// (v5-style string targets, which xstate v6 runs but does not type: the config is passed untyped)
const config: Record<string, unknown> = {
  id: "router",
  initial: "start",
  states: {
    start: { always: [{ guard: () => false, target: "never" }, { target: "route" }] },
    route: { always: () => ({ target: "busy" }) },
    never: {},
    busy: {
      type: "parallel",
      states: { a: { initial: "one", states: { one: {}, two: {} } }, b: { initial: "x", states: { x: {} } } },
      invoke: { src: "work", onDone: ({ output }: { output: unknown }) => ({ target: "waiting", context: { n: output } }) },
    },
    waiting: { after: { 5: "done" }, on: { SKIP: "done" } },
    done: { type: "final" },
  },
};
const machine = setup({ actors: { work: createAsyncLogic({ run: async () => 1 }) } }).createMachine(config as never);

describe("visited: what reports carry for agent coverage", () => {
  beforeEach(() => {
    reports.length = 0;
    g[REPORTER_KEY] = (r: RuntimeReport) => reports.push(r);
  });
  afterEach(() => delete g[REPORTER_KEY]);

  it("runAgent: transient states, both regions of a parallel state, function transitions credited with what they entered, events as written", async () => {
    const result = await runAgent(machine as never, { executors: {}, isIdle: () => false });
    assert.equal(result.status, "done");
    const v = (reports[0]!.payload as AgentRunReportPayload).visited!;
    assert.deepEqual(v.machine, { id: "router", states: ["start", "route", "never", "busy", "busy.a", "busy.a.one", "busy.a.two", "busy.b", "busy.b.x", "waiting", "done"] });
    assert.deepEqual([...v.states].sort(), ["busy", "busy.a", "busy.a.one", "busy.b", "busy.b.x", "done", "route", "start", "waiting"]);
    const t = (source: string) => v.transitions.filter((x) => x.source === source).map(({ event, targets, inferred }) => ({ event, targets: [...targets].sort(), inferred }));
    assert.deepEqual(t("start"), [{ event: "always", targets: ["route"], inferred: undefined }]);
    assert.deepEqual(t("route"), [{ event: "always", targets: ["busy", "busy.a", "busy.a.one", "busy.b", "busy.b.x"], inferred: true }]);
    assert.deepEqual(t("busy"), [{ event: "done", targets: ["waiting"], inferred: true }]);
    assert.deepEqual(t("waiting"), [{ event: "after 5", targets: ["done"], inferred: undefined }]);
    assert.deepEqual(v.requests, []);
  });

  it("runSeam: the requests invoked, by name; the seam machine's states and transitions", async () => {
    await runSeam(seedMachine(), { input: { topic: "t" }, scripts: { draftEmail: ["d"], scoreDraft: [{ score: 4 }] }, seam: { request: "scoreDraft" } });
    const v = (reports[0]!.payload as SeamReportPayload).visited!;
    assert.deepEqual(v.requests, ["draftEmail", "scoreDraft"]);
    assert.deepEqual(v.states, ["drafting", "scoring", "done"]);
    assert.deepEqual(v.transitions.map((x) => `${x.source} ${x.event} ${x.targets.join()}`), ["drafting done scoring", "scoring done done"]);
  });

  it("nothing is recorded without a reporter", () => {
    assert.ok(new RunTrace().visited, "under a reporter");
    delete g[REPORTER_KEY];
    assert.equal(new RunTrace().visited, undefined);
  });

  it("turns: steps entered, the way out of each (then, else, onFail, a branch), fields a model call filled", async () => {
    const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." }, plano: { type: "string" } });
    const flow = f.flow({
      id: "x", name: "X", on: [{ message: [] }],
      steps: [
        { id: "g", if: { known: ["plano"] }, then: "fim", else: "d" },
        { id: "d", do: "falha", onFail: "q" },
        { id: "nunca", say: "não" },
        { id: "q", collect: ["nome"], branches: [{ when: "quer cancelar", then: "fim" }] },
        { id: "fim", say: "tchau" },
      ],
    });
    const agent = f.agent({
      name: "Ana", clock: fakeClock(T0), flows: [flow],
      actions: { falha: f.action({ parameters: {}, run: () => ({ failed: "fora" }) }) },
      provider: scripted({ understand: [understood(), understood({ branches: { "x#m1/q/0": true }, fields: { nome: "Ana" } })], speak: [spoken("Nome?")] }),
    });
    const t1 = await agent.turn({ sessionId: "s", message: "oi", id: "m1", history: [] });
    const v1 = (reports[0]!.payload as TurnReportPayload).visited!;
    assert.deepEqual(v1.flows, ["x"]);
    assert.deepEqual(v1.steps.map((s) => s.step), ["g", "d", "q"]);
    assert.deepEqual(v1.exits.map((e) => [e.step, e.exit]), [["g", "else"], ["d", "onFail"]]);
    await agent.turn({ sessionId: "s", session: t1.session, message: "quero cancelar, sou a Ana", id: "m2", history: [] });
    const v2 = (reports[1]!.payload as TurnReportPayload).visited!;
    assert.deepEqual(v2.flows, []);
    assert.deepEqual(v2.exits, [{ flow: "x", step: "q", exit: "branch", branch: 0 }, { flow: "x", step: "fim", exit: "then" }]);
    assert.deepEqual(v2.steps.map((s) => s.step), ["fim"]);
    assert.deepEqual(v2.fields, ["nome"]);
  });
});
