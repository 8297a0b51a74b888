// The machines and flows a file defines, as the catalog lists them (for quick picks and runs).
import type { AgentSymbol, FileAnalysis } from "../api";
import type { DefinitionRef, MachineEntry } from "./types";

/** The request names a machine's invokes and scripts can use: requests of its agent, and those its `src`s name. */
function requestsOf(machine: AgentSymbol, analysis: FileAnalysis): string[] {
  const names = new Set<string>();
  for (const s of analysis.symbols) {
    if (s.kind !== "request") continue;
    if (s.parentId && (s.parentId === machine.parentId || s.parentId === machine.id)) names.add(s.name);
  }
  const byId = new Map(analysis.symbols.map((s) => [s.id, s]));
  let sawSrc = false;
  for (const r of analysis.references) {
    if (r.role !== "src" || r.file !== machine.file || r.range.start < machine.range.start || r.range.end > machine.range.end) continue;
    sawSrc = true;
    const target = r.targetId ? byId.get(r.targetId) : undefined;
    if (target?.kind === "request") names.add(target.name);
    // What an invoke src may name here: the requests of the machine's agent (even when this one is a typo).
    for (const c of r.candidates ?? []) if (c.kind === "request") names.add(c.insertText);
  }
  // A machine with no invoke yet: the requests of the file's only agent.
  const agents = analysis.symbols.filter((s) => s.kind === "agent" && s.file === machine.file);
  if (!sawSrc && agents.length === 1) {
    for (const s of analysis.symbols) if (s.kind === "request" && s.parentId === agents[0]!.id) names.add(s.name);
  }
  return [...names].sort();
}

/** The requests a seam run of the machine can put under the seam: those its invoke lenses offer (a text
 *  request it invokes, named, of an exported machine), so the palette offers exactly what the lenses do. */
function seamsOf(machine: AgentSymbol, analysis: FileAnalysis): string[] {
  const names = analysis.lenses.filter((l) => l.kind === "run-seam" && !l.refused && l.target.line === undefined && l.target.machineId === machine.id && l.target.request).map((l) => l.target.request!);
  return [...new Set(names)].sort();
}

export function machinesOf(analysis: FileAnalysis): MachineEntry[] {
  return analysis.symbols
    .filter((s) => s.kind === "machine" && s.file === analysis.file)
    .map((s) => ({ id: s.id, name: s.name, file: s.file, line: s.nameRange.startLine, exportName: s.exportName, requests: requestsOf(s, analysis), seams: seamsOf(s, analysis) }));
}

export function flowsOf(analysis: FileAnalysis): DefinitionRef[] {
  return analysis.symbols.filter((s) => s.kind === "flow" && s.file === analysis.file).map(flowRef);
}

export function flowRef(s: AgentSymbol): DefinitionRef {
  return { id: s.id, name: s.name, file: s.file, line: s.nameRange.startLine };
}
