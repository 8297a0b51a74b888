// createScriptedExecutors: executors that play back canned answers instead of calling a model, keyed by
// request name ("*" answers any name without its own queue). Entries for a name are taken in order and
// the last one repeats, so a looping machine needs nothing more. A request the script has no answer for
// throws inside the executor: an ordinary actor error that `onError` can route.
import { markUnrecorded } from "../../shared/model-calls";
import { AgentError } from "../errors";
import type { AgentDecisionRequest, AgentDecisionResult, AgentRequestExecutorResult, AgentTextRequest, AgentUsage, ChosenEvent } from "../types";
import { resolveEntry, type SeamScriptEntry } from "./script-entry";

/** A text answer: the request's output value, an executor result `{ result, usage?, ... }`, or a function of the request returning either. */
export type ScriptedTextEntry = SeamScriptEntry;

/** A decision answer: the chosen event, or `{ event, reason?, usage? }`. */
export type ScriptedDecisionValue = ChosenEvent | { event: ChosenEvent; reason?: string; usage?: AgentUsage };

/** A decision answer, or a function of the decision request returning one. */
export type ScriptedDecisionEntry = ScriptedDecisionValue | ((request: AgentDecisionRequest) => ScriptedDecisionValue | PromiseLike<ScriptedDecisionValue>);

/** Entries by request name (one entry, or a list taken in order whose last entry repeats). */
export type ScriptedByName<TEntry> = Record<string, TEntry | TEntry[]>;

export interface ScriptedExecutorsScript {
  /** Text answers by request name; a plain list answers every text request in call order. */
  text?: ScriptedByName<ScriptedTextEntry> | ScriptedTextEntry[];
  /** Decisions by decision name. */
  decisions?: ScriptedByName<ScriptedDecisionEntry>;
  /** Usage reported for every answer that does not report its own. */
  usage?: AgentUsage;
  /** The chunks `streamText` yields for a request name, per call (else its `text` answer, as one chunk). */
  stream?: Record<string, string[]>;
}

/** A call the scripted executors answered (or refused). */
export interface ScriptedExecutorCall {
  kind: "generateText" | "decide" | "streamText";
  name: string;
  input: unknown;
  request: AgentTextRequest | AgentDecisionRequest;
}

export interface ScriptedExecutors {
  generateText(request: AgentTextRequest): Promise<AgentRequestExecutorResult>;
  decide(request: AgentDecisionRequest): Promise<AgentDecisionResult>;
  /**
   * Upstream's streaming executor, for tests that call it directly: reports each scripted chunk to `onChunk` and
   * resolves `{ result }` with the whole text. This runtime has no streaming requests, so no run calls it.
   */
  streamText(request: AgentTextRequest, options?: { onChunk?: (chunk: string) => void }): Promise<AgentRequestExecutorResult>;
  /** Every call, in order. */
  calls: ScriptedExecutorCall[];
}

/** The queue for every name when `text` is a plain list. */
const ANY = Symbol("any request");

interface Queue<T> {
  entries: T[];
  next: number;
}

function queuesOf<T>(value: ScriptedByName<T> | T[] | undefined, channel: string): Map<string | symbol, Queue<T>> {
  const queues = new Map<string | symbol, Queue<T>>();
  if (value === undefined) return queues;
  if (Array.isArray(value)) {
    if (channel !== "text") throw new AgentError("invalid-options", `createScriptedExecutors: ${channel} is keyed by request name: { <name>: [entries...] }.`);
    queues.set(ANY, { entries: [...value], next: 0 });
    return queues;
  }
  if (typeof value !== "object" || value === null) {
    throw new AgentError("invalid-options", `createScriptedExecutors: ${channel} must be { <request name>: entry or [entries...] }.`);
  }
  for (const [name, entries] of Object.entries(value)) {
    const list = Array.isArray(entries) ? [...entries] : [entries as T];
    if (list.length === 0) throw new AgentError("invalid-options", `createScriptedExecutors: ${channel}.${name} is an empty list; give it at least one entry.`);
    queues.set(name, { entries: list, next: 0 });
  }
  return queues;
}

function take<T>(queues: Map<string | symbol, Queue<T>>, name: string): T | undefined {
  const queue = queues.get(name) ?? queues.get("*") ?? queues.get(ANY);
  if (!queue) return undefined;
  const entry = queue.entries[Math.min(queue.next, queue.entries.length - 1)];
  queue.next++;
  return entry;
}

/** Upstream's wording first (its tests match "No scripted answer for request 'x'. Known: a, b"), then what to do. */
function noAnswer(kind: string, name: string, queues: Map<string | symbol, unknown>): AgentError {
  const known = [...queues.keys()].filter((k): k is string => typeof k === "string");
  return new AgentError(
    "no-scripted-answer",
    `createScriptedExecutors: No scripted answer for request '${name}'. Known: ${known.join(", ") || "(none)"}. Add one under that name (or "*").`,
    { request: name },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Executors that answer from a script; see ScriptedExecutorsScript. Each call builds a fresh playthrough. */
export function createScriptedExecutors(script: ScriptedExecutorsScript = {}): ScriptedExecutors {
  if (!isRecord(script as unknown)) throw new AgentError("invalid-options", "createScriptedExecutors needs a script: { text?, decisions?, usage?, stream? }.");
  if (script.stream !== undefined && !(isRecord(script.stream) && Object.values(script.stream).every((c) => Array.isArray(c) && c.every((x) => typeof x === "string")))) {
    throw new AgentError("invalid-options", "createScriptedExecutors: stream must be { <request name>: [chunk, ...] } with text chunks.");
  }
  const text = queuesOf<ScriptedTextEntry>(script.text, "text");
  const decisions = queuesOf<ScriptedDecisionEntry>(script.decisions, "decisions");
  const calls: ScriptedExecutorCall[] = [];
  const withUsage = <T extends { usage?: AgentUsage }>(result: T): T => (result.usage !== undefined || script.usage === undefined ? result : { ...result, usage: script.usage });

  const executors: ScriptedExecutors = {
    calls,
    async generateText(request) {
      calls.push({ kind: "generateText", name: request.name, input: request.input, request });
      const entry = take(text, request.name);
      if (entry === undefined) throw noAnswer("answer", request.name, text);
      return withUsage(await resolveEntry(entry, request));
    },
    async streamText(request, options = {}) {
      calls.push({ kind: "streamText", name: request.name, input: request.input, request });
      const scriptedChunks = script.stream?.[request.name] ?? script.stream?.["*"];
      let chunks: string[];
      if (scriptedChunks) chunks = [...scriptedChunks];
      else {
        const entry = take(text, request.name);
        if (entry === undefined) throw noAnswer("answer", request.name, text);
        const answer = await resolveEntry(entry, request);
        if (typeof answer.result !== "string") throw new AgentError("invalid-script-entry", `createScriptedExecutors: streamText for '${request.name}' needs a text answer; got ${typeof answer.result}.`, { request: request.name });
        chunks = [answer.result];
      }
      for (const chunk of chunks) options.onChunk?.(chunk);
      return withUsage<AgentRequestExecutorResult>({ result: chunks.join("") });
    },
    async decide(request) {
      calls.push({ kind: "decide", name: request.name, input: request.input, request });
      const entry = take(decisions, request.name);
      if (entry === undefined) throw noAnswer("decision", request.name, decisions);
      const value: unknown = typeof entry === "function" ? await entry(request) : entry;
      // A string `type` makes it the event itself (an event may carry an `event` field of its own).
      const result = isRecord(value) && typeof value.type !== "string" && isRecord(value.event)
        ? (value as { event: ChosenEvent; reason?: string; usage?: AgentUsage })
        : { event: value as ChosenEvent };
      return withUsage(result as AgentDecisionResult);
    },
  };
  // Answers written by hand are not model calls: the harness neither records nor replays them.
  markUnrecorded(executors.generateText);
  markUnrecorded(executors.decide);
  return executors;
}
