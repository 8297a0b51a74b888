// The JUnit XML report (`agent-lens run --reporter junit`), in the shape CI tools read (the common
// Ant/Jenkins schema): <testsuites> with one <testsuite> per eval file, one <testcase> per test (name,
// classname = the file, file, line, time in seconds), a <failure> (message, type = its code; the body: the
// message, expected / actual, location, stack) for a failed test, <skipped/> for a skipped one, and an
// <error> testcase for what went wrong outside any test (a crash, a timeout, a process left running, a
// lost report). Under --repeat a test is one testcase: a <failure> when it does not pass by the repeat
// rules (flaky or failed), its rate in <properties>. Paths are relative to the working directory.
import { relative, sep } from "node:path";
import type { FailureInfo, RepeatSummary } from "@agent-lens/protocol";
import type { FileRecord } from "../run-record";

/** XML text: escaped, and without the characters XML 1.0 cannot hold. */
function xmlText(s: string): string {
  // eslint-disable-next-line no-control-regex -- removing exactly the characters XML 1.0 forbids
  return s.replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const attrs = (o: Record<string, string | number | undefined>) =>
  Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${xmlText(String(v))}"`).join("");
const seconds = (ms: number) => (ms / 1000).toFixed(3);

function failureBody(f: FailureInfo, show: (file: string) => string): string {
  const parts = [f.message];
  if (f.expected !== undefined || f.actual !== undefined) parts.push(`expected: ${JSON.stringify(f.expected)}`, `actual: ${JSON.stringify(f.actual)}`);
  if (f.location) parts.push(`at ${show(f.location.file)}:${f.location.line}:${f.location.column}`);
  if (f.stack) parts.push(f.stack);
  return parts.join("\n");
}

interface Case {
  name: string;
  line?: number;
  ms: number;
  body: string;
  kind: "pass" | "failure" | "error" | "skipped";
}

export function formatJunit(records: FileRecord[], root: string, summaries?: RepeatSummary[]): string {
  const show = (file: string) => relative(root, file).split(sep).join("/") || file;
  const suites: string[] = [];
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const files = [...new Set(records.map((r) => r.file))].sort();
  for (const file of files) {
    const runs = records.filter((r) => r.file === file);
    const first = runs[0]!;
    const cases: Case[] = [];
    const repeat = summaries?.filter((s) => s.file === file);
    for (const t of first.result.tests) {
      const line = t.location && t.location.file === file ? t.location.line : undefined;
      const ms = runs.reduce((n, r) => n + (r.result.tests.find((x) => x.test === t.test)?.durationMs ?? 0), 0);
      const s = repeat?.find((x) => x.test === t.test);
      if (s) {
        const rate = `${s.passed}/${s.runs} runs passed (${s.status}; 95% interval ${s.interval[0]}–${s.interval[1]})`;
        cases.push({ name: t.test, line, ms, kind: s.ok ? "pass" : "failure", body: s.ok ? `<properties><property name="passRate" value="${s.passRate}"/></properties>` : `<failure message="${xmlText(`${rate}${s.failure ? `: ${s.failure.split("\n")[0]}` : ""}`)}" type="${s.status}">${xmlText(`${rate}\n${s.failure ?? ""}`)}</failure>` });
        continue;
      }
      if (t.status === "skipped") cases.push({ name: t.test, line, ms, kind: "skipped", body: "<skipped/>" });
      else if (t.status === "failed") {
        const f = t.failure ?? { message: "failed" };
        cases.push({ name: t.test, line, ms, kind: "failure", body: `<failure message="${xmlText(f.message.split("\n")[0] ?? "")}" type="${xmlText(f.code ?? "failure")}">${xmlText(failureBody(f, show))}</failure>` });
      } else cases.push({ name: t.test, line, ms, kind: "pass", body: "" });
    }
    // what went wrong outside any test, once per file (the first run that had it)
    const loose = runs.find((r) => r.result.failures.some((f) => !r.result.tests.some((t) => t.failure?.message === f.message)) || (r.result.status !== "passed" && !r.result.tests.some((t) => t.status === "failed")));
    if (loose && !(repeat?.find((s) => s.test === "")?.ok ?? false)) {
      const f = loose.result.failures.find((x) => !loose.result.tests.some((t) => t.failure?.message === x.message)) ?? { message: `the file ended ${loose.result.status}`, code: loose.result.status };
      cases.push({ name: `${show(file)} (the file)`, ms: 0, kind: "error", body: `<error message="${xmlText(f.message.split("\n")[0] ?? "")}" type="${xmlText(f.code ?? loose.result.status)}">${xmlText(failureBody(f, show))}</error>` });
    }
    const count = (k: Case["kind"]) => cases.filter((c) => c.kind === k).length;
    const ms = runs.reduce((n, r) => n + r.result.durationMs, 0);
    const failed = cases.some((c) => c.kind === "failure" || c.kind === "error");
    const out = failed && first.console.trim() ? `\n    <system-out>${xmlText(first.console.slice(-4000))}</system-out>` : "";
    suites.push(
      `  <testsuite${attrs({ name: show(file), tests: cases.length, failures: count("failure"), errors: count("error"), skipped: count("skipped"), time: seconds(ms) })}>\n` +
        cases.map((c) => `    <testcase${attrs({ name: c.name, classname: show(file), file: show(file), line: c.line, time: seconds(c.ms) })}${c.body ? `>${c.body}</testcase>` : "/>"}`).join("\n") +
        `${out}\n  </testsuite>`,
    );
    total.tests += cases.length;
    total.failures += count("failure");
    total.errors += count("error");
    total.skipped += count("skipped");
    total.ms += ms;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: "agent-lens", tests: total.tests, failures: total.failures, errors: total.errors, skipped: total.skipped, time: seconds(total.ms) })}>\n${suites.join("\n")}\n</testsuites>\n`;
}
