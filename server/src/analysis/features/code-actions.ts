// Quick fixes: the fixes the analysis attached to findings that overlap the requested range.
import type { FileAnalysis } from "../api";
import type { Finding, QuickFix } from "../types";

export interface QuickFixAction {
  finding: Finding;
  fix: QuickFix;
}

/** Findings overlapping [start, end] (offsets) that carry fixes; `codes` narrows to the client's diagnostics. */
export function quickFixesIn(analysis: FileAnalysis, start: number, end: number, codes?: ReadonlySet<string>): QuickFixAction[] {
  const out: QuickFixAction[] = [];
  for (const finding of analysis.findings) {
    if (finding.file !== analysis.file || !finding.fixes?.length) continue;
    if (finding.range.end < start || finding.range.start > end) continue;
    if (codes && !codes.has(finding.code)) continue;
    for (const fix of finding.fixes) out.push({ finding, fix });
  }
  return out;
}
