import type { LibraryAnalyzer } from "../library";

export const analyzeStately: LibraryAnalyzer = () => ({ symbols: [], references: [], findings: [], lenses: [], graphs: [] });
