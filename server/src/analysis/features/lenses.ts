// Code lenses: "Run seam", "Run turns", "Explore paths" where the analysis placed them.
import type { FileAnalysis, LensAnchor } from "../api";

export function lensesOf(analysis: FileAnalysis): LensAnchor[] {
  return analysis.lenses.filter((l) => l.file === analysis.file).sort((a, b) => a.range.start - b.range.start);
}
