// The coverage table `agent-lens run --coverage` prints: one row per machine and per flow, covered/total
// per kind and the percent --coverage-min compares, then the unmatched reports (said, never dropped).
import type { AgentCoverage, CoverageRatio, CoverageReport } from "@agent-lens/protocol";
import { percentOf } from "@agent-lens/coverage/compute";

const cell = (r: CoverageRatio) => (r.total ? `${r.covered}/${r.total}` : "-");
const pct = (n: number) => `${n.toFixed(1)}%`;

function row(a: AgentCoverage): string[] {
  const c = a.counts;
  return a.kind === "machine"
    ? [`machine ${a.name}`, `${a.file}:${a.line}`, `states ${cell(c.states)}`, `transitions ${cell(c.transitions)}`, `requests ${cell(c.requests)}`, pct(percentOf(c))]
    : [`flow ${a.name}`, `${a.file}:${a.line}`, `steps ${cell(c.steps)}`, `branches ${cell(c.branches)}`, `fields ${cell(c.fields)}`, pct(percentOf(c))];
}

export function formatCoverageTable(report: CoverageReport): string {
  const rows = report.agents.map(row);
  const t = report.totals;
  rows.push(["all", "", `states ${cell(t.states)}`, `transitions ${cell(t.transitions)}`, `steps ${cell(t.steps)}, branches ${cell(t.branches)}`, pct(report.percent)]);
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const lines = ["Agent coverage", ...rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd())];
  for (const u of report.unmatched) lines.push(`not counted: a ${u.kind} run (${u.name}) at ${u.file}${u.line ? `:${u.line}` : ""}: ${u.reason}`);
  return `${lines.join("\n")}\n`;
}
