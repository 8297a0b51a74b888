// Draws a ResultView with DOM calls only. Every string that came from the user's code or a model goes
// through createTextNode / textContent, never through HTML parsing. The DOM is reached through the small
// `Doc` interface below so this module is unit-tested in Node with a fake document.
import { describeEvent, describeRequestName } from "../src/panel/event-names";
import type { CompareView, DiagramPanelView, DiagramView, ErrorView, RecentEntry, ResultView } from "@agent-lens/protocol";
import { erroredText, statusText, verdictText } from "../src/panel/verdict";
import type { SourceLocation } from "@agent-lens/protocol";
import { estimateText, type Measure } from "./diagram-layout";
import { drawDiagram } from "./diagram-view";
import { drawExplore, isExplore } from "./explore-view";
import { drawCompare } from "./compare-view";
import { driftDetail, modelCallsSection } from "./model-calls-view";
import { element, type Child, type Doc, type El } from "./dom";
import { clockTime, compact, dueText, formatMs, isEmpty, messageText, otherTitle, outcomeDetail, pretty, summarizeRuntime, basename } from "./text";

export type { Doc, El } from "./dom";

export interface Host {
  /** Open a file at a location. `oneBased` for harness locations, false for analysis ranges. */
  reveal(file: string, line: number, column: number, oneBased: boolean): void;
  rerun(): void;
  /** Show another entry of the panel's recent list. */
  select?(runId: number): void;
  /** Start an eval file for a flow. */
  newEval?(flowId: string, file: string): void;
  /** Compare the run on show with an earlier run of the same thing. */
  compare?(against: "previous" | "passing"): void;
}

export class Renderer {
  /** `measure` gives text widths for diagram layout (the webview measures with its real fonts). */
  constructor(private readonly doc: Doc, private readonly host: Host, private readonly measure: Measure = estimateText) {}

  h(tag: string, attrs: Record<string, string | undefined> | null, ...children: Child[]): El {
    return element(this.doc, tag, attrs, children);
  }

  empty(message: string): El {
    return this.h("p", { class: "empty" }, message);
  }

  view(view: ResultView, recent: readonly RecentEntry[] = []): El {
    return this.h("div", { class: "result", "data-run": String(view.runId), "data-status": view.status, "data-file-status": view.fileStatus },
      this.header(view, recent),
      view.note ? this.h("p", { class: "note" }, view.note) : null,
      view.errors.length ? this.section("Errors", "errors", ...view.errors.map((e) => this.error(e))) : null,
      ...view.seams.map((seam, i) => this.section(view.seams.length > 1 ? `Seam run ${i + 1} · ${seam.request}` : `Seam run · ${seam.request}`, "seam", this.seam(seam))),
      view.turns.length ? this.section("Turns", "turns", this.timeline(view.turns)) : null,
      modelCallsSection(this, view),
      ...view.agentRuns.map((run) => this.section(run.kind === "agent" ? "Agent run" : "Simulation", "agent-run", this.agentRun(run))),
      ...view.other.map((o) => this.section(otherTitle(o.kind), `other ${o.kind}`, this.callSite(o.callSite, o.test), o.kind === "explore" && isExplore(o.data) ? drawExplore(this, o.data) : this.json(o.data))),
      view.diagrams.length ? this.section("Diagram", "diagrams", ...view.diagrams.map((d) => this.diagram(d))) : null,
      view.tests.length ? this.section("Tests", "tests", this.tests(view.tests)) : null,
      view.console.length ? this.section("Console", "console", this.h("pre", { class: "console-text" }, ...view.console.map((c) => this.h("span", { class: c.stream }, c.text)))) : null,
      isEmpty(view) ? this.h("p", { class: "empty" }, view.status === "running" ? "Running…" : "The run produced no results.") : null,
    );
  }

  private header(view: ResultView, recent: readonly RecentEntry[]): El {
    return this.h("header", { class: "run-header" },
      this.h("h1", null, view.title),
      ...this.verdict(view),
      view.durationMs !== undefined ? this.h("span", { class: "muted" }, formatMs(view.durationMs)) : null,
      this.location({ file: view.file, line: view.line ?? 1, column: 1 }),
      view.runtime && Object.keys(view.runtime).length ? this.h("span", { class: "muted runtime" }, `runtime: ${summarizeRuntime(view.runtime)}`) : null,
      this.recent(view.runId, recent),
      this.compareButtons(view),
      view.status !== "running" ? this.button("Run again", "rerun", () => this.host.rerun()) : null,
    );
  }

  /** "Compare with previous run" / "Compare with last passing run", when the history keeps one. */
  private compareButtons(view: ResultView): El | null {
    const h = view.history;
    if (!h || !this.host.compare || (!h.previous && !h.passing)) return null;
    return this.h("span", { class: "compare-buttons" },
      h.previous ? this.button("Compare with previous run", "compare-previous", () => this.host.compare?.("previous")) : null,
      h.passing ? this.button("Compare with last passing run", "compare-passing", () => this.host.compare?.("passing")) : null);
  }

  /** Two runs of the same thing side by side (compare-view.ts). */
  compareView(view: CompareView): El {
    return drawCompare(this, view, () => this.host.select?.(view.runId));
  }

  /** The run's verdict (view.verdict, the one every place shows): "passed" for a file; "seam ✓ · file ✗"
   *  when the run is about one call; "seam ✗" for a generated run; and "N results ended in error" beside a
   *  file that passed while results ended in error. */
  private verdict(view: ResultView): El[] {
    const v = view.verdict;
    const out: El[] = [];
    if (v.subject) out.push(this.h("span", { class: `status status-${v.subject.status} verdict-subject`, title: `the ${v.subject.label} ${statusText(v.subject.status)}` }, verdictText(v.subject.label, v.subject.status)));
    if (v.subject && v.file) out.push(this.h("span", { class: "muted verdict-sep" }, "·"));
    if (v.file) out.push(this.h("span", { class: `status status-${v.file} ${v.subject ? "verdict-file" : "verdict-only"}`, title: `the whole file ${statusText(v.file)}` }, v.subject ? verdictText("file", v.file) : statusText(v.file)));
    if (v.erroredResults && v.file === "passed") out.push(this.erroredBadge(v.erroredResults, "The file passed, but these results report status \"error\""));
    return out;
  }

  private erroredBadge(count: number, title: string): El {
    return this.h("span", { class: "badge warn errored", title }, erroredText(count));
  }

  /** A picker of the other results the panel keeps (another lens's run that finished meanwhile, ...). */
  private recent(current: number, recent: readonly RecentEntry[]): El | null {
    const others = recent.filter((r) => r.runId !== current);
    if (!others.length || !this.host.select) return null;
    const select = this.h("select", { class: "recent", title: "Other recent results" },
      this.h("option", { value: "" }, `Recent (${others.length})…`),
      ...others.map((r) => this.h("option", { value: String(r.runId) }, `${r.title} — ${r.status === "diagram" ? "diagram" : r.verdict ?? statusText(r.status)}${r.at !== undefined ? ` · ${clockTime(r.at)}` : ""}`)));
    select.addEventListener("change", () => {
      const value = Number((select as unknown as { value?: string }).value);
      if (Number.isFinite(value) && value > 0) this.host.select?.(value);
    });
    return select;
  }

  /** "Show diagram": a machine or flow drawn on its own, nothing ran. */
  diagramView(view: DiagramPanelView, recent: readonly RecentEntry[] = []): El {
    return this.h("div", { class: "result diagram-only", "data-run": String(view.runId), "data-status": "diagram" },
      this.h("header", { class: "run-header" },
        this.h("h1", null, view.title),
        this.location({ file: view.file, line: view.line ?? 1, column: 1 }),
        this.recent(view.runId, recent)),
      view.note ? this.h("p", { class: "note no-eval" }, view.note) : null,
      view.newEval && this.host.newEval ? this.button(`New eval file for ${view.newEval.flowId}`, "new-eval", () => this.host.newEval?.(view.newEval!.flowId, view.newEval!.file)) : null,
      view.diagrams.length
        ? this.section("Diagram", "diagrams", ...view.diagrams.map((d) => this.diagram(d)))
        : this.h("p", { class: "empty" }, "Nothing to draw: the analysis found no states or steps here."));
  }

  /** A request name as users think of it ("unnamed request of titling"); the invoke id on hover. */
  private requestName(name: string): El | string {
    const n = describeRequestName(name);
    return n.text === name ? name : this.h("span", { class: "request-name", title: n.raw }, n.text);
  }

  /** A transition event as users think of it ("done: drafting"); the raw XState id on hover. */
  private event(type: string, data?: unknown, withData = false): El {
    const name = describeEvent(type, data);
    // The actor's id and session are XState's bookkeeping: the event's name already says whose it is (and
    // the raw id is on hover).
    const shown = data && typeof data === "object" && !Array.isArray(data) ? Object.fromEntries(Object.entries(data).filter(([k]) => k !== "actorId" && k !== "sessionId")) : data;
    const empty = shown && typeof shown === "object" && !Object.keys(shown).length;
    return this.h("li", null,
      this.h("code", { class: "event", title: name.raw }, name.text),
      withData && shown !== undefined && !empty ? this.h("span", { class: "muted" }, " ", compact(shown)) : null);
  }

  private section(title: string, cls: string, ...body: Child[]): El {
    return this.h("section", { class: cls }, this.h("h2", null, title), ...body);
  }

  button(label: string, cls: string, onClick: () => void): El {
    const b = this.h("button", { class: cls, type: "button" }, label);
    b.addEventListener("click", (e) => { e.preventDefault(); onClick(); });
    return b;
  }

  location(loc: SourceLocation | undefined, oneBased = true): El | null {
    if (!loc) return null;
    const label = `${basename(loc.file)}:${loc.line + (oneBased ? 0 : 1)}`;
    const link = this.h("a", { class: "loc", href: "#", title: loc.file }, label);
    link.addEventListener("click", (e) => { e.preventDefault(); this.host.reveal(loc.file, loc.line, loc.column, oneBased); });
    return link;
  }

  private callSite(loc: SourceLocation | undefined, test?: string): El | null {
    // A plain script's one test is named after its file: not worth repeating.
    const named = test && !/\.[cm]?[jt]sx?$/.test(test) ? test : undefined;
    if (!loc && !named) return null;
    return this.h("p", { class: "callsite muted" }, named ? `in “${named}” ` : "", loc ? "at " : "", this.location(loc));
  }

  error(error: ErrorView): El {
    return this.h("div", { class: "error-card" },
      this.h("div", { class: "error-head" },
        error.code ? this.h("code", { class: "code" }, error.code) : null,
        this.h("span", { class: "message", title: error.raw }, error.message),
      ),
      this.callSite(error.location, error.test),
      error.missingKey !== undefined
        ? this.h("p", { class: "fix" }, "The script queue ran dry: add an entry under the scripts key ", this.h("code", { class: "key" }, error.missingKey), " (or pass repeatLast: true).")
        : null,
      ...(error.drift ? driftDetail(this, error.drift) : []),
      error.expected !== undefined || error.actual !== undefined
        ? this.h("div", { class: "diff" },
          this.h("div", null, this.h("h3", null, "Expected"), this.h("pre", { class: "expected" }, error.expected ?? "")),
          this.h("div", null, this.h("h3", null, "Actual"), this.h("pre", { class: "actual" }, error.actual ?? "")))
        : null,
    );
  }

  seam(seam: ResultView["seams"][number]): El {
    return this.h("div", { class: "seam-run" },
      this.callSite(seam.callSite, seam.test),
      this.h("div", { class: "kv" },
        this.h("h3", null, "Seam output"), this.json(seam.seamOutput, "seam-output"),
        seam.seamUsage !== undefined ? this.h("h3", null, "Usage") : null,
        seam.seamUsage !== undefined ? this.json(seam.seamUsage, "usage") : null,
      ),
      this.h("h3", null, "Calls"),
      this.table(["#", "name", "model", "key", "source"], seam.calls.map((c, i) => [String(i + 1), this.requestName(c.name), c.model ?? "", this.requestName(c.key), this.h("span", { class: `source source-${c.source}` }, c.source)]), "calls"),
      this.h("h3", null, "State path"),
      this.statePath(seam.before.statePath, seam.after.statePath, seam.request),
      seam.before.events.length + seam.after.events.length ? this.h("h3", null, "Transition events") : null,
      seam.before.events.length + seam.after.events.length ? this.h("ol", { class: "events" }, ...[...seam.before.events, ...seam.after.events].map((e) => this.event(e.type, e.data, true))) : null,
      this.h("h3", null, "Final"),
      this.h("p", null, this.h("span", { class: `status status-${seam.status}` }, seam.status)),
      seam.output !== undefined ? this.json(seam.output, "final-output") : null,
    );
  }

  private statePath(before: string[], after: string[], request: string): El {
    const chips: El[] = before.map((s) => this.h("span", { class: "chip" }, s));
    chips.push(this.h("span", { class: "seam-split", title: `seam: ${request}` }, `⟂ seam: ${request}`));
    chips.push(...after.map((s) => this.h("span", { class: "chip after" }, s)));
    return this.h("div", { class: "path" }, ...chips);
  }

  timeline(turns: ResultView["turns"]): El {
    return this.h("ol", { class: "timeline" }, ...turns.map((t, i) => this.turn(t, i + 1)));
  }

  private turn(turn: ResultView["turns"][number], n: number): El {
    const input = (turn.input ?? {}) as Record<string, unknown>;
    const inputText = typeof input.message === "string"
      ? this.h("span", null, "message ", this.h("q", { class: "user-text" }, input.message), typeof input.id === "string" ? this.h("span", { class: "muted" }, ` (id ${input.id})`) : null)
      : typeof input.wake === "string"
        ? this.h("span", null, "wake ", this.h("code", null, input.wake))
        : typeof input.event === "string"
          ? this.h("span", null, "event ", this.h("code", null, input.event), typeof input.key === "string" ? this.h("span", { class: "muted" }, ` (key ${input.key})`) : null)
          : input.start && typeof input.start === "object"
            ? this.h("span", null, "start ", this.h("code", null, String((input.start as Record<string, unknown>).flow ?? "")))
            : this.h("span", null, compact(turn.input));
    const started = turn.started as Array<Record<string, unknown>>;
    const ended = (turn.ended ?? []) as Array<Record<string, unknown>>;
    const skipped = (turn.skipped ?? []) as Array<Record<string, unknown>>;
    return this.h("li", { class: "turn" },
      this.h("div", { class: "turn-head" },
        this.h("strong", null, `Turn ${n}`), " · ", inputText,
        this.h("span", { class: "badge" }, `llmCalls ${turn.llmCalls}`),
        turn.changed ? null : this.h("span", { class: "badge warn" }, "unchanged"),
        this.h("span", { class: "muted clock" }, `clock ${turn.now}`),
      ),
      this.callSite(turn.callSite, turn.test),
      turn.messages.length ? this.h("h3", null, "Messages") : null,
      turn.messages.length ? this.h("ul", { class: "messages" }, ...(turn.messages as Array<Record<string, unknown>>).map((m) =>
        this.h("li", null, this.h("code", { class: "key" }, String(m?.key ?? "")), " ",
          m?.kind === "verbatim" ? this.h("span", { class: "badge" }, "verbatim") : null,
          typeof m?.afterMs === "number" && m.afterMs > 0 ? this.h("span", { class: "muted" }, ` after ${m.afterMs} ms `) : null,
          this.h("span", { class: "user-text" }, messageText(m))))) : null,
      turn.outcomes.length ? this.h("h3", null, "Outcomes") : null,
      turn.outcomes.length ? this.table(["step", "kind", "status", "code", "detail"], (turn.outcomes as Array<Record<string, unknown>>).map((o) => [
        String(o?.stepId ?? ""), String(o?.kind ?? ""), this.h("span", { class: `status status-${String(o?.status ?? "")}` }, String(o?.status ?? "")),
        o?.code !== undefined ? this.h("code", null, String(o.code)) : "", outcomeDetail(o)]), "outcomes") : null,
      turn.schedule.length ? this.h("h3", null, "Schedule") : null,
      turn.schedule.length ? this.table(["key", "due"], (turn.schedule as Array<Record<string, unknown>>).map((s) => [this.h("code", null, String(s?.key ?? "")), dueText(s)]), "schedule") : null,
      started.length ? this.h("p", { class: "started" }, "Flows started: ", ...started.map((s) => this.h("span", { class: "chip" }, String(s?.flowId ?? s?.runId ?? compact(s))))) : null,
      ended.length ? this.h("p", { class: "ended" }, "Runs ended: ", ...ended.map((e) => this.h("span", { class: "chip" }, `${String(e?.flowId ?? e?.id ?? "")} (${String(e?.reason ?? "")})`))) : null,
      skipped.length ? this.h("p", { class: "skipped" }, "Not started: ", ...skipped.map((k) => this.h("span", { class: "chip" }, `${String(k?.flowId ?? "")} (${String(k?.code ?? "")})`))) : null,
      this.h("details", { class: "session" }, this.h("summary", null, `Session data after the turn${turn.session?.version !== undefined ? ` (version ${turn.session.version})` : ""}`), this.json(turn.session?.data), turn.session?.runs?.length ? this.json(turn.session.runs) : null),
    );
  }

  private agentRun(run: ResultView["agentRuns"][number]): El {
    return this.h("div", null,
      this.callSite(run.callSite, run.test),
      this.h("p", null, this.h("span", { class: `status status-${run.status}` }, run.status)),
      run.output !== undefined ? this.json(run.output) : null,
      run.error ? this.error({ message: run.error.message, code: run.error.code, raw: run.error.raw }) : null,
      run.path.length ? this.h("div", { class: "path" }, ...run.path.map((s) => this.h("span", { class: "chip" }, s))) : null,
      run.events.length ? this.h("ol", { class: "events" }, ...run.events.map((e) => this.event(e.type, e.data))) : null,
    );
  }

  private tests(tests: ResultView["tests"]): El {
    return this.h("ul", { class: "tests" }, ...tests.map((t) =>
      this.h("li", { class: `test test-${t.status}` }, this.h("span", { class: `status status-${t.status}` }, t.status),
        t.erroredResults ? this.erroredBadge(t.erroredResults, `The test ${t.status}, but ${t.erroredResults === 1 ? "one of its results reports" : "some of its results report"} status "error"`) : null,
        " ", t.name, " ", this.h("span", { class: "muted" }, formatMs(t.durationMs)), " ", this.location(t.location))));
  }

  table(head: string[], rows: Array<Array<string | El>>, cls: string): El {
    return this.h("table", { class: cls },
      this.h("thead", null, this.h("tr", null, ...head.map((c) => this.h("th", null, c)))),
      this.h("tbody", null, ...rows.map((r) => this.h("tr", null, ...r.map((c) => this.h("td", null, c))))));
  }

  json(value: unknown, cls = ""): El {
    return this.h("pre", { class: `json ${cls}`.trim() }, pretty(value));
  }

  diagram(d: DiagramView): El {
    return drawDiagram(this.doc, this.host, this.measure, d);
  }
}

