// The model calls in `agent-lens run`'s human report: one line per call under its test — "replayed (recorded
// <date>, <model>)" or "live (<model>)", its tokens, and for a live call its estimated cost when the model's
// price is known — then a line for the file: how many calls of each kind, their tokens, what the live ones
// cost (list prices, may be stale), and what a record run wrote.
import { relative } from "node:path";
import { costOf, DEFAULT_MODEL_PRICES, formatUsd, MODEL_PRICES_AS_OF, priceOf, type ModelPrice } from "@agent-lens/settings/model-prices";
import type { ModelCallSummary } from "./recordings-run";
import type { FileRunResult } from "./run-types";

export interface CallStyle {
  dim(text: string): string;
  /** Prices by model (the setting's over the table). */
  prices?: Readonly<Record<string, ModelPrice>>;
}

const tokens = (n: number) => n.toLocaleString("en-US");

function usageText(call: ModelCallSummary): string {
  const u = call.usage;
  return u && (u.inputTokens !== undefined || u.outputTokens !== undefined) ? ` · ${tokens(u.inputTokens ?? 0)} in / ${tokens(u.outputTokens ?? 0)} out tokens` : "";
}

/** One call: `draftEmail #1 · replayed (recorded 2026-12-04, gpt-5-mini) · 10 in / 5 out tokens`. */
function callLine(call: ModelCallSummary, prices: Readonly<Record<string, ModelPrice>> = DEFAULT_MODEL_PRICES): string {
  const source = call.source === "replayed"
    ? `replayed (recorded ${call.recordedAt?.slice(0, 10) ?? "?"}${call.model ? `, ${call.model}` : ""})`
    : `live${call.model ? ` (${call.model})` : ""}`;
  const price = call.source === "live" && call.usage ? priceOf(call.model, prices) : undefined;
  const cost = price ? ` · ≈ ${formatUsd(costOf(call.usage!, price))}` : "";
  const failed = call.error ? ` · failed: ${call.error.message.split("\n")[0]}` : "";
  return `${call.key} #${call.occurrence} · ${source}${usageText(call)}${cost}${failed}`;
}

/** The calls of one test, as report lines. */
export function testCallLines(r: FileRunResult, test: string, style: CallStyle): string[] {
  return r.modelCalls.filter((c) => c.test === test).map((c) => style.dim(`↳ ${callLine(c, style.prices)}`));
}

/** The file's lines: calls outside any reported test, the totals with the live calls' cost, the recording written. */
export function fileCallLines(r: FileRunResult, root: string, style: CallStyle): string[] {
  const out: string[] = [];
  const tests = new Set(r.tests.map((t) => t.test));
  for (const c of r.modelCalls.filter((call) => !tests.has(call.test))) out.push(style.dim(`↳ ${c.test ? `${c.test}: ` : ""}${callLine(c, style.prices)}`));
  if (r.modelCalls.length) {
    const live = r.modelCalls.filter((c) => c.source === "live");
    const sum = (k: "inputTokens" | "outputTokens") => r.modelCalls.reduce((n, c) => n + (c.usage?.[k] ?? 0), 0);
    let cost = 0;
    const unpriced = new Set<string>();
    for (const c of live) {
      const price = priceOf(c.model, style.prices);
      if (price && c.usage) cost += costOf(c.usage, price);
      else if (c.usage) unpriced.add(c.model ?? "an unnamed model");
    }
    const kinds = [live.length ? `${live.length} live` : "", r.modelCalls.length - live.length ? `${r.modelCalls.length - live.length} replayed` : ""].filter(Boolean).join(", ");
    const spent = live.length
      ? ` · live calls ≈ ${formatUsd(cost)} (list prices as of ${MODEL_PRICES_AS_OF}, may be stale${unpriced.size ? `; no price for ${[...unpriced].join(", ")}` : ""})`
      : "";
    out.push(style.dim(`model calls: ${kinds} · ${tokens(sum("inputTokens"))} in / ${tokens(sum("outputTokens"))} out tokens${spent}`));
  }
  if (r.recording) {
    const where = relative(root, r.recording.path) || r.recording.path;
    const what = r.recording.written ? `wrote ${where} (${r.recording.tests.length} test${r.recording.tests.length === 1 ? "" : "s"})` : `${where} not written`;
    out.push(style.dim(`recording: ${what}${r.recording.note ? `: ${r.recording.note}` : ""}`));
  }
  return out;
}
