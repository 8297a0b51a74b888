// Phase 3, Understand: work out what a message leaves to judge (routing scores, mentions, branch `when`s, field
// values, whether it asks something), and spend the one understand call only when something is left.
// A provider failure here throws ProviderError: nothing ran and nothing is saved, so the host replays the input.
import type { Flow, Run, Step, TalkStep, Trigger } from "../types";
import { ProviderError } from "../errors";
import { isKnown } from "../coerce";
import { branchKeyOf } from "../keys";
import { isTalk, stepKind } from "../steps";
import { isReplayError } from "../../shared/model-calls";
import { callProvider } from "./provider-call";
import { UNDERSTAND, systemPrompt, understandPrompt, understandSchema, type UnderstandPlan } from "./prompts";
import { readUnderstanding, type Understanding } from "./understanding";
import { checkStart } from "./starts";
import type { TurnState } from "./state";

export interface Routing {
  /** The asking run the message answers (routing may move the floor from it). */
  asker: Run | undefined;
  /** Message flows that may start (or whose suspended run may resume), asker's flow excluded. */
  eligible: Flow<any, any>[];
  catchAll: Flow<any, any> | undefined;
  scored: boolean;
}

export interface Plan extends UnderstandPlan {
  routing: Routing;
  needed: boolean;
}

export const messageTrigger = (flow: Flow<any, any>, catchAll: boolean): Trigger<any, any> | undefined =>
  flow.on?.find((t) => "message" in t && (t.message.length === 0) === catchAll);

const talkOf = (step: Step<any, any> | undefined) => (step && isTalk(stepKind(step)) ? (step as Step<any, any> & TalkStep<any, any>) : undefined);

function extractMode(s: TurnState, field: string): "anywhere" | "asked" {
  const def = s.engine.fields[field]!;
  return def.extract ?? (def.type === "boolean" ? "asked" : "anywhere");
}

/** Every field a flow lists (its own collect, then its talk steps'), in order. */
function listed(flow: Flow<any, any>): string[] {
  const out = [...((flow.collect as string[] | undefined) ?? [])];
  for (const step of flow.steps) for (const f of (talkOf(step)?.collect as string[] | undefined) ?? []) if (!out.includes(f)) out.push(f);
  return out;
}

/** The talk step spoke on its current visit (its `when` branches judge the next message). */
function spokeThisVisit(s: TurnState, run: Run): boolean {
  const key = s.keyOf(run);
  return run.outcomes.some((o) => o.key === key && o.status === "ok" && (o.llmCalls !== undefined || o.code === "asked-fixed"));
}

/** A first step whose fixed question would go out now (all its fields unknown). */
function firstQuestionDue(s: TurnState, flow: Flow<any, any>): boolean {
  const first = talkOf(flow.steps[0]);
  const collect = (first?.collect as string[] | undefined) ?? [];
  return first?.question !== undefined && collect.length > 0 && collect.every((f) => !isKnown(s.session.data[f]));
}

export function planUnderstanding(s: TurnState): Plan {
  const e = s.engine;
  const routingSkipped = s.floorFromIngest !== undefined;
  const asker = routingSkipped ? undefined : s.asking();
  const floor = s.floorFromIngest ?? asker;
  const eligible = routingSkipped
    ? []
    : e.flows.filter((f) => {
        if (f.id === asker?.flowId) return false;
        const t = messageTrigger(f, false);
        if (!t) return false;
        if (s.session.runs.some((r) => r.flowId === f.id && r.status === "suspended")) return s.holds(t.if, undefined, undefined);
        return checkStart(s, f, { kind: "message", key: s.messageKey, trigger: t, hop: 0 }).ok;
      });
  const catchAll = routingSkipped || asker ? undefined : e.flows.find((f) => {
    const t = messageTrigger(f, true);
    return t !== undefined && checkStart(s, f, { kind: "message", key: s.messageKey, trigger: t, hop: 0 }).ok;
  });
  const scored = asker ? eligible.length > 0 : eligible.length >= 2 || (eligible.length === 1 && catchAll !== undefined);
  const flows = scored ? [...(asker ? [e.flowById.get(asker.flowId)!] : []), ...eligible] : [];

  const mentions = e.flows.flatMap((flow) => {
    const t = flow.on?.find((x) => "mention" in x);
    if (!t || !("mention" in t) || t.mention.length === 0) return [];
    const { if: _if, ...unconditional } = t;
    if (!checkStart(s, flow, { kind: "mention", key: s.messageKey, trigger: unconditional as Trigger<any, any>, hop: 0 }).ok) return [];
    return [{ flow, phrases: t.mention, extract: Object.keys(t.extract ?? {}) }];
  });

  const branches: UnderstandPlan["branches"] = [];
  const askStep = asker ? talkOf(s.stepOf(asker)) : undefined;
  if (asker && askStep?.branches && spokeThisVisit(s, asker)) {
    askStep.branches.forEach((b, i) => {
      if (b.when === undefined || (b.if !== undefined && !s.holds(b.if, asker))) return;
      branches.push({ alias: `q${branches.length + 1}`, key: branchKeyOf(asker.id, askStep.id, i), when: Array.isArray(b.when) ? b.when : [b.when] });
    });
  }

  // Fields: every unknown `anywhere` field the floor's flow or a candidate lists; with nobody on the floor, the
  // catch-all's too — but the catch-all's first ask reads its own step's fields, so those alone need no call.
  const unknownAnywhere = (f: string) => !isKnown(s.session.data[f]) && extractMode(s, f) === "anywhere";
  const sources = [...(floor ? [e.flowById.get(floor.flowId)] : []), ...eligible].filter((f): f is Flow<any, any> => !!f);
  const fromSources = new Set(sources.flatMap(listed).filter(unknownAnywhere));
  const fields = [...fromSources];
  let neededFields = fields.length;
  if (!floor && catchAll) {
    const first = talkOf(catchAll.steps[0]);
    const readByAsk = new Set(first && first.question === undefined ? ((first.collect as string[] | undefined) ?? []) : []);
    for (const f of listed(catchAll).filter(unknownAnywhere)) {
      if (!fromSources.has(f)) {
        fields.push(f);
        if (!readByAsk.has(f)) neededFields++;
      }
    }
  }
  const floorStep = floor ? talkOf(s.stepOf(floor)) : undefined;
  const asks = (!floor && [...eligible, ...(catchAll ? [catchAll] : [])].some((f) => firstQuestionDue(s, f))) ||
    (floorStep?.question !== undefined && ((floorStep.collect as string[] | undefined) ?? []).every((f) => !isKnown(s.session.data[f]) && !floor!.asked[f]));
  return {
    routing: { asker, eligible, catchAll, scored }, flows, mentions, branches, fields, asks,
    needed: scored || mentions.length > 0 || branches.length > 0 || neededFields > 0 || asks,
  };
}

export async function understand(s: TurnState, plan: Plan): Promise<Understanding> {
  let out;
  try {
    out = await callProvider(s, {
      system: systemPrompt(s), prompt: understandPrompt(s, plan), history: [...(s.input.history ?? s.session.history ?? [])],
      parameters: { schemaName: UNDERSTAND, jsonSchema: understandSchema(s, plan) }, ...(s.context !== undefined ? { context: s.context } : {}),
    });
  } catch (error) {
    throw isReplayError(error) ? error : ProviderError.from(s.engine.provider.name, error);
  }
  const aliases = new Map(plan.branches.map((b) => [b.alias, b.key]));
  return readUnderstanding(out.structured ?? safeJson(out.message), aliases);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {}; // no usable JSON: an empty judgement (the call still counts)
  }
}
