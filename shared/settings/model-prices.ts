// Prices of common models, for the estimated cost of a run's model calls (the CLI report, the editor's
// results panel). USD per 1M tokens, input and output. List prices as of 2026-04 (the vendors' pricing pages:
// openai.com/api/pricing, anthropic.com/pricing, ai.google.dev/gemini-api/docs/pricing), may be stale:
// `agentLens.run.modelPrices` overrides or adds any model. Standard tier, prompts under the long-context
// threshold; cached input tokens are priced as input (an estimate errs high, never low). Plain data, no imports.

export interface ModelPrice {
  /** USD per 1M input tokens. */
  input: number;
  /** USD per 1M output tokens. */
  output: number;
}

export const MODEL_PRICES_AS_OF = "2026-04";

export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  "gpt-5.5": { input: 5, output: 30 },
  "gpt-5.4": { input: 2.5, output: 15 },
  "gpt-5.4-mini": { input: 0.75, output: 4.5 },
  "gpt-5": { input: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-5-nano": { input: 0.05, output: 0.4 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "claude-opus-4-7": { input: 5, output: 25 },
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-sonnet-4-6": { input: 3, output: 15 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  "gemini-3.1-pro": { input: 2, output: 12 },
  "gemini-3.1-flash-lite": { input: 0.25, output: 1.5 },
  "gemini-2.5-pro": { input: 1.25, output: 10 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4 },
});

/** A version suffix a model id may carry after a listed name: a date, a number, `latest`, `preview…`. */
const VERSION_SUFFIX = /^-(\d[\d-]*|latest|preview[\w.-]*)$/;

/**
 * The price of `model` (as a call reports it: `gpt-5-mini`, `openai/gpt-5-mini`, `models/gemini-2.5-flash`,
 * `claude-sonnet-4-5-20250929`), from `prices` (the setting's entries over the table): its name after the
 * last `/`, exactly or with a version suffix. Another model of the family is not taken for it (`gpt-5.5-pro`
 * is not `gpt-5`): unknown means no estimate, never a wrong one.
 */
export function priceOf(model: string | undefined, prices: Readonly<Record<string, ModelPrice>> = DEFAULT_MODEL_PRICES): ModelPrice | undefined {
  if (!model) return undefined;
  const exact = prices[model];
  if (exact) return exact;
  const name = model.slice(model.lastIndexOf("/") + 1);
  if (prices[name]) return prices[name];
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if (name.startsWith(key) && VERSION_SUFFIX.test(name.slice(key.length)) && (!best || key.length > best.length)) best = key;
  }
  return best ? prices[best] : undefined;
}

/** Estimated USD for token counts at a price. */
export function costOf(usage: { inputTokens?: number; outputTokens?: number }, price: ModelPrice): number {
  return ((usage.inputTokens ?? 0) * price.input + (usage.outputTokens ?? 0) * price.output) / 1_000_000;
}

/** `$0.12`, `$0.000375`: cents when there are some, else the digits that matter. */
export function formatUsd(n: number): string {
  if (n === 0) return "$0";
  return n >= 0.01 ? `$${n.toFixed(2)}` : `$${n.toFixed(6).replace(/0+$/, "")}`;
}
