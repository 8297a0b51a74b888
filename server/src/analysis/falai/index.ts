// Placeholder for the @falai/agent analyzer (owned by the falai analysis work). It is replaced by the real
// analyzer; until then it reports nothing so the registry in ../registry.ts builds.
import type { LibraryAnalyzer } from "../library";

export const analyzeFalai: LibraryAnalyzer = () => ({ symbols: [], references: [], findings: [], lenses: [], graphs: [] });
