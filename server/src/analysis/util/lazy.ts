// Properties computed on first read, with the same value and key order as eager ones: hover needs one
// symbol's summary at a time and completion one reference's candidates, and building them all eagerly
// costs more than the rest of an analysis of a big file.
import type { AgentReference, AgentSymbol, CompletionCandidate } from "../api";

/** Defines `key` of `target` as computed on first read, then stored as a plain property (same value,
 *  same key order as an eager one). */
function lazyProperty<T extends object, K extends keyof T>(target: T, key: K, build: () => T[K]): T {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = build();
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
  });
  return target;
}

/** `summary` computed on first read (hover needs it for one symbol at a time; building every summary
 *  of a big machine eagerly costs more than the rest of the analysis). */
export function lazySummary(symbol: AgentSymbol, build: () => string): AgentSymbol {
  return lazyProperty(symbol, "summary", build);
}

/** `candidates` computed on first read (completion needs one reference's at a time). */
export function lazyCandidates(reference: AgentReference, build: () => CompletionCandidate[]): AgentReference {
  return lazyProperty(reference, "candidates", build);
}
