// Completion inside the strings that name things: state names in targets / initial / function returns,
// request names in src / seam.request / scripts keys, step ids in then / else / onFail, field names in collect,
// flow ids (all from the analysis' reference candidates), and durations ("24h") in silence / wait strings.
import type { FileAnalysis, SymbolKind } from "../api";
import type { SourceRange } from "../types";
import { subRange, touches } from "./locate";

export interface CompletionEntry {
  label: string;
  insertText: string;
  kind: SymbolKind | "duration";
  detail?: string;
  /** The text the entry replaces (the string's contents). */
  replace: SourceRange;
}

/** Durations a falai flow accepts (`silence`, `after`, `cooldown`, `wait`, `upTo`), most common first:
 *  a number and one unit, as the library's docs write them. */
const DURATION_SUGGESTIONS: ReadonlyArray<{ text: string; detail: string }> = [
  { text: "24h", detail: "24 hours" },
  { text: "1h", detail: "1 hour" },
  { text: "30m", detail: "30 minutes" },
  { text: "2d", detail: "2 days" },
  { text: "7d", detail: "7 days" },
  { text: "30s", detail: "30 seconds" },
  { text: "5m", detail: "5 minutes" },
];

const DURATION_KEY = /\b(silence|wait|after|cooldown|upTo|delay|every|timeout)\s*:\s*(["'`])([^"'`\n]*)$/;

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** A range from offsets of `text` (which must hold both ends on one line). */
function rangeOnLine(text: string, start: number, end: number): SourceRange {
  const lineStart = lineStartOf(text, start);
  let line = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < start; i = text.indexOf("\n", i + 1)) line++;
  const base = { start, end: start, startLine: line, startColumn: start - lineStart, endLine: line, endColumn: start - lineStart };
  return subRange(base, 0, end - start);
}

function durationsAt(text: string, offset: number): CompletionEntry[] {
  const lineStart = lineStartOf(text, offset);
  const before = text.slice(lineStart, offset);
  const m = DURATION_KEY.exec(before);
  if (!m) return [];
  const contentStart = offset - m[3].length;
  let contentEnd = offset;
  while (contentEnd < text.length && text[contentEnd] !== m[2] && text[contentEnd] !== "\n") contentEnd++;
  const replace = rangeOnLine(text, contentStart, contentEnd);
  return DURATION_SUGGESTIONS.map((d) => ({ label: d.text, insertText: d.text, kind: "duration" as const, detail: d.detail, replace }));
}

/** `text` is the analyzed file's current text (used for the duration check only). */
export function completionsAt(analysis: FileAnalysis, offset: number, text: string): CompletionEntry[] {
  const refs = analysis.references.filter((r) => r.file === analysis.file && r.candidates?.length && touches(r.range, offset));
  // The innermost reference wins when strings nest (they do not in practice, but be exact).
  refs.sort((a, b) => a.range.end - a.range.start - (b.range.end - b.range.start));
  const ref = refs[0];
  if (ref?.candidates) {
    const seen = new Set<string>();
    const out: CompletionEntry[] = [];
    for (const c of ref.candidates) {
      if (seen.has(c.insertText)) continue;
      seen.add(c.insertText);
      out.push({ label: c.insertText, insertText: c.insertText, kind: c.kind, detail: c.detail, replace: ref.range });
    }
    return out;
  }
  return durationsAt(text, offset);
}

/**
 * Completion while typing, without re-analyzing: when the only difference between the analyzed text and
 * the current text is inside one reference string (the user is typing a target, a src, a step id), the
 * candidates there are unchanged, so the old analysis answers with the reference's range shifted.
 * Undefined when the edit reaches outside a single reference (then the caller analyzes the new text).
 */
export function completionsAfterEdit(analysis: FileAnalysis, analyzedText: string, text: string, offset: number): CompletionEntry[] | undefined {
  if (analyzedText === text) return completionsAt(analysis, offset, text);
  let prefix = 0;
  const max = Math.min(analyzedText.length, text.length);
  while (prefix < max && analyzedText.charCodeAt(prefix) === text.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && analyzedText.charCodeAt(analyzedText.length - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)) suffix++;
  const oldEnd = analyzedText.length - suffix;
  const newEnd = text.length - suffix;
  const inserted = text.slice(prefix, newEnd);
  if (/["'`\r\n]/.test(inserted) || /["'`\r\n]/.test(analyzedText.slice(prefix, oldEnd))) return undefined;
  const delta = newEnd - oldEnd;
  const ref = analysis.references.find((r) => r.file === analysis.file && r.candidates?.length && r.range.startLine === r.range.endLine && prefix >= r.range.start && oldEnd <= r.range.end);
  if (!ref || offset < ref.range.start || offset > ref.range.end + delta) return undefined;
  const range: SourceRange = { ...ref.range, end: ref.range.end + delta, endColumn: ref.range.endColumn + delta };
  const shifted: FileAnalysis = { ...analysis, references: [{ ...ref, range }] };
  return completionsAt(shifted, offset, text);
}
