// One turn: a customer message or a wake, applied to a copy of the session. The only I/O is the
// provider and the user's actions/tools; every time comes from the clock, read once per turn, so the
// same input on the same session version gives the same keys, runs and schedule.
import type {
  AgentMessage, AiProvider, ActionHandler, Clock, FieldsSpec, Flow, GenerateMessageInput, HistoryItem, MentionTrigger,
  Outcome, OutcomeCode, RunState, ScheduleEntry, Session, StartedRun, StepDef, ToolDef, TriggerKind, TurnInput, TurnResult,
  UnderstandEnvelope, Usage,
} from "./types";
import { coerceField } from "./coerce";
import { parseDuration } from "./duration";
import { branchKeyOf, parseSilenceKey, retryKeyOf, runIdOf, silenceKeyOf, stepKeyOf, waitKeyOf } from "./keys";
import { callProvider, envelopeOf, structuredOf, toolCallsOf, type DeltaSink } from "./call";
import { SPEAK, UNDERSTAND, speakPrompt, speakSchema, understandPrompt, understandSchema, type BranchQuestion, type FlowCandidate, type MentionCandidate, type SpeakPlan, type UnderstandPlan } from "./prompts";
import { toolDefinition } from "./tools";
import { runToolCall } from "./tool-call";
import { errorText, jsonSafe } from "./json";
import { freshSession, pruneSession } from "./session";
import { TurnInputError } from "./errors";

/** The first retry of a deferred step is due this long after the failure; each further failure doubles it, up to the cap. */
export const RETRY_BASE_MS = 60_000;
export const RETRY_MAX_MS = 3_600_000;
/** Tool rounds one speak may take before the step is deferred with `tool-loop`. */
export const MAX_TOOL_ROUNDS = 5;
/** Steps one run may pass in one turn (a goto cycle with nothing to stop on ends the turn with `step-loop`). */
const MAX_STEPS_PER_TURN = 100;
/** A message flow starts when understand scores it at least this. */
export const START_SCORE = 50;

export interface Engine {
  agentName: string;
  instructions?: string;
  fields: FieldsSpec;
  flows: readonly Flow<FieldsSpec>[];
  provider: AiProvider;
  clock: Clock;
  tools: Map<string, ToolDef<any>>;
  actions: Map<string, ActionHandler<any>>;
}

export type StreamSink = (event: { delta: string; accumulated: string; key: string }) => void;

type Data = Record<string, unknown>;
type Step = StepDef<FieldsSpec, string>;

const isLive = (r: RunState) => r.status !== "done";

export async function runTurn(engine: Engine, input: TurnInput<Data>, onStream?: StreamSink): Promise<TurnResult<Data>> {
  return new Turn(engine, input, onStream).run();
}

class Turn {
  readonly nowMs: number;
  readonly at: string;
  readonly session: Session<Data>;
  readonly outcomes: Outcome[] = [];
  readonly messages: AgentMessage[] = [];
  readonly schedule: ScheduleEntry[] = [];
  readonly started: StartedRun[] = [];
  llmCalls = 0;
  usage: Usage | undefined;
  /** The assistant spoke in this turn (one message per turn). */
  spoke = false;
  readonly silenced: boolean;
  envelope: UnderstandEnvelope = {};
  /** Branch keys understand was asked about in this turn. */
  readonly judged = new Set<string>();

  constructor(private readonly engine: Engine, private readonly input: TurnInput<Data>, private readonly onStream?: StreamSink) {
    this.nowMs = engine.clock.now().getTime();
    this.at = new Date(this.nowMs).toISOString();
    this.session = input.session ? cloneSession(input.session) : freshSession<Data>(input.sessionId);
    this.session.seen ??= [];
    this.session.runs ??= [];
    this.session.data ??= {};
    this.silenced = !!input.silenced;
  }

  async run(): Promise<TurnResult<Data>> {
    const { input } = this;
    if (input.message !== undefined) {
      if (this.session.seen.includes(input.id)) {
        return this.ignored("duplicate-input", `Message "${input.id}" was already handled on this session: nothing to do.`);
      }
      await this.onMessage(input.message, input.id);
    } else {
      const handled = await this.onWake(input.wake);
      if (!handled) return this.ignored("stale-wake", `The session no longer waits for "${input.wake}": nothing to do.`);
    }
    this.armSilence();
    pruneSession(this.session);
    this.session.version = (input.session?.version ?? 0) + 1;
    return this.result(true);
  }

  // ------------------------------------------------------------------------------------------------
  // Customer messages

  async onMessage(text: string, id: string) {
    const s = this.session;
    s.seen.push(id);
    s.lastSpeaker = "customer";
    // Flows with a live run when the message arrived cannot start from it (not even when it ends their run).
    const liveFlows = new Set(s.runs.filter(isLive).map((r) => r.flowId));

    // A waiting run with an `else` leaves its wait for `else` (a run without one keeps waiting).
    for (const run of s.runs.filter((r) => r.status === "waiting")) {
      const step = this.stepOf(run);
      if (step.else === undefined) continue;
      this.log(run, { kind: "wait", status: "interrupted", code: "wait-interrupted", goto: step.else, message: `A customer message interrupted the wait; going to ${step.else === "end" ? "the end" : `step "${step.else}"`}.` });
      this.goto(run, step.else);
    }

    const idle = this.engine.flows.filter((f) => !liveFlows.has(f.id));
    const messageFlows = idle.filter((f) => f.on.some((t) => "message" in t && t.message.length > 0));
    const catchAlls = idle.filter((f) => f.on.some((t) => "message" in t && t.message.length === 0));
    const mentionFlows = idle.filter((f) => f.on.some((t) => "mention" in t));
    const liveRuns = s.runs.filter((r) => isLive(r) && r.status !== "waiting");

    // What understand must judge: pending fields, and the branches of steps that judge this message
    // (a step that speaks first judges the next one). Fields of flows that may start are asked along,
    // but do not make the call necessary on their own (a catch-all alone spends no understand).
    const branches: BranchQuestion[] = [];
    const fields = new Set<string>();
    const askBranches = (runId: string, step: Step, spoke: boolean) => {
      const speaksFirst = step.collect?.length ? this.pendingOf(step).length > 0 : !!step.prompt;
      if (!judgesMessage(step) || (speaksFirst && !spoke)) return;
      step.branches!.forEach((b, i) => {
        if (b.when !== undefined) branches.push({ key: branchKeyOf(runId, step.id, i), when: b.when });
      });
    };
    for (const run of liveRuns) {
      const step = this.stepOf(run);
      this.pendingOf(step).forEach((f) => fields.add(f));
      askBranches(run.runId, step, run.spoke);
    }
    for (const flow of catchAlls) askBranches(runIdOf(flow.id, id), flow.steps[0]!, false);
    const needed = messageFlows.length > 0 || mentionFlows.length > 0 || fields.size > 0 || branches.length > 0;
    for (const flow of [...messageFlows, ...mentionFlows, ...catchAlls]) {
      const first = flow.steps[0]!;
      this.pendingOf(first).forEach((f) => fields.add(f));
      if (!catchAlls.includes(flow)) askBranches(runIdOf(flow.id, id), first, false);
    }
    const mentions: MentionCandidate[] = mentionFlows.map((f) => {
      const t = f.on.find((t): t is MentionTrigger<FieldsSpec> => "mention" in t)!;
      return { flowId: f.id, mention: typeof t.mention === "string" ? t.mention : t.mention.join(" / "), extract: t.extract ?? [] };
    });
    if (needed && !this.silenced) {
      const flows: FlowCandidate[] = messageFlows.map((f) => ({ flowId: f.id, name: f.name, descriptions: f.on.flatMap((t) => ("message" in t ? t.message : [])) }));
      await this.understand({ agentName: this.engine.agentName, message: text, flows, mentions, branches, fields: [...fields] });
    }

    // Starting flows: the best-scoring message flow, or the only one when nothing holds the floor;
    // mention flows the customer brought up; a catch-all when still nothing holds the floor.
    const hadFloor = this.floor() !== undefined;
    const scores = this.envelope.flows ?? {};
    let best: Flow<FieldsSpec> | undefined;
    for (const f of messageFlows) {
      const score = Number(scores[f.id] ?? 0);
      if (score >= START_SCORE && (!best || score > Number(scores[best.id] ?? 0))) best = f;
    }
    if (!best && !hadFloor && messageFlows.length === 1) best = messageFlows[0];
    if (best) this.start(best, "message", id);
    for (const m of mentions) {
      if (this.envelope.mentions?.[m.flowId] !== true) continue;
      const run = this.start(this.flowOf(m.flowId), "mention", id);
      const given = this.envelope.extract?.[m.flowId] ?? {};
      this.storeFields(Object.fromEntries(m.extract.filter((k) => k in given).map((k) => [k, given[k]])), run);
    }
    if (!this.floor() && catchAlls.length) this.start(catchAlls[0]!, "catch-all", id);
    // After the starts, so each collect line names the run whose step asks for the field.
    this.storeFields(this.envelope.fields, undefined);

    const floor = this.floor();
    if (floor) await this.act(floor);
    else this.outcomes.push({ kind: "turn", status: "idle", code: "no-flow", at: this.at, message: "No run holds the floor and no flow started from this message." });
  }

  async understand(plan: UnderstandPlan) {
    const data = this.session.data;
    plan.branches.forEach((b) => this.judged.add(b.key));
    const input: GenerateMessageInput = {
      prompt: understandPrompt(plan, this.engine.fields, data),
      history: this.history(),
      parameters: { schemaName: UNDERSTAND, jsonSchema: understandSchema(plan) },
    };
    this.llmCalls++;
    try {
      const out = await callProvider(this.engine.provider, input);
      this.addUsage(out.usage);
      this.envelope = envelopeOf(out);
      this.outcomes.push({ kind: "understand", status: "ok", code: "understood", at: this.at, message: "Understood the customer's message." });
    } catch (error) {
      // Without a judgment the turn goes on with an empty envelope: nothing scores, nothing is extracted.
      this.envelope = {};
      this.outcomes.push({ kind: "understand", status: "failed", code: "provider-unavailable", at: this.at, message: `The provider failed to understand the message (${errorText(error)}); going on without a judgment.` });
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Wakes

  async onWake(key: string): Promise<boolean> {
    const s = this.session;
    const silence = parseSilenceKey(key);
    if (silence) {
      const flow = this.engine.flows.find((f) => silence.rest === `${f.id}:${s.id}` && f.on.some((t) => "silence" in t));
      if (!flow) return false;
      const lastAt = s.lastAssistantAt ? Date.parse(s.lastAssistantAt) : NaN;
      if (s.lastSpeaker !== "assistant" || lastAt !== silence.ms) return false;
      const runId = runIdOf(flow.id, String(silence.ms));
      if (s.runs.some((r) => r.runId === runId || (r.flowId === flow.id && isLive(r)))) return false;
      await this.act(this.start(flow, "silence", String(silence.ms)));
      return true;
    }
    const waiting = s.runs.find((r) => r.status === "waiting" && r.waitKey === key);
    if (waiting) {
      this.log(waiting, { kind: "wait", status: "ok", code: "wait-elapsed", message: "The wait is over." });
      waiting.waited = true;
      waiting.status = "active";
      delete waiting.waitKey;
      delete waiting.until;
      await this.act(waiting);
      return true;
    }
    const deferred = s.runs.find((r) => r.status === "deferred" && r.retryKey === key);
    if (deferred) {
      await this.act(deferred);
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------------------------------------------
  // Runs and steps

  start(flow: Flow<FieldsSpec>, trigger: TriggerKind, triggerKey: string): RunState {
    const runId = runIdOf(flow.id, triggerKey);
    const first = flow.steps[0]!;
    const run: RunState = {
      runId, flowId: flow.id, trigger, triggerKey, stepId: first.id, status: "active", visits: { [first.id]: 1 },
      spoke: false, did: false, waited: false, startedAt: this.at, updatedAt: this.at,
    };
    this.session.runs.push(run);
    this.started.push({ runId, flowId: flow.id, trigger, triggerKey, at: this.at });
    return run;
  }

  /** The newest live run that is not parked on a wait. */
  floor(): RunState | undefined {
    const runs = this.session.runs;
    for (let i = runs.length - 1; i >= 0; i--) if (isLive(runs[i]!) && runs[i]!.status !== "waiting") return runs[i];
    return undefined;
  }

  flowOf(flowId: string): Flow<FieldsSpec> {
    return this.engine.flows.find((f) => f.id === flowId)!;
  }

  stepOf(run: RunState): Step {
    return this.flowOf(run.flowId).steps.find((s) => s.id === run.stepId)!;
  }

  keyOf(run: RunState): string {
    return stepKeyOf(run.runId, run.stepId, run.visits[run.stepId] ?? 1);
  }

  pendingOf(step: Step): string[] {
    return (step.collect ?? []).filter((f) => this.session.data[f] === undefined || this.session.data[f] === null);
  }

  enter(run: RunState, stepId: string) {
    run.stepId = stepId;
    run.visits[stepId] = (run.visits[stepId] ?? 0) + 1;
    run.spoke = run.did = run.waited = false;
    run.status = "active";
    run.updatedAt = this.at;
    for (const k of ["waitKey", "until", "retryKey", "attempts"] as const) delete run[k];
  }

  goto(run: RunState, target: string) {
    if (target === "end") this.finish(run);
    else this.enter(run, target);
  }

  /** Moves to the next step in order; false when the flow is done. */
  next(run: RunState): boolean {
    const steps = this.flowOf(run.flowId).steps;
    const i = steps.findIndex((s) => s.id === run.stepId);
    if (i + 1 >= steps.length) {
      this.finish(run);
      return false;
    }
    this.enter(run, steps[i + 1]!.id);
    return true;
  }

  finish(run: RunState) {
    run.status = "done";
    run.updatedAt = this.at;
    for (const k of ["waitKey", "until", "retryKey", "attempts"] as const) delete run[k];
    this.outcomes.push({ kind: "end", status: "done", code: "flow-done", runId: run.runId, flowId: run.flowId, stepId: run.stepId, at: this.at, message: `Flow "${run.flowId}" is done.` });
  }

  /** Runs one run forward until it has to stop: it spoke, asks, waits, is deferred, or is done. */
  async act(run: RunState): Promise<void> {
    for (let guard = 0; guard < MAX_STEPS_PER_TURN; guard++) {
      const step = this.stepOf(run);
      run.updatedAt = this.at;

      if (step.do !== undefined && !run.did) {
        if (!(await this.runActions(run, step))) return;
        run.did = true;
      }

      let pending = this.pendingOf(step);
      // A collect step speaks only while something is missing (all known: passed without a call);
      // a prompt-only step speaks once per visit.
      const wantsToSpeak = step.collect?.length ? pending.length > 0 : !!step.prompt && !run.spoke;
      if (wantsToSpeak) {
        if (this.spoke) {
          // One message per turn: this step speaks on the next turn.
          run.status = run.spoke ? "asking" : "active";
          return;
        }
        if (this.silenced) {
          this.log(run, { kind: "speak", status: "silenced", code: "silenced", message: `Silenced (${typeof this.input.silenced === "string" ? this.input.silenced : "a human holds the conversation"}): nothing phrased.` });
          if (pending.length > 0 || judgesMessage(step)) {
            run.status = "asking";
            return;
          }
          run.spoke = true; // a prompt-only step passes in silence
        } else {
          if (run.spoke) run.visits[step.id] = (run.visits[step.id] ?? 1) + 1; // asking again: a new visit, a new key
          if (!(await this.speak(run, step, pending))) return;
          pending = this.pendingOf(step);
          if (pending.length > 0 || judgesMessage(step)) {
            run.status = "asking";
            return;
          }
        }
      }

      if (step.wait !== undefined && !run.waited) {
        this.park(run, step);
        return;
      }

      if (step.branches?.length) {
        // Only branches with a `when` are judged; a last branch without one is taken when none holds.
        const judgedIndexes = step.branches.flatMap((b, i) => (b.when !== undefined ? [i] : []));
        const keys = judgedIndexes.map((i) => branchKeyOf(run.runId, step.id, i));
        if (!keys.every((k) => this.judged.has(k))) {
          run.status = "asking"; // judged on the next customer message
          return;
        }
        const held = keys.findIndex((k) => this.envelope.branches?.[k] === true);
        keys.forEach((k) => this.judged.delete(k)); // one judgment per message: coming back here waits for the next

        const otherwise = step.branches.at(-1)!.when === undefined ? step.branches.length - 1 : -1;
        const i = held >= 0 ? judgedIndexes[held]! : otherwise;
        if (i >= 0) {
          const branch = step.branches[i]!;
          const target = branch.goto;
          const why = branch.when !== undefined ? `Branch ${i} holds (${branch.when})` : "No branch holds, so the otherwise branch is taken";
          this.log(run, { kind: "branch", status: "ok", code: "branch-taken", goto: target, message: `${why}; going to ${target === "end" ? "the end" : `step "${target}"`}.` });
          this.goto(run, target);
          if (!isLive(run)) return;
          continue;
        }
        this.log(run, { kind: "branch", status: "ok", code: "no-branch", message: "No branch holds; going on to the next step." });
      }

      if (!this.next(run)) return;
    }
    run.status = "active";
    this.log(run, { kind: "turn", status: "stopped", code: "step-loop", message: `Passed ${MAX_STEPS_PER_TURN} steps in one turn; stopping here.` });
  }

  park(run: RunState, step: Step) {
    const untilMs = this.nowMs + parseDuration(step.wait!, `step "${step.id}" wait`);
    const until = new Date(untilMs).toISOString();
    run.status = "waiting";
    run.waitKey = waitKeyOf(run.runId, step.id, untilMs);
    run.until = until;
    // The document pins this line to exactly these keys.
    this.outcomes.push({ runId: run.runId, flowId: run.flowId, stepId: step.id, key: this.keyOf(run), kind: "wait", status: "waiting", until, at: this.at });
    this.schedule.push({ key: run.waitKey, sessionId: this.session.id, at: until, kind: "wait" });
  }

  defer(run: RunState, kind: "speak" | "do", code: OutcomeCode, why: string) {
    const attempts = (run.attempts ?? 0) + 1;
    const retryMs = this.nowMs + Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS);
    const until = new Date(retryMs).toISOString();
    run.status = "deferred";
    run.attempts = attempts;
    run.retryKey = retryKeyOf(run.runId, run.stepId, retryMs);
    this.log(run, { kind, status: "deferred", code, until, message: `${why}; retrying at ${until} (attempt ${attempts}).` });
    this.schedule.push({ key: run.retryKey, sessionId: this.session.id, at: until, kind: "retry" });
  }

  async runActions(run: RunState, step: Step): Promise<boolean> {
    const names = typeof step.do === "string" ? [step.do] : [...(step.do ?? [])];
    const key = this.keyOf(run);
    for (const name of names) {
      const handler = this.engine.actions.get(name)!;
      const dedupeKey = `${key}:${name}`;
      try {
        const patch = await handler({
          key, dedupeKey, action: name, sessionId: this.session.id, runId: run.runId, flowId: run.flowId, stepId: step.id,
          data: structuredClone(this.session.data), now: new Date(this.nowMs),
        });
        // Stored as JSON so the session stays serialisable (a Date becomes its ISO text, functions are dropped).
        if (patch && typeof patch === "object") Object.assign(this.session.data, jsonSafe(patch));
        this.log(run, { kind: "do", status: "ok", code: "action-ran", action: name, message: `Action "${name}" ran.` });
      } catch (error) {
        this.defer(run, "do", "action-failed", `Action "${name}" failed (${errorText(error)})`);
        return false;
      }
    }
    return true;
  }

  async speak(run: RunState, step: Step, pending: string[]): Promise<boolean> {
    const flow = this.flowOf(run.flowId);
    const key = this.keyOf(run);
    const toolNames = [...(step.tools ?? [])];
    const plan: SpeakPlan = {
      agentName: this.engine.agentName, flowId: flow.id, flowName: flow.name, stepId: step.id, pending, toolNames,
      ...(this.engine.instructions !== undefined ? { instructions: this.engine.instructions } : {}),
      ...(step.prompt !== undefined ? { prompt: step.prompt } : {}),
    };
    const history = this.history();
    const tools = toolNames.map((n) => toolDefinition(this.engine.tools.get(n)!));
    const onDelta: DeltaSink | undefined = this.onStream ? (delta, accumulated) => this.onStream!({ delta, accumulated, key }) : undefined;
    for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
      const input: GenerateMessageInput = {
        prompt: speakPrompt(plan, this.engine.fields, this.session.data),
        history: [...history],
        ...(tools.length ? { tools } : {}),
        parameters: { schemaName: SPEAK, jsonSchema: speakSchema(plan, this.engine.fields) },
      };
      this.llmCalls++;
      let out;
      try {
        out = await callProvider(this.engine.provider, input, onDelta);
      } catch (error) {
        this.defer(run, "speak", "provider-unavailable", `The provider failed to phrase step "${step.id}" (${errorText(error)})`);
        return false;
      }
      this.addUsage(out.usage);
      const calls = toolCallsOf(out);
      if (calls) {
        for (const call of calls) history.push(...(await this.runTool(run, step, call.toolName, call.arguments ?? {})));
        continue;
      }
      const reply = structuredOf(out);
      // The text to send: the envelope's `message`, or the plain text of a reply that is no envelope.
      const text = typeof reply.message === "string" ? reply.message : Object.keys(reply).length === 0 ? out.message : "";
      if (!text.trim()) {
        this.defer(run, "speak", "empty-reply", `The provider's reply for step "${step.id}" has no message to send`);
        return false;
      }
      this.messages.push({ key, runId: run.runId, flowId: run.flowId, stepId: step.id, role: "assistant", text, at: this.at });
      this.log(run, { kind: "speak", status: "ok", code: "spoke", message: `Spoke for step "${step.id}".` });
      this.storeFields(Object.fromEntries(pending.filter((f) => f in reply).map((f) => [f, reply[f]])), run);
      run.spoke = true;
      delete run.retryKey;
      delete run.attempts;
      this.spoke = true;
      this.session.lastSpeaker = "assistant";
      this.session.lastAssistantAt = this.at;
      return true;
    }
    this.defer(run, "speak", "tool-loop", `Step "${step.id}" called tools ${MAX_TOOL_ROUNDS + 1} times without answering`);
    return false;
  }

  /** Runs one tool call; logs its line and returns the history lines the next speak call sees. */
  async runTool(run: RunState, step: Step, name: string, args: Record<string, unknown>): Promise<HistoryItem[]> {
    const { history, line } = await runToolCall(this.engine.tools.get(name), (step.tools ?? []).includes(name), name, args, {
      key: this.keyOf(run), sessionId: this.session.id, runId: run.runId, flowId: run.flowId, stepId: step.id,
      data: structuredClone(this.session.data), now: new Date(this.nowMs),
    });
    this.log(run, line);
    return history;
  }

  /** Coerces and stores field values; each value given logs a collect line. */
  storeFields(values: Record<string, unknown> | undefined, owner: RunState | undefined) {
    if (!values || typeof values !== "object") return;
    for (const [field, raw] of Object.entries(values)) {
      const spec = this.engine.fields[field];
      const run = owner ?? this.ownerOf(field);
      if (!spec) {
        if (raw !== null && raw !== undefined) this.log(run, { kind: "collect", status: "dropped", code: "unknown-field", field, value: jsonSafe(raw), message: `"${field}" is not a declared field; dropped.` });
        continue;
      }
      const c = coerceField(spec, raw);
      if (c.ok === "absent") continue;
      if (c.ok) {
        this.session.data[field] = c.value;
        this.log(run, { kind: "collect", status: "ok", code: "collected", field, value: c.value, message: `Stored ${field} = ${JSON.stringify(c.value)}.` });
      } else {
        this.log(run, { kind: "collect", status: "dropped", code: c.code, field, value: jsonSafe(raw), message: `Dropped ${JSON.stringify(raw)} for ${field} (${spec.type}): ${c.reason}.` });
      }
    }
  }

  /** The live run whose current step collects this field (newest first), for attributing a collect line. */
  ownerOf(field: string): RunState | undefined {
    const runs = this.session.runs;
    for (let i = runs.length - 1; i >= 0; i--) {
      const r = runs[i]!;
      if (isLive(r) && (this.stepOf(r).collect ?? []).includes(field)) return r;
    }
    return undefined;
  }

  log(run: RunState | undefined, line: Omit<Outcome, "at">) {
    this.outcomes.push(run ? { runId: run.runId, flowId: run.flowId, stepId: run.stepId, key: this.keyOf(run), ...line, at: this.at } : { ...line, at: this.at });
  }

  /** After a turn in which the assistant spoke, each silence flow without a live run arms its wake. */
  armSilence() {
    if (!this.spoke) return;
    const live = new Set(this.session.runs.filter(isLive).map((r) => r.flowId));
    for (const flow of this.engine.flows) {
      const t = flow.on.find((t) => "silence" in t);
      if (!t || !("silence" in t) || live.has(flow.id)) continue;
      const atMs = this.nowMs + parseDuration(t.silence);
      this.schedule.push({ key: silenceKeyOf(flow.id, this.session.id, this.nowMs), sessionId: this.session.id, at: new Date(atMs).toISOString(), kind: "silence" });
    }
  }

  history(): HistoryItem[] {
    const h = [...(this.input.history ?? [])];
    if (this.input.message !== undefined) h.push({ role: "user", content: this.input.message });
    return h;
  }

  addUsage(u: Usage | undefined) {
    if (!u) return;
    const sum = (this.usage ??= {});
    for (const k of ["inputTokens", "outputTokens", "totalTokens"] as const) if (typeof u[k] === "number") sum[k] = (sum[k] ?? 0) + u[k]!;
  }

  ignored(code: OutcomeCode, message: string): TurnResult<Data> {
    this.outcomes.length = 0;
    this.outcomes.push({ kind: "turn", status: "ignored", code, message, at: this.at });
    const session = this.input.session ? structuredClone(this.input.session) : freshSession<Data>(this.input.sessionId);
    return { changed: false, session, llmCalls: 0, messages: [], outcomes: this.outcomes, schedule: [], started: [] };
  }

  result(changed: boolean): TurnResult<Data> {
    return {
      changed, session: this.session, llmCalls: this.llmCalls, ...(this.usage ? { usage: this.usage } : {}),
      messages: this.messages, outcomes: this.outcomes, schedule: this.schedule, started: this.started,
    };
  }
}

function cloneSession(session: Session<Data>): Session<Data> {
  try {
    return structuredClone(session);
  } catch (error) {
    throw new TurnInputError("bad-session", `agent.turn(): the session cannot be copied (${errorText(error)}); pass the plain object the store returned.`);
  }
}

/** A step whose branches have a `when` waits for the customer's message to be judged; an "otherwise"
 *  branch alone is an unconditional jump. */
function judgesMessage(step: Step): boolean {
  return step.branches?.some((b) => b.when !== undefined) ?? false;
}
