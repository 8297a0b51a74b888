// Properties computed on first read, with the same value and key order as eager ones: hover needs one
// symbol's summary at a time and completion one reference's candidates, and building them all eagerly
// costs more than the rest of an analysis of a big file.
import type { AgentReference, AgentSymbol, CompletionCandidate } from "../api";

/** Defines `summary` as computed on first read (hover needs it for one symbol at a time; building every
 *  summary of a big machine eagerly costs more than the rest of the analysis). */
export function lazySummary(symbol: AgentSymbol, build: () => string): AgentSymbol {
  Object.defineProperty(symbol, "summary", {
    enumerable: true,
    configurable: true,
    get() {
      const value = build();
      Object.defineProperty(symbol, "summary", { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
  });
  return symbol;
}

/** Defines `candidates` as computed on first read (same value, same key order as an eager one). */
export function lazyCandidates(reference: AgentReference, build: () => CompletionCandidate[]): AgentReference {
  Object.defineProperty(reference, "candidates", {
    enumerable: true,
    configurable: true,
    get() {
      const value = build();
      Object.defineProperty(reference, "candidates", { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
  });
  return reference;
}
