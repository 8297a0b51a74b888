// One turn's input and result.
import type { History, TokenUsage } from "./provider";
import type { Run, Session, StepOutcome, StepOutcomeCode } from "./session";

/** The four inputs a turn runs on; exactly one per call. */
export type TurnKind =
  | { message: string; id?: string | undefined; at?: string | undefined }
  | { wake: string }
  | { event: string; payload?: unknown; key: string; hop?: number | undefined }
  | { start: { flow: string; input?: unknown; key: string; hop?: number | undefined } };

/** The host's reason the assistant cannot speak; `{ reason, understand: true }` keeps the understand call on. */
export type Silenced = string | { reason: string; understand?: boolean };

export interface TurnClaims {
  /** Dedupe key → the ISO time it was claimed, from the customer's other sessions. */
  held: Record<string, string>;
  /** Live `${flowId}:${anchor}` pairs in the customer's other sessions. */
  active: string[];
}

interface TurnCommon<D> {
  sessionId: string;
  /** The stored session; absent on a first turn. */
  session?: Session<D> | undefined;
  history?: History | undefined;
  silenced?: Silenced | undefined;
  anchors?: Record<string, { key: string; lastInboundAt?: string | undefined }> | undefined;
  claims?: TurnClaims | undefined;
}

/** `context` is required unless the toolkit was built without one (`falai()`). */
type ContextField<C> = undefined extends C ? { context?: C | undefined } : { context: C };

export type TurnInput<C = unknown, D = unknown> = TurnCommon<D> & ContextField<C> & TurnKind;

export interface OutboundMessage {
  text: string;
  /** `'ai'`: phrased by the model; `'verbatim'`: a `say` step or a fixed question. */
  kind: "ai" | "verbatim";
  media?: { slug: string };
  /** Wait this long before sending (a short `wait` before it). */
  afterMs: number;
  /** `${runId}:${stepId}:${visit}`, or `idle:${triggerKey}` for the idle speaker. */
  key: string;
  runId?: string;
  stepId?: string;
}

export interface ScheduleEntry {
  /** Pass it back as `turn({ wake: key })`. */
  key: string;
  at: Date;
  /** An earlier wake this one supersedes. */
  replaces?: string;
}

export type EndReason = "end" | "flow" | "reset" | "skipped" | "failed" | "replaced";

export interface StartedRun {
  runId: string;
  flowId: string;
  anchor: string;
  dedupeKey: string;
}

export interface SkippedTrigger {
  flowId: string;
  anchor: string;
  triggerKey: string;
  code: StepOutcomeCode;
  message: string;
}

export interface TurnResult<D = unknown> {
  /** The session after the turn; `version` unchanged (the store bumps it on save). */
  session: Session<D>;
  /** False: save nothing, send nothing (the input was ignored, or nothing moved). */
  changed: boolean;
  messages: OutboundMessage[];
  schedule: ScheduleEntry[];
  outcomes: StepOutcome[];
  started: StartedRun[];
  ended: Array<Run & { reason: EndReason }>;
  skipped: SkippedTrigger[];
  llmCalls: number;
  /** Summed token counts; absent when no call reported any. */
  usage?: TokenUsage;
}

export type TurnStreamChunk<D = unknown> = { delta: string; done?: undefined } | { done: true; result: TurnResult<D> };
