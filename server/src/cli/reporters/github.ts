// GitHub Actions annotations (on by themselves when GITHUB_ACTIONS=true): one workflow command per failure
// of `agent-lens run` (`::error file=…,line=…,col=…,title=…::message`, at the failure's location, else the
// test's, else the file) and per finding of `agent-lens check` (error / warning / notice by severity).
// Values are escaped as the runner's command parser expects (% \r \n, and : , in properties).
import { relative, sep } from "node:path";
import type { FailureInfo, RepeatSummary } from "@agent-lens/protocol";
import type { FileRecord } from "../run-record";

const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

export interface Annotation {
  level: "error" | "warning" | "notice";
  /** Relative to the working directory, "/"-separated. */
  file: string;
  line?: number;
  col?: number;
  endLine?: number;
  endColumn?: number;
  title?: string;
  message: string;
}

export function formatAnnotation(a: Annotation): string {
  const props = [`file=${property(a.file)}`];
  if (a.line !== undefined) props.push(`line=${a.line}`);
  if (a.col !== undefined) props.push(`col=${a.col}`);
  if (a.endLine !== undefined) props.push(`endLine=${a.endLine}`);
  if (a.endColumn !== undefined) props.push(`endColumn=${a.endColumn}`);
  if (a.title) props.push(`title=${property(a.title)}`);
  return `::${a.level} ${props.join(",")}::${data(a.message)}\n`;
}

/** Whether annotations are wanted without being asked for: inside a GitHub Actions job. */
export function inGithubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === "true";
}

/** The annotations of a run's failures (under --repeat: of each test that does not pass by its rules). */
export function runAnnotations(records: FileRecord[], root: string, summaries?: RepeatSummary[]): Annotation[] {
  const show = (file: string) => relative(root, file).split(sep).join("/") || file;
  const out: Annotation[] = [];
  const at = (f: FailureInfo | undefined, file: string, fallback?: { line: number; column: number }) => {
    const loc = f?.location && f.location.file === file ? f.location : fallback;
    return { file: show(file), ...(loc ? { line: loc.line, col: loc.column } : {}) };
  };
  const seen = new Set<string>();
  for (const r of records) {
    const testLoc = (name: string) => r.result.tests.find((t) => t.test === name)?.location;
    if (summaries) {
      for (const s of summaries.filter((x) => x.file === r.file && !x.ok)) {
        const key = `${s.file}\n${s.test}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const loc = testLoc(s.test);
        out.push({ level: "error", ...at(undefined, r.file, loc && loc.file === r.file ? loc : undefined), title: s.test || show(r.file), message: `${s.status}: ${s.passed}/${s.runs} runs passed${s.failure ? ` — ${s.failure}` : ""}` });
      }
      continue;
    }
    for (const t of r.result.tests) {
      if (t.status !== "failed" || !t.failure) continue;
      out.push({ level: "error", ...at(t.failure, r.file, t.location), title: t.test, message: t.failure.message });
    }
    for (const f of r.result.failures) {
      if (r.result.tests.some((t) => t.failure?.message === f.message)) continue;
      out.push({ level: "error", ...at(f, r.file), title: `${show(r.file)}: ${r.result.status}`, message: f.message });
    }
  }
  return out;
}
