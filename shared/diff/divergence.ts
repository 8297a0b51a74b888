// Where two runs of the same eval files first part ways, per test (issue 27's "what changed"): pure, on
// harness event streams (what `agent-lens run --json` prints, each event naming its file), so the CLI's
// `agent-lens diff` and the editor's "Compare with previous run" share it. No VS Code or CLI types.
//
// Per test, its runtime reports are paired in order, and within a pair the first difference is found, in
// this order: the transition events (a model call's completion, named by the actor that made it, with its
// output; a decision's event), the state path (inside parallel regions compared as sets: the order in
// which regions moved is not a difference), a turn's outcome lines, its messages, the run's own status,
// error and output. Then the test's status and failure, then the file's end. Durations never count.
import { payloadOf } from "@agent-lens/protocol/harness"; // not the index: it loads the LSP protocol
import type { AgentRunReportPayload, HarnessEvent, ResultEvent, SeamReportPayload, SourceLocation, TurnReportPayload } from "@agent-lens/protocol";

type Tagged = HarnessEvent & { file?: string };
/** A stately run's report; undefined when the channel could not carry it (it compares as an empty run). */
type StatelyPayload = SeamReportPayload | AgentRunReportPayload | undefined;

/** One test's part of a run: its reports in order, its verdict. `test` "" holds a file's loose reports. */
interface TestRun {
  name: string;
  status?: string;
  failure?: string;
  results: ResultEvent[];
}

interface FileRun {
  status?: string;
  tests: Map<string, TestRun>;
}

export type DivergenceKind = "call" | "event" | "state" | "outcome" | "message" | "result" | "status" | "failure" | "test" | "file";

export interface Divergence {
  file: string;
  /** The test ("suite > test"); "" for a file-level difference. */
  test: string;
  kind: DivergenceKind;
  /** 1-based position of the report within the test (kinds call … result). */
  report?: number;
  /** Where that report's call is (A's, else B's). */
  callSite?: SourceLocation;
  /** What differs, e.g. `call scoreDraft (event 2)`, `state 3`, `outcome 1 of flow triagem`. */
  at: string;
  /** The last state both runs were in before the difference, when known. */
  state?: string;
  a: unknown;
  b: unknown;
}

/** Groups a stream by file and test; reports without a test go to the test whose result follows them
 *  (node:test sends a test's verdict after its body ran), or to "" when none does. */
function groupRuns(events: readonly Tagged[]): Map<string, FileRun> {
  const files = new Map<string, FileRun>();
  const pending = new Map<string, ResultEvent[]>();
  const fileOf = (e: Tagged) => e.file ?? "";
  const runOf = (file: string): FileRun => {
    let f = files.get(file);
    if (!f) files.set(file, (f = { tests: new Map() }));
    return f;
  };
  const testOf = (f: FileRun, name: string): TestRun => {
    let t = f.tests.get(name);
    if (!t) f.tests.set(name, (t = { name, results: [] }));
    return t;
  };
  for (const e of events) {
    const file = fileOf(e);
    const f = runOf(file);
    if (e.type === "result") {
      if (e.test !== undefined) testOf(f, e.test).results.push(e);
      else pending.set(file, [...(pending.get(file) ?? []), e]);
    } else if (e.type === "test-start" || e.type === "test-end") {
      const t = testOf(f, e.test);
      t.results.push(...(pending.get(file) ?? []));
      pending.delete(file);
      if (e.type === "test-end") {
        t.status = e.status;
        if (e.failure) t.failure = e.failure.message;
      }
    } else if (e.type === "end") {
      f.status = e.status;
      if (pending.get(file)?.length) testOf(f, "").results.push(...pending.get(file)!);
      pending.delete(file);
    }
  }
  return files;
}

const json = (v: unknown) => JSON.stringify(v) ?? "undefined";
const same = (a: unknown, b: unknown) => json(a) === json(b);

/** A state path with each run inside parallel regions (entries with several leaves) folded into the set
 *  of leaves it visited and where it ended. */
export function foldParallel(path: readonly string[]): string[] {
  const out: string[] = [];
  let visited = new Set<string>();
  let last: string | undefined;
  const flush = () => {
    if (last === undefined) return;
    out.push(`{${[...visited].sort().join(",")}} → ${last.split(",").sort().join(",")}`);
    visited = new Set();
    last = undefined;
  };
  for (const entry of path) {
    if (!entry.includes(",")) {
      flush();
      out.push(entry);
      continue;
    }
    for (const leaf of entry.split(",")) visited.add(leaf);
    last = entry;
  }
  flush();
  return out;
}

interface Step {
  label: string;
  value: unknown;
}

/** The transition events of a stately report, each named: a completion is the call of the actor it names
 *  — the request's name when the report lists its calls (runSeam), else the state it was invoked in. */
function eventSteps(events: ReadonlyArray<{ type: string; data?: unknown }>, calls: readonly string[] = []): Step[] {
  let k = 0;
  return events.map((e, i) => {
    const data = (e.data ?? {}) as { actorId?: unknown; output?: unknown; error?: unknown };
    if (!/^xstate\.(done|error)\.actor/.test(e.type)) return { label: `event ${i + 1}`, value: e };
    const id = String(data.actorId ?? e.type.split(".").slice(3).join("."));
    // a request's completion carries { result }; its name is the next call the report lists
    const isRequest = "error" in data || (typeof data.output === "object" && data.output !== null && "result" in data.output);
    const generated = /^\d+\.[^.]+\.(.+)$/.exec(id)?.[1];
    const name = (isRequest ? calls[k++] : undefined) ?? (generated ? `invoked in ${generated}` : id);
    return { label: `call ${name} (event ${i + 1})`, value: "error" in data ? { error: data.error } : { output: data.output } };
  });
}

const stepKey = (s: Step | undefined) => (s ? `${s.label.replace(/ \((event|state) \d+\)$|^(event|state) \d+$/, "")}\n${json(s.value)}` : "");

/** The shortest run of steps from `i` on that holds the same steps in both, in another order (at most 16). */
function permutedUntil(a: Step[], b: Step[], i: number): number | undefined {
  const count = new Map<string, number>();
  for (let j = i; j < Math.min(a.length, b.length, i + 16); j++) {
    for (const [key, by] of [[stepKey(a[j]), 1], [stepKey(b[j]), -1]] as const) {
      const n = (count.get(key) ?? 0) + by;
      if (n) count.set(key, n);
      else count.delete(key);
    }
    if (count.size === 0) return j;
  }
  return undefined;
}

/** The first step where the sequences differ. With `unordered`, steps that only came in another order
 *  (regions of a parallel state moving in turn) are not a difference. */
function firstDifference(a: Step[], b: Step[], unordered = false): { index: number; a: unknown; b: unknown; label: string } | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (stepKey(a[i]) === stepKey(b[i])) continue;
    const until = unordered ? permutedUntil(a, b, i) : undefined;
    if (until !== undefined) {
      i = until;
      continue;
    }
    return { index: i, label: (a[i] ?? b[i])!.label, a: a[i]?.value ?? "(nothing)", b: b[i]?.value ?? "(nothing)" };
  }
  return undefined;
}

/** A runSeam report (split at the seam: `before` / `after`), not a runAgent / simulateAgent one. */
const isSeam = (p: NonNullable<StatelyPayload>): p is SeamReportPayload => "before" in p;

function statePath(p: StatelyPayload): string[] {
  if (!p) return [];
  return isSeam(p) ? [...(p.before?.statePath ?? []), ...(p.after?.statePath ?? [])] : p.path ?? [];
}

function eventsOf(p: StatelyPayload): Array<{ type: string; data?: unknown }> {
  if (!p) return [];
  return isSeam(p) ? [...(p.before?.events ?? []), ...(p.after?.events ?? [])] : p.events ?? [];
}

function stately(a: StatelyPayload, b: StatelyPayload): Omit<Divergence, "file" | "test" | "report" | "callSite"> | undefined {
  const ea = eventsOf(a);
  const eb = eventsOf(b);
  const rawA = statePath(a);
  const pa = foldParallel(rawA);
  const pb = foldParallel(statePath(b));
  const states = firstDifference(pa.map((v, i) => ({ label: `state ${i + 1}`, value: v })), pb.map((v, i) => ({ label: `state ${i + 1}`, value: v })));
  const calls = (p: StatelyPayload) => (p && isSeam(p) ? (p.calls ?? []).map((c) => c.name) : []);
  // events that only came in another order count for nothing when the runs went through the same states
  // (parallel regions moving in turn)
  const event = firstDifference(eventSteps(ea, calls(a)), eventSteps(eb, calls(b)), !states);
  // the state the runs were in: before the event (the state after each event is known when the path was
  // not shortened), else before the states parted
  const aligned = rawA.length === ea.length;
  const stateAt = event && aligned && event.index > 0 ? rawA[event.index - 1] : states ? pa[states.index - 1] : undefined;
  if (event) {
    const kindOf = event.label.startsWith("call") ? "call" : "event";
    return { kind: kindOf, at: states ? `${event.label}; then ${states.label}: ${json(states.a)} / ${json(states.b)}` : event.label, ...(stateAt ? { state: stateAt } : {}), a: event.a, b: event.b };
  }
  if (states) return { kind: "state", at: states.label, ...(stateAt ? { state: stateAt } : {}), a: states.a, b: states.b };
  const own = (r: StatelyPayload) => ({ status: r?.status, error: r?.error ? { code: r.error.code, message: r.error.message } : undefined, output: r?.output });
  if (!same(own(a), own(b))) return { kind: "status", at: "its result", a: own(a), b: own(b) };
  return undefined;
}

function turn(a: TurnReportPayload | undefined, b: TurnReportPayload | undefined): Omit<Divergence, "file" | "test" | "report" | "callSite"> | undefined {
  const line = (o: unknown) => {
    const r = o as Record<string, unknown>;
    return { flow: r.flowId, step: r.stepId, kind: r.kind, status: r.status, code: r.code, next: r.next };
  };
  const outcomes = firstDifference((a?.outcomes ?? []).map((o, i) => ({ label: `outcome ${i + 1}`, value: line(o) })), (b?.outcomes ?? []).map((o, i) => ({ label: `outcome ${i + 1}`, value: line(o) })));
  if (outcomes) {
    const before = (a?.outcomes ?? [])[outcomes.index - 1] as { flowId?: string; stepId?: string } | undefined;
    return { kind: "outcome", at: outcomes.label, ...(before?.stepId ? { state: `${before.flowId} / ${before.stepId}` } : {}), a: outcomes.a, b: outcomes.b };
  }
  const text = (m: unknown) => (m as { text?: unknown }).text;
  const messages = firstDifference((a?.messages ?? []).map((m, i) => ({ label: `message ${i + 1}`, value: text(m) })), (b?.messages ?? []).map((m, i) => ({ label: `message ${i + 1}`, value: text(m) })));
  if (messages) return { kind: "message", at: messages.label, a: messages.a, b: messages.b };
  if (!same(a?.session?.data, b?.session?.data)) return { kind: "status", at: "the session's data", a: a?.session?.data, b: b?.session?.data };
  return undefined;
}

/** The first difference between two reports of the same kind (undefined: none that counts). */
function reportDivergence(a: ResultEvent, b: ResultEvent): Omit<Divergence, "file" | "test" | "report" | "callSite"> | undefined {
  if (a.kind !== b.kind) return { kind: "result", at: "the kind of report", a: a.kind, b: b.kind };
  if ((a.kind === "seam" || a.kind === "agent" || a.kind === "simulate") && (b.kind === "seam" || b.kind === "agent" || b.kind === "simulate")) return stately(payloadOf(a), payloadOf(b));
  if (a.kind === "turn" && b.kind === "turn") return turn(payloadOf(a), payloadOf(b));
  return same(a.data, b.data) ? undefined : { kind: "result", at: `its ${a.kind} answer`, a: a.data, b: b.data };
}

function testDivergence(file: string, a: TestRun | undefined, b: TestRun | undefined): Divergence | undefined {
  const name = (a ?? b)!.name;
  if (!a || !b) return { file, test: name, kind: "test", at: "the test", a: a ? a.status ?? "ran" : "(not run)", b: b ? b.status ?? "ran" : "(not run)" };
  for (let i = 0; i < Math.max(a.results.length, b.results.length); i++) {
    const ra = a.results[i];
    const rb = b.results[i];
    const callSite = (ra ?? rb)!.callSite;
    const where = { file, test: name, report: i + 1, ...(callSite ? { callSite } : {}) };
    if (!ra || !rb) return { ...where, kind: "result", at: `report ${i + 1}`, a: ra ? ra.kind : "(none)", b: rb ? rb.kind : "(none)" };
    const d = reportDivergence(ra, rb);
    if (d) return { ...where, ...d };
  }
  if (a.status !== b.status) return { file, test: name, kind: "status", at: "the test's status", a: a.status, b: b.status };
  if (a.failure !== b.failure) return { file, test: name, kind: "failure", at: "the test's failure", a: a.failure, b: b.failure };
  return undefined;
}

/** The first divergence of each test (and file) that differs between run A and run B. */
export function diffRuns(a: readonly Tagged[], b: readonly Tagged[]): Divergence[] {
  const ra = groupRuns(a);
  const rb = groupRuns(b);
  const out: Divergence[] = [];
  for (const file of [...new Set([...ra.keys(), ...rb.keys()])].sort()) {
    const fa = ra.get(file);
    const fb = rb.get(file);
    if (!fa || !fb) {
      out.push({ file, test: "", kind: "file", at: "the file", a: fa ? fa.status ?? "ran" : "(not run)", b: fb ? fb.status ?? "ran" : "(not run)" });
      continue;
    }
    const names = [...new Set([...fa.tests.keys(), ...fb.tests.keys()])];
    let tests = 0;
    for (const name of names) {
      const d = testDivergence(file, fa.tests.get(name), fb.tests.get(name));
      if (d) {
        out.push(d);
        tests++;
      }
    }
    if (!tests && fa.status !== fb.status) out.push({ file, test: "", kind: "file", at: "the file's end", a: fa.status, b: fb.status });
  }
  return out;
}
