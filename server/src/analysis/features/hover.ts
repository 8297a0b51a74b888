// Hover: the analysis' markdown summary of the symbol under the cursor (a state's transitions and
// reachability, a request's model, schemas and prompt, a field's type and ask, a flow's triggers). On a
// string that names nothing, the nearest name and the names valid there (the quick fix's candidates; the
// finding itself is the diagnostic's hover, shown beside ours); on one that may name something but is not tied to it for sure, what and why; where a run
// lens is not offered (a decision under a seam, an unexported machine), why.
import type { AgentReference, FileAnalysis } from "../api";
import type { Finding, SourceRange } from "../types";
import { locate, symbolAt, touches, type SymbolIndex } from "./locate";

export interface HoverResult {
  markdown: string;
  range: SourceRange;
}

/** How many valid names a hover lists before "… and N more". */
const MAX_LISTED = 20;

export function hoverAt(index: SymbolIndex, analysis: FileAnalysis, offset: number): HoverResult | undefined {
  const { reference, symbol: declared } = locate(analysis, offset);
  const symbol = symbolAt(index, analysis, offset);
  const range = declared?.nameRange ?? reference?.range;
  if (!range) return refusedLensAt(analysis, offset);
  if (!symbol) return reference ? { markdown: unresolved(index, analysis, reference), range } : undefined;
  const header = "```\n(" + symbol.kind + ") " + symbol.name + (symbol.detail ? " — " + symbol.detail : "") + "\n```";
  return { markdown: symbol.summary ? `${header}\n\n${symbol.summary}` : header, range };
}

/** Where a lens would go but is not offered: why (LensAnchor.refused). */
function refusedLensAt(analysis: FileAnalysis, offset: number): HoverResult | undefined {
  const lens = analysis.lenses.find((l) => l.refused && l.file === analysis.file && touches(l.range, offset));
  return lens?.refused ? { markdown: lens.refused, range: lens.range } : undefined;
}

/** A reference that resolves to no symbol. */
function unresolved(index: SymbolIndex, analysis: FileAnalysis, reference: AgentReference): string {
  const text = `\`${reference.text}\``;
  if (reference.uncertain) {
    const names = reference.uncertain.ids.flatMap((id) => {
      const s = index.symbol(id) ?? analysis.symbols.find((x) => x.id === id);
      const parent = s?.parentId ? (index.symbol(s.parentId) ?? analysis.symbols.find((x) => x.id === s.parentId)) : undefined;
      return s ? [`${s.kind} \`${s.name}\`${parent ? ` of ${parent.kind} \`${parent.name}\`` : ""}`] : [];
    });
    const what = names.length ? names.join(" or ") : `a ${reference.kind} called ${text}`;
    return `${text} may name ${what}, but is not tied to it for sure: ${reference.uncertain.reason}. A rename asks before changing it.`;
  }
  if (reference.role === "next" && reference.text === "end") return `${text} ends the run of the flow.`;
  const finding = findingAt(analysis, reference);
  const valid = validNames(reference);
  if (finding) {
    // The finding's message is the diagnostic's: the editor shows it in the same hover, so it is not
    // repeated here — only what it does not say: the nearest name, and the names valid here.
    const fix = finding.fixes?.find((f) => f.preferred)?.edits.find((e) => e.range.start === reference.range.start && e.range.end === reference.range.end);
    const nearest = fix && !/Did you mean/.test(finding.message) ? `Did you mean \`${fix.newText}\`?` : "";
    return [nearest, valid].filter(Boolean).join("\n\n") || `${text} names no ${reference.kind} here.`;
  }
  // No finding: either the names here are all known and none matches (an executor's case label), or the
  // analysis cannot tell (a computed target, an incomplete object) — then it says only that.
  if (reference.role === "name-use" && reference.candidates) return [`${text} names no ${reference.kind} of the machine this code serves.`, valid].filter(Boolean).join("\n\n");
  return `${text}: which ${reference.kind} this names cannot be told from the source alone.`;
}

/** The unknown-* finding on the reference's text, if any. */
function findingAt(analysis: FileAnalysis, reference: AgentReference): Finding | undefined {
  return analysis.findings.find((f) => f.file === reference.file && f.code.startsWith("unknown-") && f.range.start <= reference.range.start && f.range.end >= reference.range.end);
}

/** "Valid here: `a`, `b`, … and N more" from the reference's completion candidates. */
function validNames(reference: AgentReference): string {
  const names = [...new Set((reference.candidates ?? []).map((c) => c.insertText))];
  if (!names.length) return "";
  const listed = names.slice(0, MAX_LISTED).map((n) => `\`${n}\``).join(", ");
  const more = names.length > MAX_LISTED ? ` … and ${names.length - MAX_LISTED} more` : "";
  return `Valid ${reference.kind === "step" ? "steps" : `${reference.kind} names`} here: ${listed}${more}`;
}
