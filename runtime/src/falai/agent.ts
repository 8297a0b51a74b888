// The agent: options checked once when built, then `turn()` / `turnStream()` per input, each result announced to
// the harness when one listens.
import type { AgentOptions, FieldDefs, Flow, ScheduleEntry, Session, TurnClaims, TurnInput, TurnResult, TurnStreamChunk } from "./types";
import { systemClock } from "./clock";
import { validateAgentOptions } from "./validate/agent";
import { validateTurnInput } from "./turn-input";
import { runTurn } from "./turn/run-turn";
import { pendingWakes } from "./turn/pending-wakes";
import { visitedOf } from "./turn/visited";
import type { Engine, LooseInput } from "./turn/state";
import { captureCallSite, report, REPORTER_KEY, type TurnReportPayload } from "../shared/report";

export class Agent<C = unknown, D = unknown> {
  readonly options: AgentOptions<C, D>;
  readonly #engine: Engine;

  constructor(options: AgentOptions<C, D>) {
    const warnings = validateAgentOptions(options);
    for (const w of warnings) console.warn(`[Agent] ${w}`);
    this.options = options;
    const flows = (options.flows ?? []) as Flow<any, any>[];
    this.#engine = {
      name: options.name,
      ...(options.goal !== undefined ? { goal: options.goal } : {}),
      ...(options.persona !== undefined ? { persona: options.persona } : {}),
      ...(options.knowledgeBase !== undefined ? { knowledgeBase: options.knowledgeBase } : {}),
      provider: options.provider,
      fields: (options.fields ?? {}) as FieldDefs,
      flows,
      flowById: new Map(flows.map((f) => [f.id, f])),
      actions: options.actions ?? {},
      events: options.events ?? {},
      conditions: options.conditions ?? {},
      tools: options.tools ?? [],
      instructions: options.instructions ?? [],
      idle: options.idle ?? { prompt: "" },
      clock: options.clock ?? systemClock,
      ...(options.businessHours ? { businessHours: options.businessHours } : {}),
      maxToolLoops: options.maxToolLoops ?? 5,
    };
  }

  /** Runs one turn. A failed speak call never rejects (the step waits or ends); a failed understand call does. */
  turn(input: TurnInput<C, D>): Promise<TurnResult<D>> {
    const callSite = captureCallSite();
    try {
      validateTurnInput(input, this.#engine.events);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#run(input, callSite);
  }

  /** The same turn, yielding `{ delta }` as the model phrases the reply, then `{ done: true, result }`. */
  turnStream(input: TurnInput<C, D>): AsyncGenerator<TurnStreamChunk<D>, void, undefined> {
    const callSite = captureCallSite();
    validateTurnInput(input, this.#engine.events);
    return this.#stream(input, callSite);
  }

  /** The wakes a saved session waits on (parked runs, and silence flows from lastAssistantAt). Changes nothing. */
  pendingWakes(args: { session: Session<D>; context?: C; anchors?: Record<string, { key: string; lastInboundAt?: string }>; claims?: TurnClaims }): ScheduleEntry[] {
    return pendingWakes(this.#engine, args as never);
  }

  async *#stream(input: TurnInput<C, D>, callSite: Error): AsyncGenerator<TurnStreamChunk<D>, void, undefined> {
    const queue: string[] = [];
    let wakeUp: (() => void) | undefined;
    let settled: { result: TurnResult<D> } | { error: unknown } | undefined;
    const poke = () => {
      const w = wakeUp;
      wakeUp = undefined;
      w?.();
    };
    this.#run(input, callSite, (delta) => {
      queue.push(delta);
      poke();
    }).then((result) => { settled = { result }; poke(); }, (error: unknown) => { settled = { error }; poke(); });
    for (;;) {
      if (queue.length) {
        yield { delta: queue.shift()! };
        continue;
      }
      if (settled) {
        if ("error" in settled) throw settled.error;
        yield { done: true, result: settled.result };
        return;
      }
      await new Promise<void>((resolve) => (wakeUp = resolve));
    }
  }

  async #run(input: TurnInput<C, D>, callSite: Error, onDelta?: (delta: string) => void): Promise<TurnResult<D>> {
    const result = (await runTurn(this.#engine, input as TurnInput<any, any>, onDelta, callSite)) as unknown as TurnResult<D>;
    if (this.options.debug) for (const o of result.outcomes) console.debug(`[Agent] ${o.runId ?? "-"} ${o.stepId ?? "-"} ${o.kind}/${o.status}${o.code ? ` ${o.code}` : ""}${o.detail ? ` ${o.detail}` : ""}`);
    // Build the payload only when a harness listens (outside it, report() is a no-op).
    if (typeof (globalThis as Record<symbol, unknown>)[REPORTER_KEY] === "function") report("turn", this.#payload(input, result), callSite);
    return result;
  }

  #payload(input: TurnInput<C, D>, r: TurnResult<D>): TurnReportPayload {
    const i = input as LooseInput;
    const kind = i.message !== undefined ? "message" : i.wake !== undefined ? "wake" : i.event !== undefined ? "event" : "start";
    return JSON.parse(JSON.stringify({
      flowIds: this.#engine.flows.map((f) => f.id),
      input: {
        kind, sessionId: i.sessionId, message: i.message, id: i.id, wake: i.wake, event: i.event, key: i.key, start: i.start,
        silenced: i.silenced, historyLength: i.history?.length ?? 0, sessionVersion: i.session?.version,
      },
      llmCalls: r.llmCalls, changed: r.changed, messages: r.messages, outcomes: r.outcomes, schedule: r.schedule,
      started: r.started, ended: r.ended.map((e) => ({ id: e.id, flowId: e.flowId, stepId: e.stepId, reason: e.reason })), skipped: r.skipped,
      session: { id: r.session.id, version: r.session.version, data: r.session.data, runs: r.session.runs },
      now: this.#engine.clock().toISOString(),
      visited: visitedOf(r)?.report(r.started),
    })) as TurnReportPayload;
  }
}
