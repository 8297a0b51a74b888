// One conversation's state as JSON (every date is ISO text), and the lines a turn writes about runs.
import type { History } from "./provider";

export type RunStatus = "running" | "asking" | "waiting" | "suspended";
export type TriggerKind = "message" | "mention" | "silence" | "event" | "start" | "flow";

export interface RunWaiting {
  kind: "timer" | "event";
  key?: string;
  until?: string;
  setAt: string;
  event?: string;
}

export interface Run {
  /** `${flowId}#${triggerKey}` */
  id: string;
  flowId: string;
  /** The session id, or the host anchor's key. */
  anchor: string;
  /** `${flowId}:${anchor}:${nonce}`: the claim key. */
  dedupeKey: string;
  /** `null` before the first step (a run parked on its trigger's `after`). */
  stepId: string | null;
  status: RunStatus;
  trigger: { kind: TriggerKind; key: string; payload?: unknown };
  input?: unknown;
  hop: number;
  startedAt: string;
  suspendedAt?: string;
  staying?: true;
  waiting?: RunWaiting;
  /** Per field: how many times a talk step spoke with it still pending. */
  asked: Record<string, number>;
  /** Per step: how many times the run entered it. */
  visits: Record<string, number>;
  /** This run's lines, the last 50. */
  outcomes: StepOutcome[];
}

export interface Session<D = unknown> {
  id: string;
  v: 4;
  /** The store's version; a turn never changes it (the store bumps it on save). */
  version: number;
  data: Partial<D>;
  /** Live runs only. */
  runs: Run[];
  claims: Record<string, { at: string }>;
  /** The last 50 message ids. */
  inputs: string[];
  lastUserAt?: string;
  lastAssistantAt?: string;
  history?: History;
  metadata: Record<string, unknown>;
}

export type StepOutcomeKind = "prompt" | "collect" | "say" | "do" | "wait" | "if" | "idle";
export type StepOutcomeStatus = "ok" | "skipped" | "failed" | "waiting" | "deferred";

export type StepOutcomeCode =
  // the input was ignored
  | "no-session" | "duplicate-input" | "stale-wake" | "silence-broken"
  // a trigger matched but started nothing
  | "already-claimed" | "cooldown" | "hop-limit" | "already-running" | "flow-gone"
  // a run ended early
  | "step-loop" | "step-gone" | "customer-replied" | "premise-changed" | "silenced"
  // a step
  | "already-known" | "asked-fixed" | "another-reply" | "already-sent" | "branch" | "max-asks"
  | "inline-delay" | "awaiting-trigger" | "awaiting-event" | "event-arrived" | "no-event" | "replied" | "no-reply"
  // a host action
  | "action-skipped" | "action-failed" | "action-deferred"
  // a value the model gave
  | "unknown-field" | "bad-value" | "not-in-enum"
  // the model
  | "provider-unavailable" | "provider-quota" | "provider-auth" | "provider-context" | "provider-invalid";

export interface StepOutcome {
  runId?: string;
  flowId?: string;
  stepId?: string;
  key?: string;
  kind: StepOutcomeKind;
  status: StepOutcomeStatus;
  /** Why; absent when the line needs no reason. Stable: switch on it. */
  code?: StepOutcomeCode;
  /** The English sentence for `code` (from `OUTCOME_MESSAGES`). */
  message?: string;
  detail?: string;
  next?: string;
  until?: string;
  at: string;
  llmCalls?: number;
}
