// The state of one turn: the session copy it works on, what it has produced so far, and the small moves every
// phase shares (lines, entering a step, ending a run). The phases live in their own files.
import type {
  ActionMap, AiProvider, BusinessHours, Clock, ConditionMap, EndReason, EventMap, FieldDefs, Flow, Idle, Instruction,
  OutboundMessage, PredCtx, Run, ScheduleEntry, Session, SkippedTrigger, StartedRun, Step, StepOutcome, StepOutcomeCode,
  StepOutcomeKind, StepOutcomeStatus, TokenUsage, Tool, TurnClaims, TurnInput,
} from "../types";
import { OUTCOME_MESSAGES } from "../outcome-messages";
import { RUN_OUTCOMES_CAP } from "../session";
import { stepKeyOf } from "../keys";
import { stepKind, type StepKind } from "../steps";
import { evaluatePred } from "../predicate";
import type { TemplateScope } from "../template";
import type { Understanding } from "./understanding";
import { REPORTER_KEY } from "../../shared/report";
import { FlowVisited } from "./visited";

/** The agent's configuration, resolved once when it is built. */
export interface Engine {
  name: string;
  goal?: string;
  persona?: string;
  knowledgeBase?: Record<string, unknown>;
  provider: AiProvider;
  fields: FieldDefs;
  flows: Flow<any, any>[];
  flowById: Map<string, Flow<any, any>>;
  actions: ActionMap<any, any>;
  events: EventMap;
  conditions: ConditionMap<any, any>;
  tools: Tool<any, any>[];
  instructions: Instruction<any, any>[];
  idle: Idle<any, any>;
  clock: Clock;
  businessHours?: BusinessHours<any>;
  maxToolLoops: number;
}

export type InputKind = "message" | "wake" | "event" | "start";

/** A validated turn input, every kind's fields readable (TurnInput keeps the kinds apart for callers). */
export interface LooseInput {
  sessionId: string;
  session?: Session<any> | undefined;
  context?: unknown;
  history?: TurnInput["history"];
  silenced?: TurnInput["silenced"];
  anchors?: TurnInput["anchors"];
  claims?: TurnClaims | undefined;
  message?: string;
  id?: string;
  at?: string;
  wake?: string;
  event?: string;
  payload?: unknown;
  key?: string;
  hop?: number;
  start?: { flow: string; input?: unknown; key: string; hop?: number | undefined };
}
export type Data = Record<string, unknown>;
export type DeltaSink = (delta: string) => void;

/** A run's talk step that will speak in this turn (one speaker per turn). */
export interface Speaker {
  run: Run;
  /** `answer-then-question`: a fixed question waits for an answer to what the customer asked. */
  mode: "talk" | "answer-then-question";
}

export class TurnState {
  readonly now: Date;
  readonly at: string;
  readonly nowMs: number;
  readonly kind: InputKind;
  readonly session: Session<Data>;
  /** The session as it came in, as JSON (for `changed`). */
  readonly before: string;
  readonly context: unknown;
  readonly silenced: string | undefined;
  readonly understandWhileSilenced: boolean;
  readonly claims: TurnClaims;
  /** The trigger key of a message turn: its id, else its `at`, else now. */
  readonly messageKey: string;

  readonly messages: OutboundMessage[] = [];
  readonly schedule: ScheduleEntry[] = [];
  readonly outcomes: StepOutcome[] = [];
  readonly started: StartedRun[] = [];
  readonly ended: Array<Run & { reason: EndReason }> = [];
  readonly skipped: SkippedTrigger[] = [];
  llmCalls = 0;
  usage: TokenUsage | undefined;
  /** Where the user's code called turn() / turnStream() (given to the harness with each model call). */
  callSite: Error | undefined;

  /** The speak call happened this turn (later talk steps wait for the next message). */
  aiSpoke = false;
  /** Something went out (a message, or an action that spoke): stamps lastAssistantAt. */
  wentOut = false;
  /** Runs that answered this message (a say, a spoke action, a talk step, a fixed question). */
  readonly answered = new Set<string>();
  /** A short wait's delay, riding on the run's next message. */
  readonly afterMs = new Map<string, number>();
  /** Runs whose current step was entered this turn and has not acted yet. */
  readonly fresh = new Set<string>();
  /** The run that took or resumed the floor in Ingest (routing is skipped). */
  floorFromIngest: Run | undefined;
  /** The asking run the customer's message is read as the answer to (resumed once in the Run phase). */
  floor: Run | undefined;
  speaker: Speaker | undefined;
  /** Runs that reached the end of an `onEnd: 'stay'` flow on a message nothing answered: they answer it. */
  readonly pendingStay = new Set<string>();
  understanding: Understanding = {};
  /** Steps, exits and fields of this turn, for agent coverage: recorded only when a harness reporter listens. */
  readonly visited = typeof (globalThis as Record<symbol, unknown>)[REPORTER_KEY] === "function" ? new FlowVisited() : undefined;

  constructor(readonly engine: Engine, readonly input: LooseInput, session: Session<Data>, now: Date, readonly onDelta?: DeltaSink) {
    this.now = now;
    this.nowMs = now.getTime();
    this.at = now.toISOString();
    this.session = session;
    this.before = JSON.stringify(session);
    this.kind = input.message !== undefined ? "message" : input.wake !== undefined ? "wake" : input.event !== undefined ? "event" : "start";
    this.context = (input as { context?: unknown }).context;
    const silenced = input.silenced;
    this.silenced = silenced === undefined ? undefined : typeof silenced === "string" ? silenced : silenced.reason;
    this.understandWhileSilenced = typeof silenced === "object" && silenced.understand === true;
    this.claims = { held: input.claims?.held ?? {}, active: input.claims?.active ?? [] };
    this.messageKey = input.message !== undefined ? (input.id ?? input.at ?? this.at) : "";
  }

  // ------------------------------------------------------------------------------------------------
  // Reading flows and runs

  flowOf(run: Run): Flow<any, any> | undefined {
    return this.engine.flowById.get(run.flowId);
  }

  stepOf(run: Run): Step<any, any> | undefined {
    return run.stepId === null ? undefined : this.flowOf(run)?.steps.find((s) => s.id === run.stepId);
  }

  keyOf(run: Run): string {
    return stepKeyOf(run.id, run.stepId!, run.visits[run.stepId!] ?? 1);
  }

  isLive(run: Run): boolean {
    return this.session.runs.includes(run);
  }

  /** Still in the session and moving (a step's move may have parked, ended or handed it on). */
  moving(run: Run): boolean {
    return this.isLive(run) && (run.status as string) === "running";
  }

  asking(): Run | undefined {
    return this.session.runs.find((r) => r.status === "asking");
  }

  scope(run: Run | undefined): TemplateScope {
    return { data: this.session.data, context: this.context, input: run?.input };
  }

  predCtx(run: Run | undefined, input: unknown = run?.input): PredCtx<any, any, any> {
    return {
      context: this.context, data: this.session.data, input,
      ...(run ? { run } : {}), ...(this.silenced !== undefined ? { silenced: this.silenced } : {}), now: this.now,
    };
  }

  /** Judges a predicate with this turn's context; `input` defaults to the run's input. */
  holds(pred: Parameters<typeof evaluatePred>[0], run: Run | undefined, input: unknown = run?.input): boolean {
    return evaluatePred(pred, this.predCtx(run, input), this.engine.conditions);
  }

  // ------------------------------------------------------------------------------------------------
  // Writing lines

  /** A line about a run's step (or the run itself before its first step), kept on the run too. */
  line(run: Run, kind: StepOutcomeKind, status: StepOutcomeStatus, extra: LineExtra & { key?: false } = {}): StepOutcome {
    const key = run.stepId !== null && extra.key !== false ? this.keyOf(run) : undefined;
    const line = build({ runId: run.id, flowId: run.flowId, stepId: run.stepId ?? undefined, key }, kind, status, extra, this.at);
    run.outcomes.push(line);
    if (run.outcomes.length > RUN_OUTCOMES_CAP) run.outcomes.splice(0, run.outcomes.length - RUN_OUTCOMES_CAP);
    this.outcomes.push(line);
    return line;
  }

  /** A line that belongs to no run (an ignored input, a dropped value, the idle speaker). */
  looseLine(kind: StepOutcomeKind, status: StepOutcomeStatus, extra: LineExtra & { key?: string } = {}): StepOutcome {
    const line = build({ key: extra.key }, kind, status, extra, this.at);
    this.outcomes.push(line);
    return line;
  }

  skip(flowId: string, anchor: string, triggerKey: string, code: StepOutcomeCode): void {
    this.skipped.push({ flowId, anchor, triggerKey, code, message: OUTCOME_MESSAGES[code] });
  }

  // ------------------------------------------------------------------------------------------------
  // Moving runs

  /** Enters a step: one more visit, a fresh start on it. */
  enter(run: Run, stepId: string): void {
    run.stepId = stepId;
    run.visits[stepId] = (run.visits[stepId] ?? 0) + 1;
    this.visited?.step(run.flowId, stepId);
    run.status = "running";
    delete run.waiting;
    delete run.suspendedAt;
    delete run.staying;
    this.fresh.add(run.id);
  }

  /** Removes the run from the session and reports it ended. */
  end(run: Run, reason: EndReason): void {
    const i = this.session.runs.indexOf(run);
    if (i >= 0) this.session.runs.splice(i, 1);
    this.fresh.delete(run.id);
    if (this.speaker?.run === run) this.speaker = undefined;
    this.ended.push({ ...run, reason });
  }

  /** Ends a run early with one line (kind: its step's kind, or `if` before its first step). */
  endEarly(run: Run, status: "skipped" | "failed", code: StepOutcomeCode, detail?: string): void {
    const step = this.stepOf(run);
    this.line(run, step ? outcomeKind(stepKind(step)) : "if", status, { code, ...(detail !== undefined ? { detail } : {}), key: false });
    this.end(run, status === "failed" ? "failed" : "skipped");
  }

  /** Every asking run but `keep` steps aside for the run that takes the floor. */
  suspendOthers(keep: Run): void {
    for (const r of this.session.runs) {
      if (r !== keep && r.status === "asking") {
        r.status = "suspended";
        r.suspendedAt = this.at;
        if (this.speaker?.run === r) this.speaker = undefined;
      }
    }
  }

  /** When nobody is asking, the most recently suspended run asks again. */
  resumeSuspended(): Run | undefined {
    if (this.asking()) return undefined;
    let latest: Run | undefined;
    for (const r of this.session.runs) if (r.status === "suspended" && (!latest || (r.suspendedAt ?? "") >= (latest.suspendedAt ?? ""))) latest = r;
    if (!latest) return undefined;
    latest.status = "asking";
    delete latest.suspendedAt;
    return latest;
  }

  takeAfterMs(run: Run | undefined): number {
    if (!run) return 0;
    const ms = this.afterMs.get(run.id) ?? 0;
    this.afterMs.delete(run.id);
    return ms;
  }

  /** Something went out for this run (or the idle speaker). */
  spoke(run: Run | undefined): void {
    this.wentOut = true;
    if (run) this.answered.add(run.id);
    else this.answered.add("");
    this.session.lastAssistantAt = this.at;
  }
}

export interface LineExtra {
  code?: StepOutcomeCode;
  detail?: string;
  next?: string;
  until?: string;
  llmCalls?: number;
}

/** One line, its keys in a fixed order and never an undefined value (lines are compared whole). */
function build(who: { runId?: string; flowId?: string; stepId?: string | undefined; key?: string | undefined }, kind: StepOutcomeKind, status: StepOutcomeStatus, extra: LineExtra, at: string): StepOutcome {
  const o: Record<string, unknown> = {};
  for (const k of ["runId", "flowId", "stepId", "key"] as const) if (who[k] !== undefined) o[k] = who[k];
  o.kind = kind;
  o.status = status;
  if (extra.code !== undefined) {
    o.code = extra.code;
    o.message = OUTCOME_MESSAGES[extra.code];
  }
  for (const k of ["detail", "next", "until"] as const) if (extra[k] !== undefined) o[k] = extra[k];
  o.at = at;
  if (extra.llmCalls !== undefined) o.llmCalls = extra.llmCalls;
  return o as unknown as StepOutcome;
}

export function outcomeKind(kind: StepKind): StepOutcomeKind {
  return kind === "waitEvent" ? "wait" : kind;
}
