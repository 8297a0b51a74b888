// One run queue for lens runs and Testing view runs: the same concurrency limit, the same cancellation
// and states. Lens runs (LensRuns) and a Testing view file (enqueueEvalFile) go through one RunQueue that
// starts real harness runs; with a limit of 1 their processes never overlap, with 2 they do.
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { HarnessEvent, ResultView } from "@agent-lens/protocol";
import { startHarnessRun } from "../../client/src/run/harness";
import { starterEval } from "../../client/src/run/flow-eval";
import { LensRuns, lensKey } from "../../client/src/run/lens-runs";
import { EMPTY_CATALOG, type WorkspaceQueries } from "../../client/src/run/queries";
import { RunQueue, type StartRun } from "../../client/src/run/queue";
import { enqueueEvalFile, testFileKey } from "../../client/src/testing/file-runs";
import type { TestOutcome } from "../../client/src/testing/test-model";
import { suiteCache } from "../harness/support";

const DIR = resolve(__dirname, "../fixtures/client/queue");
const LENS_FILE = join(DIR, "lens.test.ts");
const TESTS_FILE = join(DIR, "tests.test.ts");

/** The language server's answers, as an idle one gives them (these runs need no catalog or diagram). */
const noAnswers: WorkspaceQueries = { catalog: async () => EMPTY_CATALOG, siteGraphs: async () => [], evalGraphs: async () => [], diagram: async () => undefined };

describe("client: one run queue for lenses, commands and the Testing view", function () {
  this.timeout(120_000);

  describe("queue rules", () => {
    const idle: StartRun = () => Promise.reject(new Error("these jobs start no run"));
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      return { open, opened };
    };

    it("runs at most `limit` jobs at once, first come first served, and starts the next as one ends", async () => {
      const queue = new RunQueue(idle, 2);
      const gates = [gate(), gate(), gate()];
      const order: string[] = [];
      const handles = gates.map((g, i) => queue.enqueue({ key: `j${i}`, label: `job ${i}`, run: async () => { order.push(`start ${i}`); await g.opened; order.push(`end ${i}`); return i; } }));
      assert.deepEqual(handles.map((h) => h.state), ["running", "running", "queued"]);
      assert.deepEqual(queue.snapshot().queued.map((j) => j.key), ["j2"]);
      gates[1]!.open();
      assert.equal(await handles[1]!.result, 1);
      assert.equal(handles[2]!.state, "running");
      gates[0]!.open();
      gates[2]!.open();
      assert.deepEqual(await Promise.all(handles.map((h) => h.result)), [0, 1, 2]);
      assert.deepEqual(order, ["start 0", "start 1", "end 1", "start 2", "end 0", "end 2"]);
      assert.deepEqual(queue.snapshot(), { running: [], queued: [] });
    });

    it("cancel: a queued job never starts (result undefined); a running one sees its signal aborted", async () => {
      const queue = new RunQueue(idle, 1);
      const seen: string[] = [];
      const running = queue.enqueue({ key: "a", label: "a", run: (_start, signal) => new Promise<string>((r) => signal.addEventListener("abort", () => r("aborted"))) });
      const waiting = queue.enqueue({ key: "b", label: "b", run: async () => { seen.push("b ran"); return "b"; } });
      assert.equal(queue.find("b"), waiting);
      waiting.cancel();
      assert.equal(await waiting.result, undefined);
      assert.equal(queue.find("b"), undefined);
      running.cancel();
      assert.equal(await running.result, "aborted");
      assert.deepEqual(seen, []);
    });

    it("a job's own bug is reported and does not stall the queue", async () => {
      const errors: unknown[] = [];
      const queue = new RunQueue(idle, 1, (e) => errors.push(e));
      const broken = queue.enqueue({ key: "x", label: "x", run: async () => { throw new Error("bug"); } });
      const next = queue.enqueue({ key: "y", label: "y", run: async () => "y" });
      assert.equal(await broken.result, undefined);
      assert.equal(await next.result, "y");
      assert.match(String(errors[0]), /bug/);
    });
  });

  describe("lens and Testing view runs through one queue (real harness runs)", () => {
    const cache = suiteCache();
    let saved: string | undefined;
    before(() => {
      saved = process.env.AGENT_LENS_CACHE_DIR;
      process.env.AGENT_LENS_CACHE_DIR = cache();
    });
    after(() => {
      if (saved === undefined) delete process.env.AGENT_LENS_CACHE_DIR;
      else process.env.AGENT_LENS_CACHE_DIR = saved;
    });

    /** Runs one lens run and one Testing view file at once on a queue of `limit`; returns each run's child lifetime. */
    async function both(limit: number) {
      const lives = new Map<string, { start: number; end: number }>();
      const timed: StartRun = (options) => startHarnessRun({
        ...options,
        onEvent: (e: HarnessEvent) => {
          if (e.type === "start") lives.set(options.file, { start: Date.now(), end: Infinity });
          if (e.type === "end") lives.get(options.file)!.end = Date.now();
          options.onEvent(e);
        },
      });
      const queue = new RunQueue(timed, limit);
      let maxRunning = 0;
      const states: string[] = [];
      queue.onDidChange(() => {
        maxRunning = Math.max(maxRunning, queue.snapshot().running.length);
        states.push(`${queue.snapshot().running.length}/${queue.snapshot().queued.length}`);
      });
      const host = { queue, queries: noAnswers, settingsFor: () => ({ timeoutMs: 60_000, runtime: "bundled" as const }), folderOf: () => DIR, log: () => undefined, newRunId: (() => { let n = 0; return () => ++n; })() };
      const shown: ResultView[] = [];
      const lenses = new LensRuns({ ...host, views: { start: () => undefined, update: () => undefined, finish: (v) => shown.push(v) }, ensureTrusted: () => true, showMessage: (m) => assert.fail(m) });
      const target = { kind: "run-turns" as const, file: LENS_FILE, line: 2 };
      const outcomes: TestOutcome[] = [];
      const events: string[] = [];
      const lens = lenses.run(target);
      // The lens's run holds the queue's first slot (its plan needs no catalog: it sits on a call).
      await new Promise((r) => setImmediate(r));
      const fileId = pathToFileURL(TESTS_FILE).href;
      const tests = enqueueEvalFile({ ...host, describe: (f) => f }, { fileId, file: TESTS_FILE, tests: [], wanted: new Set([fileId]) }, {
        enqueued: (id) => events.push(`enqueued ${id === fileId}`), started: (id) => events.push(`started ${id === fileId}`), skipped: (id) => events.push(`skipped ${id}`),
        output: () => undefined, result: (o) => outcomes.push(o),
      });
      const stateAfterBoth = { lens: lenses.stateOf(target), tests: queue.find(testFileKey(TESTS_FILE))?.state };
      assert.equal(queue.find(lensKey(target))?.state, "running");
      const [lensView, testsView] = await Promise.all([lens, tests.result]);
      return { lives, maxRunning, states, stateAfterBoth, lensView, testsView, outcomes, events, shown };
    }

    it("limit 1: the Testing view's file waits for the lens's run (queued, then started); their processes never overlap", async () => {
      const r = await both(1);
      assert.deepEqual(r.stateAfterBoth, { lens: "running", tests: "queued" });
      assert.equal(r.maxRunning, 1);
      assert.deepEqual(r.events, ["enqueued true", "started true"]);
      const lens = r.lives.get(LENS_FILE)!;
      const tests = r.lives.get(TESTS_FILE)!;
      assert.ok(lens.end <= tests.start, `the lens's run ended (${lens.end}) before the test file's began (${tests.start})`);
      assert.equal(r.lensView?.fileStatus, "passed");
      assert.equal(r.testsView?.fileStatus, "passed");
      assert.deepEqual(r.outcomes.map((o) => o.status), ["passed"]);
      assert.deepEqual(r.shown.map((v) => v.title), ["Run turns · lens.test.ts"]);
    });

    it("limit 2: both run at once (the limit is what kept them apart)", async () => {
      const r = await both(2);
      assert.deepEqual(r.stateAfterBoth, { lens: "running", tests: "running" });
      assert.equal(r.maxRunning, 2);
      const lens = r.lives.get(LENS_FILE)!;
      const tests = r.lives.get(TESTS_FILE)!;
      assert.ok(tests.start < lens.end && lens.start < tests.end, "the two processes overlapped");
    });

    it("a second click on a queued lens cancels it: it never runs", async () => {
      let gateOpen!: () => void;
      const queue = new RunQueue(startHarnessRun, 1);
      const blocker = queue.enqueue({ key: "blocker", label: "blocker", run: () => new Promise<void>((r) => (gateOpen = r)) });
      const views: ResultView[] = [];
      const lenses = new LensRuns({ queue, queries: noAnswers, views: { start: () => undefined, update: () => undefined, finish: (v) => views.push(v) }, settingsFor: () => ({ timeoutMs: 60_000, runtime: "bundled" }), folderOf: () => DIR, log: () => undefined, newRunId: () => 1, ensureTrusted: () => true, showMessage: () => undefined });
      const target = { kind: "run-turns" as const, file: LENS_FILE, line: 2 };
      const first = lenses.run(target);
      await new Promise((r) => setImmediate(r));
      assert.equal(lenses.stateOf(target), "queued");
      assert.equal(await lenses.run(target), undefined, "the second click only cancels");
      assert.equal(await first, undefined);
      assert.equal(lenses.stateOf(target), undefined);
      gateOpen();
      await blocker.result;
      assert.deepEqual(views.map((v) => [v.status, v.fileStatus, v.tests.length, v.turns.length]), [["cancelled", "cancelled", 0, 0]], "the panel says it was cancelled; nothing ran");
    });
  });
});

describe("client: Run turns on a flow no eval runs", () => {
  it("shows the flow's page, saying why, with a way to start an eval — not one sentence, and nothing queued", async () => {
    const queue = new RunQueue(startHarnessRun, 1);
    const pages: Array<{ flowId: string; reason: string }> = [];
    const messages: string[] = [];
    const lenses = new LensRuns({
      queue, queries: noAnswers, views: { start: () => assert.fail("nothing runs"), update: () => undefined, finish: () => undefined },
      settingsFor: () => ({ timeoutMs: 60_000, runtime: "bundled" }), folderOf: () => DIR, log: () => undefined, newRunId: () => 1, ensureTrusted: () => true,
      showMessage: (m) => messages.push(m), showFlowWithoutEval: (t, reason) => pages.push({ flowId: t.flowId, reason }),
    });
    assert.equal(await lenses.run({ kind: "run-turns", file: "/w/flows.ts", flowId: "cadastro" }), undefined);
    assert.deepEqual(messages, []);
    assert.equal(pages.length, 1);
    assert.equal(pages[0]!.flowId, "cadastro");
    assert.match(pages[0]!.reason, /No eval file runs the flow "cadastro" yet/);
    assert.deepEqual(queue.snapshot(), { running: [], queued: [] });
    // A lens that asks which machine: no one last verdict to show
    const shared = { kind: "run-seam" as const, file: "/w/m.ts", request: "summarize", machineExport: "a", machineId: "m#a", choices: [{ name: "a", machineExport: "a", machineId: "m#a", file: "/w/m.ts", line: 3 }, { name: "b", machineExport: "b", machineId: "m#b", file: "/w/m.ts", line: 9 }] };
    assert.equal(lenses.lastVerdictOf(shared), undefined);
    assert.equal(lenses.stateOf(shared), undefined);
    const starter = starterEval("cadastro", "/w/falai/mistakes.ts");
    assert.equal(starter.file, "/w/falai/cadastro.test.ts", "beside the flow, named to match the test globs");
    assert.match(starter.content, /import \* as agentFile from "\.\/mistakes";/);
    assert.match(starter.content, /test\("cadastro: the first turn"/);
  });
});
