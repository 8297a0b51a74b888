// Building findings: the catalogue's severity, and quick fixes that replace a name with the nearest one.
import { FINDING_CODES, type Finding, type FindingCode, type QuickFix, type SourceRange } from "../../types";
import { changeToTitle, didYouMean, nearestName } from "../../util/edit-distance";
import type { Str } from "../model";

export function finding(code: FindingCode, message: string, file: string, range: SourceRange, fixes?: QuickFix[]): Finding {
  const f: Finding = { code, severity: FINDING_CODES[code], message, file, range };
  if (fixes && fixes.length) f.fixes = fixes;
  return f;
}

/** "Change to 'nome'" when a candidate is close to what was written. */
export function nearestFix(file: string, written: Str, candidates: Iterable<string>, onlyCandidate = false): { fix?: QuickFix; suggestion?: string } {
  return suggestedFix(file, written, onlyCandidate ? [...candidates][0] : nearestName(written.text, candidates));
}

/** "Change to 'nome'" for a suggestion already made (none: no fix). */
export function suggestedFix(file: string, written: Str, suggestion: string | undefined): { fix?: QuickFix; suggestion?: string } {
  if (suggestion === undefined) return {};
  return {
    suggestion,
    fix: { title: changeToTitle(suggestion), edits: [{ file, range: written.range, newText: suggestion }], preferred: true },
  };
}

export { didYouMean };

/** Keeps the first finding per (code, place, message): a flow shared by two agents is reported once. */
export function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${f.file}|${f.range.start}|${f.range.end}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
