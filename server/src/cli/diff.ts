// agent-lens diff A B: two saved `agent-lens run --json` outputs, compared per test; prints the first
// divergence of each test that differs (shared/diff/divergence.ts) and exits 1 when any did, 0 when none, 2 on
// bad usage or a file that is not such an output.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { parseArgs } from "node:util";
import type { HarnessEvent } from "@agent-lens/protocol";
import { diffRuns, type Divergence } from "@agent-lens/diff/divergence";

const USAGE = `usage: agent-lens diff A B [--json]

Compares two saved \`agent-lens run --json\` outputs (A: before, B: after) and prints, for each test whose
run differs, the first divergence: the model call (by the actor that made it, with its output) or event,
the state path (parallel regions compared as sets), a turn's outcome line or message, the result's own
status, then the test's status and failure. Exit status: 0 no test diverged, 1 some did, 2 bad usage.

options:
  --json      print the divergences as one JSON array
  -h, --help  this text
`;

/** A saved event stream: one JSON event per line (lines that are not events, like a repeat summary, are skipped). */
export function readStream(file: string): Array<HarnessEvent & { file?: string; run?: number }> {
  const events: Array<HarnessEvent & { file?: string; run?: number }> = [];
  const lines = readFileSync(file, "utf8").split("\n");
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1} is not JSON: is it the output of agent-lens run --json?`);
    }
    if (!e || typeof e !== "object" || typeof (e as { type?: unknown }).type !== "string") throw new Error(`${file}:${i + 1} is not a harness event`);
    const event = e as HarnessEvent & { file?: string; run?: number };
    // with --repeat, the first run of each file stands for it
    if (event.run === undefined || event.run === 1) events.push(event);
  }
  if (!events.some((e) => e.type === "start")) throw new Error(`${file} has no run in it: is it the output of agent-lens run --json?`);
  return events;
}

const show = (v: unknown) => {
  const text = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v) ?? "undefined";
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

export function formatDivergence(d: Divergence, root: string): string {
  const file = relative(root, d.file) || d.file;
  const where = d.callSite ? ` at ${relative(root, d.callSite.file) || d.callSite.file}:${d.callSite.line}` : "";
  const lines = [`${file}${d.test ? ` > ${d.test}` : ""}`, `  ${d.report ? `report ${d.report}${where}: ` : ""}${d.kind} — ${d.at}`];
  if (d.state) lines.push(`  after state: ${d.state}`);
  lines.push(`  A: ${show(d.a)}`, `  B: ${show(d.b)}`);
  return lines.join("\n");
}

export async function runDiff(argv: string[]): Promise<number> {
  let files: string[];
  let json = false;
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (positionals.length !== 2) throw new Error(`needs two files, got ${positionals.length}`);
    files = positionals;
    json = values.json ?? false;
  } catch (error) {
    process.stderr.write(`agent-lens diff: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  let divergences: Divergence[];
  try {
    divergences = diffRuns(readStream(files[0]!), readStream(files[1]!));
  } catch (error) {
    process.stderr.write(`agent-lens diff: ${(error as Error).message}\n`);
    return 2;
  }
  const root = process.cwd();
  if (json) process.stdout.write(`${JSON.stringify(divergences, null, 2)}\n`);
  else {
    for (const d of divergences) process.stdout.write(`${formatDivergence(d, root)}\n\n`);
    process.stdout.write(divergences.length ? `${divergences.length} test${divergences.length === 1 ? "" : "s"} diverged\n` : "no divergence\n");
  }
  return divergences.length ? 1 : 0;
}
