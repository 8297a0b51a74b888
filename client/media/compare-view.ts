// The panel's compare page: the run on show (B) beside an earlier run of the same thing (A) — the previous
// one or the last that passed. Each test's first divergence, marked, with A's and B's side of it (state
// path, call name / input / output, message, outcome code, as the diff library names them), then each
// diagram with both paths and the node where they part. Text only, through the Renderer's helpers.
import type { CompareView, DivergenceView } from "@agent-lens/protocol";
import { statusText } from "../src/panel/verdict";
import type { El } from "./dom";

export interface CompareDraw {
  h(tag: string, attrs: Record<string, string | undefined> | null, ...children: Array<El | string | null | undefined | false>): El;
  location(loc: DivergenceView["callSite"]): El | null;
  diagram(d: CompareView["diagrams"][number]): El;
  button(label: string, cls: string, onClick: () => void): El;
}

export function drawCompare(r: CompareDraw, view: CompareView, back: () => void): El {
  const side = (name: string, s: CompareView["a"]) => r.h("span", { class: `compare-side status status-${s.status}`, title: s.verdict }, `${name} · ${clock(s.at)} · ${statusText(s.status)}`);
  const earlier = view.against === "previous" ? "previous run" : "last passing run";
  return r.h("div", { class: "result compare", "data-run": String(view.runId), "data-status": "compare" },
    r.h("header", { class: "run-header" },
      r.h("h1", null, `Compare · ${view.title}`),
      side(`A: ${earlier}`, view.a), side("B: this run", view.b),
      r.button("Back to this run", "back", back)),
    view.divergences.length
      ? r.h("section", { class: "divergences" }, r.h("h2", null, `Where the runs part (${view.divergences.length === 1 ? "1 test" : `${view.divergences.length} tests or files`})`), ...view.divergences.map((d) => divergence(r, d)))
      : r.h("p", { class: "note same-runs" }, "The two runs did not part: the same calls, states, messages, outcomes and results."),
    view.diagrams.length
      ? r.h("section", { class: "diagrams" }, r.h("h2", null, "Diagram"),
        r.h("p", { class: "muted legend" }, r.h("span", { class: "legend-a" }, "A's path (dashed)"), " · ", r.h("span", { class: "legend-b" }, "B's path"), " · the runs part after the state marked “split”"),
        ...view.diagrams.map((d) => r.diagram(d)))
      : null);
}

function divergence(r: CompareDraw, d: DivergenceView): El {
  const test = d.test && !/\.[cm]?[jt]sx?$/.test(d.test) ? `“${d.test}”: ` : "";
  return r.h("div", { class: "divergence", "data-kind": d.kind },
    r.h("p", { class: "divergence-head" },
      r.h("mark", { class: "first-divergence", title: "The first point where the two runs differ" }, `First divergence — ${test}${d.at}`),
      d.state ? r.h("span", { class: "muted" }, ` after state ${d.state}`) : null,
      d.callSite ? r.h("span", { class: "muted" }, " at ") : null, r.location(d.callSite)),
    r.h("div", { class: "diff side-by-side" },
      r.h("div", null, r.h("h3", null, "A"), r.h("pre", { class: "side-a" }, d.a)),
      r.h("div", null, r.h("h3", null, "B"), r.h("pre", { class: "side-b" }, d.b))));
}

function clock(ms: number): string {
  const d = new Date(ms);
  const time = [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")} ${time}`;
}
