// Turns a harness event stream (plus the diagrams of the machine / flow involved) into the view the
// results panel draws. Pure: no VS Code types, so it is unit-tested without an editor.
import type { AgentGraph } from "@agent-lens/protocol";
import type { FailureInfo, HarnessEvent, SourceLocation } from "@agent-lens/protocol";
import type { AgentRunReportPayload, SeamReportPayload, TurnReportPayload } from "@agent-lens/protocol";
import { attributeResults } from "./attribution";
import { describeEvent } from "./event-names";
import { mapGeneratedEvents, type GeneratedOrigin } from "./generated";
import { driftsOf, modelCallsOf, withDrift } from "./model-calls";
import type { DiagramView, ErrorView, ResultView } from "@agent-lens/protocol";
import { erroredByTest, fileStatusOf, verdictOf } from "./verdict";

export interface ViewInput {
  runId: number;
  title: string;
  /** The file that ran. */
  file: string;
  /** When the run is about one call (a lens on a user's runSeam / turn / test block): its file and 1-based line. */
  focus?: { file: string; line: number };
  events: readonly HarnessEvent[];
  graphs: readonly AgentGraph[];
  /** What a lens ran ("seam", "turn", "explore paths"): the view gives its own verdict apart from the file's. */
  subject?: string;
  /** The run was a program we generated: its locations and name map back to where the lens sits. */
  generated?: GeneratedOrigin;
}

const CONSOLE_LIMIT = 200_000;

/** What a view was built from (its events with generated locations mapped back, the lens's focus), kept
 *  beside it for the extension (the run history), never sent to the webview. */
export interface ViewSource {
  events: readonly HarnessEvent[];
  focus?: { file: string; line: number };
  subject?: string;
}
const sources = new WeakMap<ResultView, ViewSource>();

export function sourceOf(view: ResultView): ViewSource | undefined {
  return sources.get(view);
}

export function buildResultView(input: ViewInput): ResultView {
  const events = attributeResults(input.generated ? mapGeneratedEvents(input.events, input.generated) : input.events);
  const results = selectResults(events, input.focus);
  const verdict = verdictOf({ events, results: results.events, focus: input.focus, generated: !!input.generated, fellBack: !!results.note, subject: input.subject });
  const view: ResultView = {
    runId: input.runId, title: input.title, file: input.file, line: input.focus?.line ?? input.generated?.origin.line, status: verdict.status, fileStatus: fileStatusOf(events), verdict,
    seams: [], turns: [], agentRuns: [], other: [], tests: [], errors: [], console: [], diagrams: [],
  };
  if (input.generated) view.generated = true;
  if (results.note) view.note = results.note;
  const erroredInTest = erroredByTest(events);
  const drifts = driftsOf(events);
  const modelCalls = modelCallsOf(events);
  if (modelCalls.length) view.modelCalls = modelCalls;
  let consoleChars = 0;

  for (const event of events) {
    switch (event.type) {
      case "start":
        view.runtime = event.runtime;
        break;
      case "console":
        if (consoleChars < CONSOLE_LIMIT) {
          const text = event.text.slice(0, CONSOLE_LIMIT - consoleChars);
          consoleChars += text.length;
          view.console.push({ stream: event.stream, text });
        }
        break;
      case "test-end": {
        // A generated program's one "test" is the program itself: the verdict above is its result.
        if (!input.generated) {
          const errored = erroredInTest.get(event.test);
          view.tests.push({ name: event.test, status: event.status, durationMs: event.durationMs, location: event.location, ...(errored ? { erroredResults: errored } : {}) });
        }
        if (event.failure && !view.errors.some((e) => sameFailure(e, event.failure!, event.test))) view.errors.push(withDrift(errorView(event.failure, event.test), drifts));
        break;
      }
      case "fail":
        if (!view.errors.some((e) => sameFailure(e, event.failure, event.test))) view.errors.push(withDrift(errorView(event.failure, event.test), drifts));
        break;
      case "end":
        view.durationMs = event.durationMs;
        break;
      default:
        break;
    }
  }

  for (const event of results.events) {
    const where = { callSite: event.callSite, test: event.test };
    switch (event.kind) {
      case "seam": {
        const seam = event.data as SeamReportPayload;
        view.seams.push({ ...seam, ...where });
        if (seam.error) {
          const error = seamError(seam.error, event.callSite, event.test);
          const told = view.errors.find((e) => sameMessage(e.message, error.message) && e.code === error.code);
          if (!told) view.errors.push(error);
          else if (error.raw && !told.raw) told.raw = error.raw;
        }
        break;
      }
      case "turn":
        view.turns.push({ ...(event.data as TurnReportPayload), ...where });
        break;
      case "agent":
      case "simulate": {
        const run = event.data as AgentRunReportPayload;
        view.agentRuns.push({ ...run, kind: event.kind, ...where });
        break;
      }
      default:
        view.other.push({ kind: event.kind, data: event.data, ...where });
        if (event.kind === "explore") for (const e of exploreErrors(event.data, input.graphs, event.callSite)) if (!view.errors.some((x) => x.message === e.message)) view.errors.push(e);
    }
  }

  view.diagrams = input.graphs.map((graph) => diagramFor(graph, view));
  sources.set(view, { events, ...(input.focus ? { focus: input.focus } : {}), ...(input.subject ? { subject: input.subject } : {}) });
  return view;
}

type ResultEvent = Extract<HarnessEvent, { type: "result" }>;

/** The transitions XState rejected while exploring, as errors located at the state they left (its source,
 *  when a diagram of the machine knows it; else the explorePaths call). */
function exploreErrors(data: unknown, graphs: readonly AgentGraph[], callSite?: SourceLocation): ErrorView[] {
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e: { state?: unknown; event?: unknown; message?: unknown }) => {
    if (typeof e?.state !== "string" || typeof e.message !== "string") return [];
    const event = typeof e.event === "string" ? describeEvent(e.event).text : "an event";
    const node = graphs.find((g) => g.kind === "machine")?.nodes.find((n) => n.path === e.state);
    const location = node ? { file: node.file, line: node.range.startLine + 1, column: node.range.startColumn + 1 } : callSite;
    return [{ message: `From state "${e.state}" on ${event}: ${e.message}`, ...(location ? { location } : {}) }];
  });
}

/** The results the view is about: those from the focused call when there is one, else all of them. */
export function selectResults(events: readonly HarnessEvent[], focus?: { file: string; line: number }): { events: ResultEvent[]; note?: string } {
  const all = events.filter((e): e is ResultEvent => e.type === "result");
  if (!focus) return { events: all };
  const atLine = all.filter((e) => e.callSite && samePath(e.callSite.file, focus.file) && e.callSite.line === focus.line);
  if (atLine.length) return { events: atLine };
  // A lens on a test block: the results produced inside that test.
  const tests = new Set(events.flatMap((e) => (e.type === "test-start" && e.location && samePath(e.location.file, focus.file) && e.location.line === focus.line ? [e.test] : [])));
  const inTest = all.filter((e) => e.test !== undefined && tests.has(e.test));
  if (inTest.length) return { events: inTest };
  if (!all.length) return { events: all };
  return { events: all, note: `No result came from line ${focus.line}; showing every result of the file.` };
}

function samePath(a: string, b: string): boolean {
  return a === b || a.replace(/\\/g, "/").toLowerCase() === b.replace(/\\/g, "/").toLowerCase();
}

function errorView(failure: FailureInfo, test?: string): ErrorView {
  const error: ErrorView = { message: failure.message, code: failure.code, test, location: failure.location };
  if ("expected" in failure || "actual" in failure) {
    if (failure.expected !== undefined || failure.actual !== undefined) {
      error.expected = show(failure.expected);
      error.actual = show(failure.actual);
    }
  }
  if (failure.code === "seam-script-exhausted") error.missingKey = keyFromMessage(failure.message);
  return error;
}

function seamError(error: NonNullable<SeamReportPayload["error"]>, callSite?: SourceLocation, test?: string): ErrorView {
  const view: ErrorView = { message: error.message, code: error.code, test, location: callSite, ...(error.raw ? { raw: error.raw } : {}) };
  if (error.code === "seam-script-exhausted") view.missingKey = error.key ?? error.request ?? keyFromMessage(error.message);
  return view;
}

/** The key a dry-queue message names: the first quoted word ("scoreDraft", 'judge', `x`). */
export function keyFromMessage(message: string): string | undefined {
  return /["'`]([^"'`\s]+)["'`]/.exec(message)?.[1];
}

/** The same error told twice: a run's report gives its message, the test's uncaught failure the same one
 *  behind the error's name ("AgentError: runSeam: scripts.draftEmial matches no request …"). */
function sameMessage(a: string, b: string): boolean {
  const bare = (m: string) => m.replace(/^[A-Z]\w*Error: /, "");
  return bare(a) === bare(b);
}

function sameFailure(e: ErrorView, failure: FailureInfo, test?: string): boolean {
  // A plain script reports its failure twice (its one test, and the file): once is enough.
  // (a drift's card keeps only its first line: the rest is drawn as its diff)
  return (e.message === failure.message || (e.drift !== undefined && failure.message.startsWith(e.message))) && e.code === failure.code && (e.test === test || test === undefined || e.test === undefined);
}

/** Expected / actual as text for a diff: JSON when it is JSON-able, else String(). */
export function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The nodes a run visited, for drawing the path on the diagram. */
export function diagramFor(graph: AgentGraph, view: Pick<ResultView, "seams" | "agentRuns" | "turns"> & Partial<Pick<ResultView, "other">>): DiagramView {
  if (graph.kind === "machine") {
    const visited: string[] = [];
    let seamNode: string | undefined;
    for (const seam of view.seams) {
      visited.push(...statePathNodes(graph, [...seam.before.statePath, ...seam.after.statePath]));
      // The seam's own state is the last one entered before the split.
      const split = seam.before.statePath.at(-1);
      if (split && !seamNode) seamNode = nodeForState(graph, split);
    }
    for (const run of view.agentRuns) visited.push(...statePathNodes(graph, run.path));
    // explorePaths: every state some terminal path passes through.
    for (const o of view.other ?? []) {
      const terminals = o.kind === "explore" ? (o.data as { terminals?: Array<{ states?: string[] }> })?.terminals : undefined;
      for (const t of Array.isArray(terminals) ? terminals : []) visited.push(...statePathNodes(graph, t.states ?? []));
    }
    return { graph, visited, seamNode };
  }
  const visited: string[] = [];
  for (const turn of view.turns) {
    for (const stepId of stepsOfTurn(turn, graph.name)) {
      const node = graph.nodes.find((n) => n.path === stepId || n.label === stepId || n.id.endsWith(`:${stepId}`) || n.id.endsWith(`.${stepId}`));
      if (node) visited.push(node.id);
    }
  }
  return { graph, visited };
}

/** The steps of one flow a turn touched, in order: from its outcomes, else from its message keys. */
export function stepsOfTurn(turn: TurnReportPayload, flowId: string): string[] {
  const steps: string[] = [];
  for (const o of turn.outcomes as Array<Record<string, unknown>>) {
    if (o && o.flowId === flowId && typeof o.stepId === "string") steps.push(o.stepId);
  }
  for (const m of turn.messages as Array<Record<string, unknown>>) {
    const key = m && typeof m.key === "string" ? m.key : undefined;
    const parsed = key ? parseRunKey(key) : undefined;
    if (parsed && parsed.flowId === flowId && !steps.includes(parsed.stepId)) steps.push(parsed.stepId);
  }
  return steps;
}

/** `${flowId}#${trigger}:${stepId}:${visit}` → its parts. */
export function parseRunKey(key: string): { flowId: string; stepId: string; visit: string } | undefined {
  const hash = key.indexOf("#");
  if (hash <= 0) return undefined;
  const rest = key.slice(hash + 1).split(":");
  if (rest.length < 3) return undefined;
  return { flowId: key.slice(0, hash), stepId: rest[rest.length - 2], visit: rest[rest.length - 1] };
}

function statePathNodes(graph: AgentGraph, path: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of path) {
    // "a.b" enters a and a.b: mark both.
    const parts = value.split(".");
    for (let i = 1; i <= parts.length; i++) {
      const node = nodeForState(graph, parts.slice(0, i).join("."));
      if (node && out.at(-1) !== node) out.push(node);
    }
  }
  return out;
}

function nodeForState(graph: AgentGraph, statePath: string): string | undefined {
  const exact = graph.nodes.find((n) => n.path === statePath);
  if (exact) return exact.id;
  const suffix = graph.nodes.find((n) => n.path.endsWith(`.${statePath}`));
  if (suffix) return suffix.id;
  return graph.nodes.find((n) => n.label === statePath)?.id;
}
