// The run history (issue 27, item 2) and the compare view built from it: which earlier run "previous" and
// "last passing" are, the bounds, a history that survives a restart through its store, and the first
// divergence and the split on the diagram from the CLI's own diff library.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HarnessEvent, ResultView } from "@agent-lens/protocol";
import { Renderer } from "../../client/media/render";
import { buildCompareView, splitNode } from "../../client/src/panel/compare";
import { buildResultView, sourceOf } from "../../client/src/panel/view-model";
import { RUNS_PER_SUBJECT, RunHistory, SUBJECTS, type HistoryStore } from "../../client/src/runs/history";
import { fileHistoryStore } from "../../client/src/runs/history-store";
import { FakeElement, fakeDocument } from "./fakeDom";
import { EVAL, machineGraph, seamPayload } from "./samples";

function memoryStore(): HistoryStore & { text?: string } {
  const store: HistoryStore & { text?: string } = { read: () => store.text, write: (t) => { store.text = t(); } };
  return store;
}

/** A seam run of the sample machine; `score` is the seam's answer, `path` the states after the seam. */
function run(runId: number, score: number, after: string[], status: "passed" | "failed" = "passed", title = "Run seam · scoreDraft"): ResultView {
  const data = { ...seamPayload, seamOutput: { score }, after: { statePath: after, events: [{ type: "xstate.done.actor", data: { actorId: "0.(machine).scoring", output: { result: { score } } } }] } };
  const events: HarnessEvent[] = [
    { type: "start", file: EVAL, pid: 1, time: "2026-12-05T00:00:00.000Z", runtime: {} },
    { type: "result", kind: "seam", callSite: { file: EVAL, line: 12, column: 19 }, data },
    { type: "end", file: EVAL, status, durationMs: 5, summary: { passed: status === "passed" ? 1 : 0, failed: status === "failed" ? 1 : 0, skipped: 0 } },
  ];
  return buildResultView({ runId, title, file: EVAL, focus: { file: EVAL, line: 12 }, events, graphs: [machineGraph] });
}

describe("client: run history and the compare view", () => {
  it("knows the previous run and the last passing one of the same lens, and keeps them over a restart", () => {
    const store = memoryStore();
    let now = 1000;
    const history = new RunHistory(store, "s1", () => now++);
    const views = [run(1, 4, ["done"]), run(2, 1, ["scoring"], "failed"), run(3, 2, ["scoring"], "failed")];
    assert.equal(history.marks(views[0]!), undefined);
    for (const v of views) history.record(v, sourceOf(v)!);
    history.record(views[2]!, sourceOf(views[2]!)!); // once per run
    assert.deepEqual(history.marks(views[2]!), { previous: { at: 1001, status: "failed" }, passing: { at: 1000, status: "passed" } });
    assert.deepEqual(history.marks(views[1]!), { previous: { at: 1000, status: "passed" }, passing: { at: 1000, status: "passed" } });
    // another lens is another subject
    const other = run(4, 4, ["done"], "passed", "Run seam · draftEmail");
    history.record(other, sourceOf(other)!);
    assert.equal(history.marks(other), undefined);
    // a new session reads the store: the last run of the old one is the previous of a new run
    const again = new RunHistory(store, "s2", () => now++);
    const next = run(1, 4, ["done"]);
    again.record(next, sourceOf(next)!);
    assert.equal(again.earlier(next).previous?.runId, 3);
    assert.ok(!store.text!.includes('"console"'));
  });

  it("is bounded: runs per subject and subjects", () => {
    const history = new RunHistory(memoryStore(), "s");
    for (let i = 1; i <= RUNS_PER_SUBJECT + 3; i++) {
      const v = run(i, 4, ["done"]);
      history.record(v, sourceOf(v)!);
    }
    const last = run(RUNS_PER_SUBJECT + 3, 4, ["done"]);
    const kept = history.earlier(last);
    assert.equal(kept.current?.runId, RUNS_PER_SUBJECT + 3);
    for (let i = 0; i < SUBJECTS + 5; i++) {
      const v = run(100 + i, 4, ["done"], "passed", `Run seam · s${i}`);
      history.record(v, sourceOf(v)!);
    }
    assert.equal(history.earlier(last).current, undefined, "the least recently used subject went first");
  });

  it("marks the first divergence and where the paths split on the diagram", () => {
    const history = new RunHistory(memoryStore(), "s");
    const a = run(1, 4, ["done"]);
    const b = run(2, 1, ["scoring"], "failed");
    history.record(a, sourceOf(a)!);
    history.record(b, sourceOf(b)!);
    const runs = history.earlier(b);
    const view = buildCompareView({ title: b.title, file: EVAL, line: 12, against: "previous", a: runs.previous!, b: runs.current!, graphs: [machineGraph] });
    assert.equal(view.divergences.length, 1);
    assert.equal(view.divergences[0]!.kind, "call");
    assert.match(view.divergences[0]!.at, /^call \w+ \(event 3\); then state 3: "done" \/ "scoring"$/);
    assert.match(view.divergences[0]!.a, /"score": 4/);
    assert.match(view.divergences[0]!.b, /"score": 1/);
    const d = view.diagrams[0]!;
    assert.deepEqual(d.compare?.a, ["m.drafting", "m.scoring", "m.done"]);
    assert.deepEqual(d.visited, ["m.drafting", "m.scoring"]);
    assert.equal(d.compare?.split, "m.scoring");
    const back: number[] = [];
    const root = new Renderer(fakeDocument, { reveal() {}, rerun() {}, select: (id) => back.push(id) }).compareView(view) as FakeElement;
    assert.match(root.byClass("first-divergence")[0]!.textContent, /^First divergence — call \w+ \(event 3\)/);
    assert.match(root.byClass("side-a")[0]!.textContent, /"score": 4/);
    const split = root.all().find((e) => e.tag === "g" && /\bsplit\b/.test(e.attributes.get("class") ?? ""));
    assert.equal(split?.attributes.get("data-node"), "m.scoring");
    assert.equal(root.all().filter((e) => /\bpath-a\b/.test(e.attributes.get("class") ?? "")).length, 2);
    root.byClass("back")[0]!.click();
    assert.deepEqual(back, [2]);
  });

  it("splitNode: the last shared node, none when the paths agree or share no start", () => {
    assert.equal(splitNode(["a", "b", "c"], ["a", "b", "d"]), "b");
    assert.equal(splitNode(["a", "b"], ["a", "b"]), undefined);
    assert.equal(splitNode(["x"], ["y"]), undefined);
    assert.equal(splitNode(["a"], ["a", "b"]), "a");
  });

  it("the file store: nothing written until a run is kept; a deactivation writes what waits; the next session reads it", () => {
    const folder = join(mkdtempSync(join(tmpdir(), "agent-lens-history-")), "storage");
    try {
      const history = new RunHistory(fileHistoryStore(folder, (line) => assert.fail(line)), "s1");
      assert.equal(existsSync(join(folder, "run-history.json")), false);
      const v = run(1, 4, ["done"]);
      history.record(v, sourceOf(v)!);
      history.dispose();
      const again = new RunHistory(fileHistoryStore(folder, (line) => assert.fail(line)), "s2");
      const next = run(1, 2, ["done"]);
      again.record(next, sourceOf(next)!);
      assert.deepEqual(again.marks(next)?.previous?.status, "passed");
      again.dispose();
    } finally {
      rmSync(join(folder, ".."), { recursive: true, force: true });
    }
  });
});
