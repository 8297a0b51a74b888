// Our custom requests (see protocol.ts): the diagrams of a file and the catalog of the workspace.
import { relative, sep } from "node:path";
import picomatch from "picomatch";
import type { AgentSymbol, FileAnalysis } from "../analysis/api";
import { guarded } from "./guard";
import { CatalogRequest, GraphsRequest, type CatalogResult, type GraphsParams, type GraphsResult } from "./protocol";
import type { ServerCore } from "./server";
import type { Folder } from "./project";

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
    for (const s of analysis.symbols) if (s.kind === "request" && s.parentId === agents[0].id) names.add(s.name);
  }
  return [...names].sort();
}

function matcherFor(folder: Folder): (file: string) => boolean {
  const match = picomatch(folder.settings.testGlobs, { dot: true });
  return (file) => {
    const rel = folder.root ? relative(folder.root, file).split(sep).join("/") : file;
    return match(rel);
  };
}

export function registerCustomRequests(core: ServerCore): void {
  const { connection } = core;

  connection.onRequest(
    GraphsRequest,
    guarded(core.logError, GraphsRequest, (): GraphsResult => [], (params: GraphsParams): GraphsResult => {
      const c = core.contextFor(params?.uri);
      return c ? c.analysis.graphs : [];
    }),
  );

  connection.onRequest(
    CatalogRequest,
    guarded(core.logError, CatalogRequest, (): CatalogResult => ({ machines: [], flows: [], evalFiles: [] }), (): CatalogResult => {
      core.flush();
      const result: CatalogResult = { machines: [], flows: [], evalFiles: [] };
      for (const folder of core.project.all()) {
        if (!folder.settings.enable) continue;
        const isEvalFile = matcherFor(folder);
        for (const file of [...folder.definitions.keys()].sort()) {
          const analysis = core.project.analyze(file);
          if (!analysis.isAgentFile) continue;
          const uri = core.uris.toUri(file);
          for (const s of analysis.symbols) {
            if (s.file !== file) continue;
            if (s.kind === "machine") {
              result.machines.push({ uri, id: s.id, name: s.name, exportName: s.exportName, requests: requestsOf(s, analysis), line: s.nameRange.startLine });
            } else if (s.kind === "flow") {
              result.flows.push({ uri, id: s.id, name: s.name, line: s.nameRange.startLine });
            }
          }
          if (isEvalFile(file)) result.evalFiles.push({ uri, tests: analysis.tests });
        }
      }
      return result;
    }),
  );
}
