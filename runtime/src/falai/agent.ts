// The agent: validates its options once, then runs turns (plain or streamed) and announces each result
// to the harness.
import type { AgentOptions, DataFromFields, FieldsSpec, Flow, TurnInput, TurnResult, TurnStreamEvent } from "./types";
import { DefinitionError, TurnInputError } from "./errors";
import { systemClock } from "./clock";
import { actionsMap, toolsMap } from "./tools";
import { runTurn, type Engine } from "./turn";
import { captureCallSite, report, REPORTER_KEY, type TurnReportPayload } from "../shared/report";

export class Agent<F extends FieldsSpec> {
  readonly name: string;
  readonly fields: F;
  readonly flows: readonly Flow<F>[];
  readonly #engine: Engine;

  constructor(fields: F, options: AgentOptions<F>) {
    if (!options || typeof options !== "object") throw new DefinitionError("bad-option", "f.agent({ name, provider, flows }) needs options.");
    if (typeof options.name !== "string" || !options.name) throw new DefinitionError("bad-option", "f.agent: `name` is required.");
    if (!options.provider || typeof options.provider.generateMessage !== "function") throw new DefinitionError("bad-option", `Agent "${options.name}": \`provider\` needs a generateMessage function.`);
    if (!Array.isArray(options.flows)) throw new DefinitionError("bad-option", `Agent "${options.name}": \`flows\` is a list of f.flow(...) results.`);
    const ids = new Set<string>();
    for (const flow of options.flows) {
      if (!flow || flow.kind !== "flow") throw new DefinitionError("bad-option", `Agent "${options.name}": every entry of \`flows\` must come from f.flow(...).`);
      if (ids.has(flow.id)) throw new DefinitionError("duplicate-flow", `Agent "${options.name}": two flows are named "${flow.id}".`);
      ids.add(flow.id);
    }
    const tools = toolsMap(options.tools);
    const actions = actionsMap(options.actions);
    for (const flow of options.flows) {
      for (const step of flow.steps) {
        for (const t of step.tools ?? []) if (!tools.has(t)) throw new DefinitionError("unknown-tool", `Flow "${flow.id}", step "${step.id}": tool "${t}" is not registered on agent "${options.name}".`);
        const dos = typeof step.do === "string" ? [step.do] : step.do ?? [];
        for (const a of dos) if (!actions.has(a)) throw new DefinitionError("unknown-action", `Flow "${flow.id}", step "${step.id}": action "${a}" is not registered on agent "${options.name}".`);
      }
    }
    this.name = options.name;
    this.fields = fields;
    this.flows = options.flows;
    this.#engine = {
      agentName: options.name,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      fields, flows: options.flows as readonly Flow<FieldsSpec>[], provider: options.provider, clock: options.clock ?? systemClock(),
      tools, actions,
    };
  }

  /** Runs one turn. Provider failures never reject: the step is deferred and a retry is scheduled. */
  turn(input: TurnInput<DataFromFields<F>>): Promise<TurnResult<DataFromFields<F>>> {
    const callSite = captureCallSite();
    try {
      validateTurnInput(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#run(input, callSite);
  }

  /**
   * Runs one turn, yielding one `{ done: false, delta }` per chunk the provider streams for the reply,
   * then `{ done: true, result }` equal to what turn() returns. Invalid input throws here, at the call.
   */
  turnStream(input: TurnInput<DataFromFields<F>>): AsyncGenerator<TurnStreamEvent<DataFromFields<F>>, void, undefined> {
    const callSite = captureCallSite();
    validateTurnInput(input);
    return this.#stream(input, callSite);
  }

  async *#stream(input: TurnInput<DataFromFields<F>>, callSite: Error): AsyncGenerator<TurnStreamEvent<DataFromFields<F>>, void, undefined> {
    const queue: TurnStreamEvent<DataFromFields<F>>[] = [];
    let signal: (() => void) | undefined;
    let settled: { result: TurnResult<DataFromFields<F>> } | { error: unknown } | undefined;
    const poke = () => {
      const s = signal;
      signal = undefined;
      s?.();
    };
    this.#run(input, callSite, (e) => {
      queue.push({ done: false, ...e });
      poke();
    }).then((result) => { settled = { result }; poke(); }, (error: unknown) => { settled = { error }; poke(); });
    for (;;) {
      if (queue.length) {
        yield queue.shift()!;
        continue;
      }
      if (settled) {
        if ("error" in settled) throw settled.error;
        yield { done: true, result: settled.result };
        return;
      }
      await new Promise<void>((resolve) => (signal = resolve));
    }
  }

  async #run(input: TurnInput<DataFromFields<F>>, callSite: Error, onStream?: Parameters<typeof runTurn>[2]): Promise<TurnResult<DataFromFields<F>>> {
    const result = (await runTurn(this.#engine, input as TurnInput<Record<string, unknown>>, onStream)) as TurnResult<DataFromFields<F>>;
    // Build the payload only when a harness listens (outside it, report() is a no-op).
    if (typeof (globalThis as Record<symbol, unknown>)[REPORTER_KEY] === "function") report("turn", this.#payload(input, result), callSite);
    return result;
  }

  #payload(input: TurnInput<DataFromFields<F>>, r: TurnResult<DataFromFields<F>>): TurnReportPayload {
    const { sessionId, message, id, wake, silenced, history, session } = input;
    return JSON.parse(JSON.stringify({
      flowIds: this.flows.map((f) => f.id),
      input: { sessionId, message, id, wake, silenced, historyLength: history?.length ?? 0, sessionVersion: session?.version },
      llmCalls: r.llmCalls, changed: r.changed, messages: r.messages, outcomes: r.outcomes, schedule: r.schedule, started: r.started,
      session: { id: r.session.id, version: r.session.version, data: r.session.data, runs: r.session.runs },
      now: this.#engine.clock.now().toISOString(),
    })) as TurnReportPayload;
  }
}

/** Throws TurnInputError (with a code) for an input no turn can run. */
export function validateTurnInput(input: unknown): void {
  if (!input || typeof input !== "object") throw new TurnInputError("no-message-or-wake", "agent.turn() needs { sessionId, message, id } or { sessionId, wake }.");
  const i = input as Record<string, unknown>;
  if (typeof i.sessionId !== "string" || !i.sessionId) throw new TurnInputError("missing-session-id", "agent.turn(): `sessionId` must be a non-empty string.");
  const hasMessage = i.message !== undefined;
  const hasWake = i.wake !== undefined;
  if (hasMessage && hasWake) throw new TurnInputError("message-and-wake", "agent.turn(): pass either `message` (with `id`) or `wake`, not both.");
  if (!hasMessage && !hasWake) throw new TurnInputError("no-message-or-wake", "agent.turn(): pass `message` (with `id`) for a customer message, or `wake` for a scheduled key.");
  if (hasMessage) {
    if (typeof i.message !== "string") throw new TurnInputError("bad-message", "agent.turn(): `message` must be a string.");
    if (typeof i.id !== "string" || !i.id) throw new TurnInputError("missing-message-id", "agent.turn(): a message needs its `id` (the channel's message id) so redeliveries are recognised.");
  } else if (typeof i.wake !== "string" || !i.wake) {
    throw new TurnInputError("bad-wake", "agent.turn(): `wake` must be the non-empty key a schedule entry carried.");
  }
  if (i.session !== undefined && i.session !== null) {
    const s = i.session as Record<string, unknown>;
    if (typeof s !== "object" || s.id !== i.sessionId) throw new TurnInputError("session-mismatch", `agent.turn(): the session passed is ${JSON.stringify((s as { id?: unknown })?.id)}, not "${i.sessionId}".`);
  }
}
