// The human report of `agent-lens run`: one block per file as it finishes, then the closing line.
import { inspect } from "node:util";
import { relative } from "node:path";
import type { FailureInfo } from "@agent-lens/protocol";
import type { ModelPrice } from "@agent-lens/settings/model-prices";
import { fileCallLines, testCallLines } from "./report-calls";
import type { FileRunResult } from "./run-types";

export interface TextStyle {
  color: boolean;
  /** Model prices (USD per 1M tokens) for the model calls' estimated cost: the setting's over the table. */
  prices?: Readonly<Record<string, ModelPrice>>;
}

const paint = (style: TextStyle, code: number, text: string) => (style.color ? `\x1b[${code}m${text}\x1b[0m` : text);
const ms = (n: number) => `${Math.round(n)} ms`;

function indent(text: string, by: string): string {
  return text.split("\n").map((l) => (l ? by + l : l)).join("\n");
}

function show(value: unknown): string {
  return inspect(value, { depth: 6, breakLength: 100, compact: 3, sorted: false });
}

function formatFailure(f: FailureInfo, root: string, style: TextStyle): string {
  const lines = [paint(style, 31, f.message.trimEnd())];
  // Node's assertion messages already carry a diff; show the values for the rest (and for short ones).
  const hasDiff = /\n[+-] /.test(f.message);
  if (f.code === "ERR_ASSERTION" && !hasDiff && (f.expected !== undefined || f.actual !== undefined)) {
    lines.push(`${paint(style, 32, "expected:")} ${show(f.expected)}`, `${paint(style, 31, "actual:  ")} ${show(f.actual)}`);
  }
  if (f.location) lines.push(paint(style, 2, `at ${relative(root, f.location.file) || f.location.file}:${f.location.line}:${f.location.column}`));
  if (f.code && f.code !== "ERR_ASSERTION") lines.push(paint(style, 2, `(${f.code})`));
  return lines.join("\n");
}

export function formatFileResult(r: FileRunResult, consoleText: string, root: string, style: TextStyle): string {
  const label = r.status === "passed" ? paint(style, 42, " PASS ") : paint(style, 41, r.status === "failed" ? " FAIL " : ` ${r.status.toUpperCase()} `);
  const out = [`${label} ${relative(root, r.file) || r.file} ${paint(style, 2, `(${ms(r.durationMs)}${r.bundle.cached ? ", cached bundle" : ""})`)}`];
  const calls = { dim: (text: string) => paint(style, 2, text), ...(style.prices ? { prices: style.prices } : {}) };
  for (const t of r.tests) {
    const mark = t.status === "passed" ? paint(style, 32, "✓") : t.status === "failed" ? paint(style, 31, "✗") : paint(style, 33, "-");
    out.push(`  ${mark} ${t.test} ${paint(style, 2, `(${ms(t.durationMs)})`)}${t.status === "skipped" ? paint(style, 33, " skipped") : ""}`);
    if (t.status === "failed" && t.failure) out.push(indent(formatFailure(t.failure, root, style), "      "));
    out.push(...testCallLines(r, t.test, calls).map((l) => `      ${l}`));
  }
  out.push(...fileCallLines(r, root, calls).map((l) => `    ${l}`));
  const loose = r.failures.filter((f) => !r.tests.some((t) => t.failure === f || (t.failure?.message === f.message && t.failure?.code === f.code)));
  for (const f of loose) out.push(indent(formatFailure(f, root, style), "    "));
  if (r.status !== "passed" && consoleText.trim()) {
    const tail = consoleText.length > 4000 ? `…${consoleText.slice(-4000)}` : consoleText;
    out.push(paint(style, 2, "    output:"), indent(tail.trimEnd(), "    │ "));
  }
  return out.join("\n");
}

export function summaryLine(totals: { passed: number; failed: number; skipped: number }): string {
  return `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`;
}
