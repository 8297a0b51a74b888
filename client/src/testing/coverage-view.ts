// Agent coverage as the Testing API draws it, without VS Code types (coverageRun.ts makes the FileCoverage
// objects). The report is the CLI's (computeCoverage over the language server's coverage model): per source
// file, each reachable state / step is a statement at its key's line — VS Code marks statements and branches
// in the gutter, not declarations — with the transitions / ways out of it as its branches; each machine and
// flow is a declaration over its definition, so the Test Coverage view lists them under their file with the
// percent of the states and transitions inside (the CLI table's row). What the analysis proved unreachable is
// left out, as the CLI leaves it out of its counts.
import type { AgentCoverage, AgentGraph, CoverageModel, CoverageRatio, CoverageReport } from "@agent-lens/protocol";

/** 0-based, as VS Code's Range. */
export interface LineRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

interface BranchData {
  hits: number;
  /** "on ANSWER → answering", "then → fim". */
  label: string;
  range?: LineRange;
}

interface StatementData {
  hits: number;
  range: LineRange;
  branches: BranchData[];
}

interface DeclarationData {
  /** "machine orphanMachine", "flow triagem". */
  name: string;
  /** Runs tied to it. */
  hits: number;
  range: LineRange;
}

export interface FileCoverageData {
  /** Absolute path of the source file. */
  file: string;
  statements: StatementData[];
  declarations: DeclarationData[];
  counts: { statements: CoverageRatio; branches: CoverageRatio; declarations: CoverageRatio };
}

type GraphNode = AgentGraph["nodes"][number];
type Range0 = { startLine: number; startColumn: number; endLine: number; endColumn: number };

/** The first line of a node, from its key on (one line: the gutter marks that line). */
export function keyLine(node: GraphNode): LineRange {
  const r = node.range;
  const end = r.endLine === r.startLine ? r.endColumn : r.startColumn + Math.max(1, node.label.length);
  return { startLine: r.startLine, startColumn: r.startColumn, endLine: r.startLine, endColumn: end };
}

const lineRange = (r: Range0): LineRange => ({ startLine: r.startLine, startColumn: r.startColumn, endLine: r.endLine, endColumn: r.endColumn });

function ratio(items: Array<{ hits: number }>): CoverageRatio {
  return { covered: items.filter((i) => i.hits > 0).length, total: items.length };
}

/** One agent's statements and declaration, added to the files they are in. */
function addAgent(agent: AgentCoverage, graph: AgentGraph, fileOf: (file: string) => FileCoverageData): void {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const statements = new Map<string, StatementData>();
  for (const node of agent.nodes) {
    const g = nodes.get(node.id);
    if (!node.reachable || !g) continue;
    const statement: StatementData = { hits: node.hits, range: keyLine(g), branches: [] };
    statements.set(node.id, statement);
    fileOf(g.file).statements.push(statement);
  }
  let root: StatementData | undefined;
  // computeCoverage lists a graph's edges in the graph's own order.
  agent.edges.forEach((edge, i) => {
    if (!edge.reachable) return;
    const source = edge.source ? nodes.get(edge.source) : undefined;
    // A transition of the machine itself (its root `on`) hangs on a statement at the definition's line.
    const holder = source ? statements.get(source.id) : (root ??= rootStatement(agent, graph, fileOf));
    if (!holder) return;
    const graphEdge = graph.edges[i];
    const sameFile = !graphEdge?.file || graphEdge.file === (source?.file ?? graph.nodes[0]?.file);
    const targetLabel = nodes.get(edge.target)?.label ?? edge.target.replace(/^.*[#/.]/, "");
    const label = graph.kind === "flow" ? `${edge.exit ?? "then"} → ${targetLabel}` : `on ${edge.label} → ${targetLabel}`;
    holder.branches.push({ hits: edge.hits, label, ...(graphEdge?.range && sameFile ? { range: lineRange(graphEdge.range) } : {}) });
  });
  const definedIn = graph.nodes[0]?.file;
  if (!definedIn) return;
  const span = graph.range ?? spanOf(graph.nodes);
  fileOf(definedIn).declarations.push({ name: `${agent.kind} ${agent.name}`, hits: agent.runs, range: lineRange(span) });
}

function rootStatement(agent: AgentCoverage, graph: AgentGraph, fileOf: (file: string) => FileCoverageData): StatementData | undefined {
  const file = graph.nodes[0]?.file;
  const at = graph.range;
  if (!file || !at) return undefined;
  const statement: StatementData = { hits: agent.runs, range: { startLine: at.startLine, startColumn: at.startColumn, endLine: at.startLine, endColumn: at.startColumn + 1 }, branches: [] };
  fileOf(file).statements.push(statement);
  return statement;
}

function spanOf(nodes: GraphNode[]): Range0 {
  const first = nodes.reduce((a, b) => (b.range.start < a.range.start ? b : a));
  const last = nodes.reduce((a, b) => (b.range.end > a.range.end ? b : a));
  return { startLine: first.range.startLine, startColumn: first.range.startColumn, endLine: last.range.endLine, endColumn: last.range.endColumn };
}

/**
 * Per source file, what VS Code's FileCoverage needs. `report` must be computed with absolute paths (no `show`)
 * over `model`, whose graphs give the ranges. Files in path order, statements and declarations in line order.
 */
export function fileCoverages(report: CoverageReport, model: CoverageModel): FileCoverageData[] {
  const graphs = new Map(model.graphs.map((g) => [g.id, g]));
  const files = new Map<string, FileCoverageData>();
  const fileOf = (file: string) => {
    let f = files.get(file);
    if (!f) files.set(file, (f = { file, statements: [], declarations: [], counts: { statements: ratio([]), branches: ratio([]), declarations: ratio([]) } }));
    return f;
  };
  for (const agent of report.agents) {
    const graph = graphs.get(agent.id);
    if (graph?.nodes.length) addAgent(agent, graph, fileOf);
  }
  const byLine = (a: { range: LineRange }, b: { range: LineRange }) => a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn;
  for (const f of files.values()) {
    f.statements.sort(byLine);
    f.declarations.sort(byLine);
    f.counts = { statements: ratio(f.statements), branches: ratio(f.statements.flatMap((s) => s.branches)), declarations: ratio(f.declarations) };
  }
  return [...files.values()].sort((a, b) => a.file.localeCompare(b.file));
}

/** The tests (by their index in `report.tests`) that reached anything of an agent defined in `file`. */
export function testsReaching(report: CoverageReport, file: string, model: CoverageModel): number[] {
  const graphs = new Map(model.graphs.map((g) => [g.id, g]));
  const out = new Set<number>();
  for (const agent of report.agents) {
    if (graphs.get(agent.id)?.nodes[0]?.file !== file) continue;
    for (const item of [...agent.nodes, ...agent.edges]) for (const t of item.tests) out.add(t);
  }
  return [...out].sort((a, b) => a - b);
}
