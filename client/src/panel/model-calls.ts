// The model calls of a run as the results panel lists them (issue 25, item 6): each call's source —
// "replayed (recorded <date>, <model>)" or "live" — its tokens and, for a live call whose model has a known
// price, an estimated cost; the run's total. Also the drift a replay reported, kept beside the failure it
// caused so the panel shows its input diff. Only what the `model-call` / `drift` events say, never a call's
// input or output (the child has redacted keys in them; the panel does not need them). Pure.
import type { DriftInfo, ErrorView, HarnessEvent, ModelCallView, ResultView, RunCost } from "@agent-lens/protocol";
import { costOf, MODEL_PRICES_AS_OF, priceOf, type ModelPrice } from "@agent-lens/settings/model-prices";

/** The `model-call` events of a run, as the panel's rows. */
export function modelCallsOf(events: readonly HarnessEvent[]): ModelCallView[] {
  const out: ModelCallView[] = [];
  for (const e of events) {
    if (e.type !== "model-call") continue;
    const c = e.call;
    out.push({
      test: e.test, index: c.index, key: c.key, occurrence: c.occurrence, source: c.source,
      ...(c.model ? { model: c.model } : {}),
      ...(c.recordedAt ? { recordedAt: c.recordedAt } : {}),
      ...(c.usage ? { usage: c.usage } : {}),
      ...(c.error ? { error: String(c.error.message ?? c.error.name).split("\n")[0] } : {}),
      ...(c.callSite ? { callSite: c.callSite } : {}),
    });
  }
  return out;
}

/** The drift of each test (`drift` events; at most one per test). */
export function driftsOf(events: readonly HarnessEvent[]): Map<string, DriftInfo> {
  const out = new Map<string, DriftInfo>();
  for (const e of events) if (e.type === "drift" && !out.has(e.test)) out.set(e.test, e.drift);
  return out;
}

/** A failure the harness made of a drift (its message is the drift's message, then the diff): the card
 *  says the message once and draws the diff as lines. Other errors come back as they were. */
export function withDrift(error: ErrorView, drifts: ReadonlyMap<string, DriftInfo>): ErrorView {
  if (error.code !== "replay-drift" && error.code !== "not-recorded") return error;
  // the test's own drift; a failure of the file (drift outside any test) by its message
  const own = error.test !== undefined ? drifts.get(error.test) : undefined;
  const drift = own && error.message.startsWith(own.message) ? own : [...drifts.values()].find((d) => error.message.startsWith(d.message));
  if (!drift) return error;
  return {
    ...error,
    message: drift.message,
    drift: { reason: drift.reason, ...(drift.diff?.length ? { diff: drift.diff } : {}), ...(drift.changed?.length ? { changed: drift.changed } : {}), ...(drift.reason !== "not-recorded" ? { rerecord: drift.rerecord } : {}) },
  };
}

/** The view with each live call's estimated cost and the run's total, from `prices` (the setting's entries
 *  over the table). Replayed calls cost nothing now: they carry no cost (the CLI's report does the same). */
export function priceView(view: ResultView, prices: Readonly<Record<string, ModelPrice>>): ResultView {
  if (!view.modelCalls?.length) return view;
  let usd = 0;
  const unpriced = new Set<string>();
  const calls = view.modelCalls.map((c) => {
    if (c.source !== "live" || !c.usage) return c;
    const price = priceOf(c.model, prices);
    if (!price) {
      unpriced.add(c.model ?? "an unnamed model");
      return c;
    }
    const costUsd = costOf(c.usage, price);
    usd += costUsd;
    return { ...c, costUsd };
  });
  const cost: RunCost = { usd, unpriced: [...unpriced], asOf: MODEL_PRICES_AS_OF };
  return { ...view, modelCalls: calls, cost };
}

/** `replayed (recorded 2026-12-04, gpt-5-mini)` or `live`. */
export function sourceText(call: Pick<ModelCallView, "source" | "recordedAt" | "model">): string {
  if (call.source === "live") return "live";
  const parts = [call.recordedAt ? `recorded ${call.recordedAt.slice(0, 10)}` : "recorded", call.model].filter(Boolean);
  return `replayed (${parts.join(", ")})`;
}

/** `120 in / 40 out tokens`, or "" without usage. */
export function tokensText(usage: ModelCallView["usage"]): string {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return "";
  const n = (v: number | undefined) => (v ?? 0).toLocaleString("en-US");
  return `${n(usage.inputTokens)} in / ${n(usage.outputTokens)} out tokens`;
}
