// coverage/agents/lcov.info: agent coverage in the LCOV format coverage services read. States and steps
// are lines (`DA:<line>,<hits>`), transitions and a step's ways out are branches (`BRDA:<line>,<block>,
// <branch>,<taken>`, one block per source state or step, "-" when that state or step was never reached),
// machines and flows are functions (`FN` / `FNDA`: runs tied to them). Unreachable items are left out.
import type { CoverageReport } from "@agent-lens/protocol";

interface FileLines {
  functions: Array<{ line: number; name: string; hits: number }>;
  lines: Map<number, number>;
  branches: Array<{ line: number; block: number; branch: number; taken: string }>;
}

export function formatLcov(report: CoverageReport): string {
  const files = new Map<string, FileLines>();
  const of = (file: string): FileLines => {
    let f = files.get(file);
    if (!f) files.set(file, (f = { functions: [], lines: new Map(), branches: [] }));
    return f;
  };
  let block = 0;
  for (const agent of report.agents) {
    of(agent.file).functions.push({ line: agent.line, name: `${agent.kind} ${agent.name}`, hits: agent.runs });
    const hitsOf = new Map(agent.nodes.map((n) => [n.id, n.hits]));
    for (const node of agent.nodes) {
      if (!node.reachable) continue;
      const lines = of(node.file).lines;
      lines.set(node.line, (lines.get(node.line) ?? 0) + node.hits);
    }
    // one block per source: the branches of a state or step are the ways out of it
    const blocks = new Map<string, { id: number; branch: number }>();
    for (const edge of agent.edges) {
      if (!edge.reachable) continue;
      const key = `${edge.source}`;
      let b = blocks.get(key);
      if (!b) blocks.set(key, (b = { id: block++, branch: 0 }));
      const sourceHits = edge.source ? hitsOf.get(edge.source) ?? 0 : agent.runs;
      of(edge.file).branches.push({ line: edge.line, block: b.id, branch: b.branch++, taken: sourceHits === 0 && edge.hits === 0 ? "-" : String(edge.hits) });
    }
  }
  const out: string[] = [];
  for (const [file, f] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    out.push("TN:", `SF:${file}`);
    for (const fn of f.functions) out.push(`FN:${fn.line},${fn.name}`);
    for (const fn of f.functions) out.push(`FNDA:${fn.hits},${fn.name}`);
    out.push(`FNF:${f.functions.length}`, `FNH:${f.functions.filter((fn) => fn.hits > 0).length}`);
    for (const b of f.branches) out.push(`BRDA:${b.line},${b.block},${b.branch},${b.taken}`);
    out.push(`BRF:${f.branches.length}`, `BRH:${f.branches.filter((b) => b.taken !== "-" && b.taken !== "0").length}`);
    const lines = [...f.lines].sort(([a], [b]) => a - b);
    for (const [line, hits] of lines) out.push(`DA:${line},${hits}`);
    out.push(`LF:${lines.length}`, `LH:${lines.filter(([, hits]) => hits > 0).length}`, "end_of_record");
  }
  return out.length ? `${out.join("\n")}\n` : "";
}
