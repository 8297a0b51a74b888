// What an eval file runs, from its analysis: the calls that run something (its sites) and the flows
// those calls' agents include. Replaces guesses from the file's text (flow ids in strings, import
// statements) with what the analysis resolved: `agent.turn` → the agent (through consts, factories and
// imports) → its `flows`.
import type { FileAnalysis, LensAnchor } from "../api";
import { flowRef } from "./machines";
import { symbolNear } from "./resolve";
import type { CatalogSource, DefinitionRef, EvalSite } from "./types";

/** The lenses on the file's own calls (a runSeam, an agent.turn): each runs what it names. */
export function siteAnchorsOf(analysis: FileAnalysis): LensAnchor[] {
  return analysis.lenses.filter((l) => l.target.line !== undefined && l.target.file === analysis.file);
}

export function evalSitesOf(analysis: FileAnalysis): EvalSite[] {
  return siteAnchorsOf(analysis).map((l) => ({
    kind: l.target.kind,
    line: l.target.line!,
    ...(l.target.machineId ? { machineId: l.target.machineId } : {}),
    ...(l.target.request ? { request: l.target.request } : {}),
    ...(l.flows ? { flows: [...l.flows] } : {}),
  }));
}

/**
 * The flow ids (symbol ids) a turn call runs: its agent's flows when the analysis knows them all; else
 * (an agent it could not follow) every flow defined in the eval file or in a file it reads.
 */
export function flowIdsOfTurnSite(anchor: LensAnchor, analysis: FileAnalysis, source: CatalogSource): string[] {
  if (anchor.flows) return anchor.flows;
  const ids: string[] = [];
  for (const file of [analysis.file, ...analysis.dependencies]) {
    const a = file === analysis.file ? analysis : source.analysisOf(file);
    for (const s of a.symbols) if (s.kind === "flow" && s.file === file) ids.push(s.id);
  }
  return ids;
}

/** The flows an eval file's turn calls run, each once, in the order the calls name them. */
export function flowsUsedBy(analysis: FileAnalysis, source: CatalogSource): DefinitionRef[] {
  const out = new Map<string, DefinitionRef>();
  for (const anchor of siteAnchorsOf(analysis)) {
    if (anchor.target.kind !== "run-turns") continue;
    for (const id of flowIdsOfTurnSite(anchor, analysis, source)) {
      if (out.has(id)) continue;
      const symbol = symbolNear(id, analysis, source);
      if (symbol) out.set(id, flowRef(symbol));
    }
  }
  return [...out.values()];
}
