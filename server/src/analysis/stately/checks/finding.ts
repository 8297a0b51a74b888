// Building findings from model nodes: the code's default severity, the exact range (a string's
// contents, not its quotes), and replace-with-nearest-name fixes.
import { contentRangeOfTs, rangeAt } from "../../ranges";
import { FINDING_CODES, type Finding, type FindingCode, type QuickFix } from "../../types";
import { changeToTitle, didYouMean, nearestName } from "../../util/edit-distance";
import type { At, MachineDef, StateDef } from "../model";

export function finding(code: FindingCode, message: string, where: At, fixes?: QuickFix[]): Finding {
  const f: Finding = { code, severity: FINDING_CODES[code], message, file: where.at.file, range: contentRangeOfTs(where.at.sf, where.node) };
  if (fixes?.length) f.fixes = fixes;
  return f;
}

/** A finding about a name, with the nearest candidate (when one is close enough) in its message ("Did you
 *  mean 'x'?") and as its preferred fix: the same wording and fix for both libraries. */
export function findingWithNearest(code: FindingCode, message: string, where: At & { text: string }, candidates: Iterable<string>): Finding {
  return findingWithGuess(code, message, where, nearestName(where.text, candidates));
}

/** The same with the guess already made (undefined: none). */
export function findingWithGuess(code: FindingCode, message: string, where: At, best: string | undefined): Finding {
  if (best === undefined) return finding(code, message, where);
  const fix: QuickFix = { title: changeToTitle(best), preferred: true, edits: [{ file: where.at.file, range: contentRangeOfTs(where.at.sf, where.node), newText: best }] };
  return finding(code, message + didYouMean(best), where, [fix]);
}

/** An insertion at an offset. */
export function insertAt(at: At["at"], offset: number, text: string, title: string): QuickFix {
  return { title, preferred: true, edits: [{ file: at.file, range: rangeAt(at.sf, offset, offset), newText: text }] };
}

/** A machine as a message names it: its variable (or export) and its file — `the machine \`typoMachine\`
 *  (mistakes.ts)` — never an XState id. */
export function machineLabel(machine: Pick<MachineDef, "name" | "at">): string {
  const file = machine.at.file.split(/[\\/]/).pop();
  return `${machine.name === "default" ? "the default-exported machine" : `the machine \`${machine.name}\``} (${file})`;
}

/** A state and the states around it, innermost first. */
export function selfAndAncestors(state: StateDef): StateDef[] {
  const out: StateDef[] = [];
  for (let s: StateDef | undefined = state; s; s = s.parent) out.push(s);
  return out;
}
