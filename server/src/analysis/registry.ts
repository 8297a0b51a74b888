// The library analyzers, in the order their results are concatenated. Each gets the same
// ExtractContext; the workspace guards every call (an analyzer that throws contributes nothing).
import { analyzeFalai } from "./falai";
import type { LibraryAnalyzer } from "./library";
import { analyzeStately } from "./stately";

export interface RegisteredAnalyzer {
  name: string;
  analyze: LibraryAnalyzer;
}

export const LIBRARY_ANALYZERS: RegisteredAnalyzer[] = [
  { name: "statelyai", analyze: analyzeStately },
  { name: "falai", analyze: analyzeFalai },
];
