// The cheap text test run before parsing: a file that holds none of these words has nothing for the
// analysis (most files of a workspace) and is not parsed. One list per library; the language server's
// indexer and watcher, the analysis and `agent-lens check` all ask through `mentionsAgentLibrary`, and each
// library's analyzer skips a file without its own words. False positives only cost a parse; false
// negatives would hide findings, so the lists are generous.

/** Regular-expression sources, by library. */
export const LIBRARY_MARKERS = {
  "@statelyai/agent": [
    "@statelyai\\/agent", "\\bxstate\\b", "createMachine", "setupAgent", "createTextLogic", "createDecisionLogic",
    // @statelyai/agent/testing's entry points, in an eval file that imports its machine from elsewhere
    "runSeam", "runAgent", "simulateAgent", "explorePaths", "canReach", "matchesTrajectory", "executeAgentRequest",
  ],
  "@falai/agent": [
    // a flow file can use a builder imported from another file: its methods are enough
    "falai", "\\.flow\\s*\\(", "\\.fields\\s*\\(", "\\.fromSpec\\s*\\(", "\\.agent\\s*\\(", "\\.turn",
  ],
} as const satisfies Record<string, readonly string[]>;

export type MarkedLibrary = keyof typeof LIBRARY_MARKERS;

const anyOf = (sources: readonly string[]) => new RegExp(sources.join("|"));
const ANY_LIBRARY = anyOf(Object.values(LIBRARY_MARKERS).flat());
const BY_LIBRARY = new Map(Object.entries(LIBRARY_MARKERS).map(([library, sources]) => [library, anyOf(sources)]));

/** Whether `text` may hold a definition or an eval entry point of either library. */
export function mentionsAgentLibrary(text: string): boolean {
  return ANY_LIBRARY.test(text);
}

/** Whether `text` may hold something of `library`. */
export function mentionsLibrary(library: MarkedLibrary, text: string): boolean {
  return BY_LIBRARY.get(library)!.test(text);
}
