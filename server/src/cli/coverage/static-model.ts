// The coverage model of the eval files that ran (model.ts), read from the analysis: the machines and flows
// of each eval file and of the files it imports, the calls the analysis tied to them, the test blocks,
// what it proved unreachable, and each machine's requests and each flow's collected fields. Runs in the
// CLI's coverage worker (worker.ts), so the analysis never loads for a run without --coverage; the language
// server builds it from its own analyses (coverageModelOf) for the editor's coverage.
import { createWorkspace } from "../../analysis";
import type { AgentGraph, FileAnalysis, Finding, StaticTest } from "../../analysis";
import { evalSitesOf, machinesOf } from "../../analysis/catalog";
import type { CoverageModel, CoverageTestBlock } from "./model";

type Node = AgentGraph["nodes"][number];

function flatTests(tests: StaticTest[], prefix = ""): CoverageTestBlock[] {
  const out: CoverageTestBlock[] = [];
  for (const t of tests) {
    const name = t.kind === "file" ? t.name : prefix ? `${prefix} > ${t.name}` : t.name;
    if (t.kind === "suite") out.push(...flatTests(t.children ?? [], name));
    else out.push({ name, startLine: t.range.startLine + 1, endLine: t.range.endLine + 1 });
  }
  return out;
}

/** The node an unreachable finding is about: a state's finding sits on its key, where the state's range starts
 *  (else just before it: the first node after the finding); a step's sits inside the step (the innermost). */
function unreachableNode(f: Finding, graphs: AgentGraph[]): Node | undefined {
  const nodes = graphs.filter((g) => g.kind === (f.code === "unreachable-state" ? "machine" : "flow")).flatMap((g) => g.nodes).filter((n) => n.file === f.file);
  const innermost = (list: Node[]) => list.sort((a, b) => a.range.end - a.range.start - (b.range.end - b.range.start))[0];
  if (f.code === "unreachable-step") return innermost(nodes.filter((n) => n.type === "step" && n.range.start <= f.range.start && f.range.end <= n.range.end));
  const onKey = nodes.filter((n) => n.range.start === f.range.start);
  if (onKey.length) return innermost(onKey);
  return nodes.filter((n) => n.range.start >= f.range.end).sort((a, b) => a.range.start - b.range.start)[0];
}

/** Fields a flow's steps collect: the `collect` references inside its definition. */
function collectedFields(graph: AgentGraph, analysis: FileAnalysis): string[] {
  const range = graph.range;
  if (!range) return [];
  const names = new Set<string>();
  for (const r of analysis.references) {
    if (r.role === "collect" && r.file === analysis.file && r.range.start >= range.start && r.range.end <= range.end) names.add(r.text);
  }
  return [...names].sort();
}

/** The model of `evalFiles`, and every file the analysis read for it (what its cache entry depends on). */
export function buildCoverageModel(roots: string[], evalFiles: string[]): { model: CoverageModel; inputs: string[] } {
  const workspace = createWorkspace({ roots });
  const analyses = new Map<string, FileAnalysis>();
  return coverageModelOf((file) => {
    let a = analyses.get(file);
    if (!a) analyses.set(file, (a = workspace.analyze(file)));
    return a;
  }, evalFiles);
}

/** The same from analyses someone else keeps (the language server's: agentLens/coverageModel). */
export function coverageModelOf(analyze: (file: string) => FileAnalysis, evalFiles: string[]): { model: CoverageModel; inputs: string[] } {
  const model: CoverageModel = { graphs: [], unreachable: [], requests: {}, fields: {}, evalFiles: {} };
  const scopeFiles = new Set<string>();
  for (const file of evalFiles) {
    const analysis = analyze(file);
    const files = [file, ...analysis.dependencies.filter((d) => d !== file)];
    files.forEach((f) => scopeFiles.add(f));
    model.evalFiles[file] = {
      scope: files.flatMap((f) => analyze(f).graphs.map((g) => g.id)),
      sites: evalSitesOf(analysis).map((s) => ({ line: s.line, ...(s.machineId ? { machineId: s.machineId } : {}), ...(s.flows ? { flows: s.flows } : {}) })),
      tests: flatTests(analysis.tests),
    };
  }
  const unreachable = new Set<string>();
  for (const file of [...scopeFiles].sort()) {
    const analysis = analyze(file);
    for (const g of analysis.graphs) {
      if (model.graphs.some((x) => x.id === g.id)) continue;
      model.graphs.push(g);
      if (g.kind === "flow") model.fields[g.id] = collectedFields(g, analysis);
    }
    for (const m of machinesOf(analysis)) model.requests[m.id] = m.requests;
    for (const f of analysis.findings) {
      if (f.code !== "unreachable-state" && f.code !== "unreachable-step") continue;
      const node = unreachableNode(f, analysis.graphs);
      if (node) unreachable.add(node.id);
    }
  }
  model.unreachable = [...unreachable].sort();
  return { model, inputs: [...scopeFiles].sort() };
}
