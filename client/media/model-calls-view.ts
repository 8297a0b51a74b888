// The panel's "Model calls" section (issue 25, item 6): one row per call — its test, request and
// occurrence, where its answer came from ("replayed (recorded <date>, <model>)" or "live"), its tokens and,
// for a live call whose model has a price, the estimated cost — then the run's totals. And a drift's input
// diff inside its error card. Text only, through the Renderer's element helpers.
import type { ErrorView, ModelCallView, ResultView } from "@agent-lens/protocol";
import { formatUsd } from "@agent-lens/settings/model-prices";
import { sourceText, tokensText } from "../src/panel/model-calls";
import type { El } from "./dom";

/** What these sections need of the Renderer. */
export interface Draw {
  h(tag: string, attrs: Record<string, string | undefined> | null, ...children: Array<El | string | null | undefined | false>): El;
  table(head: string[], rows: Array<Array<string | El>>, cls: string): El;
}

export function modelCallsSection(r: Draw, view: ResultView): El | null {
  const calls = view.modelCalls ?? [];
  if (!calls.length) return null;
  const named = (test: string) => (/\.[cm]?[jt]sx?$/.test(test) ? "" : test);
  const showTests = calls.some((c) => named(c.test));
  const rows = calls.map((c) => [
    ...(showTests ? [named(c.test)] : []),
    r.h("code", null, `${c.key} #${c.occurrence}`),
    r.h("span", { class: `badge call-source call-${c.source}`, title: c.source === "live" ? "This call went to the model" : "Answered from the recording: nothing left the machine" }, sourceText(c)),
    c.source === "live" ? c.model ?? "" : "",
    tokensText(c.usage),
    costCell(r, c),
  ]);
  return r.h("section", { class: "model-calls" },
    r.h("h2", null, "Model calls"),
    r.table([...(showTests ? ["test"] : []), "call", "answer", "model", "tokens", "cost"], rows, "model-call-rows"),
    ...calls.filter((c) => c.error).map((c) => r.h("p", { class: "muted call-error" }, `${c.key} #${c.occurrence} failed: ${c.error}`)),
    r.h("p", { class: "run-cost" }, totals(view)));
}

function costCell(r: Draw, c: ModelCallView): El | string {
  if (c.costUsd !== undefined) return r.h("span", { class: "cost" }, `≈ ${formatUsd(c.costUsd)}`);
  if (c.source === "replayed") return r.h("span", { class: "muted" }, "none (replayed)");
  return c.usage ? r.h("span", { class: "muted", title: "No price is known for this model: add it to agentLens.run.modelPrices" }, "no price") : "";
}

/** `3 model calls: 1 live, 2 replayed · 300 in / 90 out tokens · live calls ≈ $0.0012 (list prices as of 2026-04, may be stale)`. */
function totals(view: ResultView): string {
  const calls = view.modelCalls ?? [];
  const live = calls.filter((c) => c.source === "live").length;
  const kinds = [live ? `${live} live` : "", calls.length - live ? `${calls.length - live} replayed` : ""].filter(Boolean).join(", ");
  const sum = (k: "inputTokens" | "outputTokens") => calls.reduce((n, c) => n + (c.usage?.[k] ?? 0), 0);
  const tokens = calls.some((c) => c.usage) ? ` · ${tokensText({ inputTokens: sum("inputTokens"), outputTokens: sum("outputTokens") })}` : "";
  const cost = view.cost;
  const spent = !live
    ? " · nothing spent: every answer came from the recording"
    : cost
      ? ` · live calls ≈ ${formatUsd(cost.usd)} (list prices as of ${cost.asOf}, may be stale${cost.unpriced.length ? `; no price for ${cost.unpriced.join(", ")}` : ""})`
      : "";
  return `${calls.length} model call${calls.length === 1 ? "" : "s"}: ${kinds}${tokens}${spent}`;
}

/** A drift's input diff ("- " recorded, "+ " now) and how to record again, inside its error card. */
export function driftDetail(r: Draw, drift: NonNullable<ErrorView["drift"]>): El[] {
  const out: El[] = [];
  if (drift.diff?.length) {
    out.push(r.h("pre", { class: "drift-diff", title: "- recorded, + this run" }, ...drift.diff.map((line) =>
      r.h("span", { class: line.startsWith("- ") ? "diff-del" : line.startsWith("+ ") ? "diff-add" : "diff-ctx" }, `${line}\n`))));
  }
  if (drift.rerecord) out.push(r.h("p", { class: "fix" }, "Record it again: ", r.h("code", null, drift.rerecord)));
  return out;
}
