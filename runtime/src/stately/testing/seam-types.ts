// runSeam's options and result (run-seam.ts): which call is under test, the scripts and respond turns,
// the call ledger and the run sliced at the seam. Part of `@statelyai/agent/testing`'s public types.
import type { RunAgentResult } from "../run-agent";
import type { AgentRequestExecutor, AgentRequestExecutors, AgentUsage } from "../types";
import type { AnyStateMachine, EventObject, InputFrom, SnapshotFrom, StateValue } from "../xstate";
import type { SeamScriptEntry } from "./script-entry";

/** Which call is under test: the Nth (0-based) call of the request with this name. */
export interface SeamRef {
  request: string;
  occurrence?: number;
}

/** An event `respond` sends (typed loosely: a literal `type` returned from a callback would otherwise widen). */
export interface SeamEvent {
  type: string;
  [key: string]: unknown;
}

/** One idle pause, for `respond`. */
export interface SeamTurn<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The idle snapshot (`value`, `context`, `matches`, `hasTag`, `can`, ...). */
  snapshot: SnapshotFrom<TMachine>;
  /** Its state value (a string on flat machines). */
  state: StateValue;
  /** The `meta` of the active states, merged (`{}` when none declares any). */
  meta: Record<string, unknown>;
  /** 0-based index of the pause. */
  turn: number;
  /** The idle result that produced the pause. */
  result: RunAgentResult<TMachine>;
}

export interface RunSeamOptions<TMachine extends AnyStateMachine = AnyStateMachine> {
  input?: InputFrom<TMachine>;
  /** Scripted answers per key (a request name, else a model key), consumed in order. */
  scripts?: Record<string, SeamScriptEntry[]>;
  seam: SeamRef;
  /** Answers the seam instead of its script entry (which is still consumed). */
  candidate?: AgentRequestExecutor;
  /** Other executors (a `decide` for machines that decide); text requests are always routed by the scripts. */
  executors?: AgentRequestExecutors;
  /** Replay a queue's last entry once it runs dry instead of failing with seam-script-exhausted. */
  repeatLast?: boolean;
  /** Answers each idle pause with an event, or stops the run (null / undefined). */
  respond?: (turn: SeamTurn<TMachine>) => SeamEvent | null | undefined | void;
  /** Idle pauses `respond` may answer (default 12). */
  maxTurns?: number;
  maxModelCalls?: number;
  signal?: AbortSignal;
}

/** One text call of the run, in order. */
export interface SeamCall {
  name: string;
  model: string;
  /** The scripts key that routed the call (request name or model key). */
  key: string;
  source: "script" | "candidate";
  /** True for the seam call itself. */
  seam: boolean;
}

/** One side of the seam: the states entered (one value per transition) and the events that caused them. */
export interface SeamSlice {
  statePath: StateValue[];
  events: EventObject[];
}

export interface RunSeamResult<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The run's final result (after the last `respond` turn); its `events` log covers every leg. */
  result: RunAgentResult<TMachine>;
  /** What the seam returned (`result` of its answer); undefined when the run never reached it. */
  seamOutput: unknown;
  /** The seam answer's `usage`, when it reported one. */
  seamUsage?: AgentUsage;
  /** Text calls made before the seam, or -1 when the run never reached it. */
  callsBeforeSeam: number;
  calls: SeamCall[];
  /** Up to the seam: states entered until its call, events until its own completion. */
  before: SeamSlice;
  /** From the seam on: the branch it caused (empty when the run never reached it). */
  after: SeamSlice;
  /** Scripts keys whose queue no call took an entry from (a branch not taken); not an error. */
  unusedScripts: string[];
}
