// Our requests (@agent-lens/protocol, lsp.ts): the diagrams of a file, of a machine or flow, of a call and
// of an eval file, the workspace catalog, and the coverage model of eval files. Each adapts a catalog query of the analysis
// (server/src/analysis/catalog) — paths to URIs and back — and answers from the server's cache.
import { evalFileMatcher } from "@agent-lens/files/eval-files";
import {
  CatalogRequest, CoverageModelRequest, DiagramRequest, EvalGraphsRequest, GraphsRequest, SiteGraphsRequest,
  type CatalogResult, type CoverageModel, type CoverageModelParams, type DiagramParams, type EvalGraphsParams, type GraphsParams, type SiteGraphsParams,
} from "@agent-lens/protocol";
import { diagramOf, evalGraphs, evalSitesOf, flowsOf, flowsUsedBy, machinesOf, siteGraphs, type CatalogSource, type DefinitionRef } from "../analysis/catalog";
import type { AgentGraph } from "../analysis/api";
import { coverageModelOf } from "../cli/coverage/static-model";
import { guarded } from "./guard";
import type { ServerParts } from "./parts";
import type { Folder } from "./project";

/** Analyses and the symbol index across every folder, through the project's cache. */
function sourceOf(parts: ServerParts): CatalogSource {
  return {
    analysisOf: (file) => parts.project.analyze(file),
    symbol: (id) => {
      for (const folder of parts.project.all()) {
        const s = folder.workspace.symbol(id);
        if (s) return s;
      }
      return undefined;
    },
  };
}


/** One folder's part of the catalog, kept in the cache until something in the folder changes. */
function folderCatalog(parts: ServerParts, folder: Folder, source: CatalogSource): CatalogResult {
  return parts.project.cache.get(folder, `catalog@${parts.project.agentFilesVersion(folder)}`, () => {
    const { project, docs } = parts;
    const uri = (file: string) => docs.uris.toUri(file);
    const flow = (f: DefinitionRef) => ({ uri: uri(f.file), id: f.id, name: f.name, line: f.line });
    const result: CatalogResult = { machines: [], flows: [], evalFiles: [] };
    const isEvalFile = evalFileMatcher(folder.settings.testGlobs, folder.root ? [folder.root] : []);
    for (const file of project.agentFiles(folder)) {
      const analysis = project.analyze(file);
      if (!analysis.isAgentFile) continue;
      for (const m of machinesOf(analysis)) result.machines.push({ uri: uri(m.file), id: m.id, name: m.name, exportName: m.exportName, requests: m.requests, seams: m.seams, line: m.line });
      result.flows.push(...flowsOf(analysis).map(flow));
      if (isEvalFile(file)) result.evalFiles.push({ uri: uri(file), tests: analysis.tests, sites: evalSitesOf(analysis), flows: flowsUsedBy(analysis, source).map(flow) });
    }
    return result;
  });
}

export function registerRequests(parts: ServerParts): void {
  const { connection, docs, logError } = parts;
  const source = sourceOf(parts);
  const none = (): AgentGraph[] => [];

  connection.onRequest(GraphsRequest, guarded(logError, GraphsRequest.method, none, (params: GraphsParams) => docs.contextFor(params?.uri)?.analysis.graphs ?? []));

  connection.onRequest(
    DiagramRequest,
    guarded(logError, DiagramRequest.method, () => null, (params: DiagramParams): AgentGraph | null => {
      if (params?.kind === "machine" && typeof params.machineId === "string") {
        docs.flush();
        return diagramOf({ kind: "machine", machineId: params.machineId, near: docs.contextFor(params.uri)?.analysis }, source) ?? null;
      }
      if (params?.kind !== "flow" || typeof params.flowId !== "string") return null;
      const c = docs.contextFor(params.uri);
      return c ? diagramOf({ kind: "flow", analysis: c.analysis, flowId: params.flowId, line: params.line }, source) ?? null : null;
    }),
  );

  connection.onRequest(
    SiteGraphsRequest,
    guarded(logError, SiteGraphsRequest.method, none, (params: SiteGraphsParams) => {
      const c = typeof params?.line === "number" ? docs.contextFor(params.uri) : undefined;
      return c ? siteGraphs(c.analysis, params.line, source) : [];
    }),
  );

  connection.onRequest(
    EvalGraphsRequest,
    guarded(logError, EvalGraphsRequest.method, none, (params: EvalGraphsParams) => {
      const c = docs.contextFor(params?.uri);
      return c ? evalGraphs(c.analysis, source) : [];
    }),
  );

  connection.onRequest(
    CoverageModelRequest,
    guarded(logError, CoverageModelRequest.method, (): CoverageModel => ({ graphs: [], unreachable: [], requests: {}, fields: {}, evalFiles: {} }), (params: CoverageModelParams): CoverageModel => {
      docs.flush();
      const files = (Array.isArray(params?.uris) ? params.uris : []).flatMap((u) => (docs.uris.toFile(u) ?? []));
      return coverageModelOf((file) => parts.project.analyze(file), files).model;
    }),
  );

  connection.onRequest(
    CatalogRequest,
    guarded(logError, CatalogRequest.method, (): CatalogResult => ({ machines: [], flows: [], evalFiles: [] }), (): CatalogResult => {
      docs.flush();
      const result: CatalogResult = { machines: [], flows: [], evalFiles: [] };
      for (const folder of parts.project.all()) {
        if (!folder.settings.enable) continue;
        const part = folderCatalog(parts, folder, source);
        result.machines.push(...part.machines);
        result.flows.push(...part.flows);
        result.evalFiles.push(...part.evalFiles);
      }
      return result;
    }),
  );
}
