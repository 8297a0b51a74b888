// Which result the panel shows: the one the user asked for last, never the last to finish.
import assert from "node:assert/strict";
import { PanelState } from "../../client/src/panel/panel-state";
import type { ResultView } from "@agent-lens/protocol";

const view = (runId: number, status: ResultView["status"] = "running"): { type: "show"; view: ResultView } => ({
  type: "show",
  view: { runId, title: `run ${runId}`, file: "/w/a.ts", status, fileStatus: status, verdict: { status, file: status, erroredResults: 0, text: status }, seams: [], turns: [], agentRuns: [], other: [], tests: [], errors: [], console: [], diagrams: [] },
});

describe("client: the panel shows what the user asked for last", () => {
  it("two lens clicks: the first run finishing later does not replace the second", () => {
    const s = new PanelState();
    s.show(view(1));
    s.show(view(2));
    assert.equal(s.finish(view(1, "passed")), undefined, "run 1 is kept, not shown");
    assert.equal(s.update(view(1, "passed")), undefined);
    assert.deepEqual(s.finish(view(2, "failed"))?.shown.view.runId, 2);
    assert.deepEqual(s.recent().map((r) => [r.runId, r.status]), [[2, "failed"], [1, "passed"]]);
    assert.deepEqual(s.recent().map((r) => r.verdict), ["failed", "passed"], "the recent list says each run's verdict line");
    assert.ok(s.recent().every((r) => typeof r.at === "number"), "and when each was last updated");
  });

  it("a test run the user started shows its result at the end, unless they clicked something since", () => {
    const s = new PanelState();
    const request = s.request();
    assert.equal(s.showIfLatest(request, view(3, "passed"))?.shown.view.runId, 3);
    const later = s.request();
    s.show(view(4));
    assert.equal(s.showIfLatest(later, view(5, "passed")), undefined, "the lens click (run 4) keeps the panel");
    assert.equal(s.pinned, 4);
  });

  it("live updates of the run on show draw without revealing; picking a recent entry shows it", () => {
    const s = new PanelState();
    s.show(view(6));
    assert.deepEqual(s.update(view(6)), { shown: view(6), reveal: false });
    s.show({ type: "diagram", view: { runId: 7, title: "Machine · m", file: "/w/m.ts", diagrams: [] } });
    assert.equal(s.recent()[0].status, "diagram");
    assert.equal(s.select(6)?.shown.view.runId, 6);
    assert.equal(s.pinned, 6);
    assert.equal(s.select(99), undefined);
  });

  it("runs of the same lens read apart by their time in the recent list", () => {
    let now = 1_000;
    const s = new PanelState(() => now);
    for (const id of [1, 2, 3]) {
      now += 60_000;
      const same = view(id, "failed");
      s.show({ ...same, view: { ...same.view, title: "Run seam · summarize" } });
    }
    const recent = s.recent();
    assert.deepEqual(recent.map((r) => r.at), [181_000, 121_000, 61_000]);
    assert.equal(new Set(recent.map((r) => `${r.title} ${r.verdict} ${r.at}`)).size, 3, "no two entries alike");
  });
});
