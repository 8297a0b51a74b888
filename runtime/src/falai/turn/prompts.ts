// What the provider reads: the stable system half (identity, knowledge base), the per-turn prompt, and the JSON
// schema of the reply. Both envelopes make every property required and nullable, so the model answers each one.
import type { FieldDef, Flow, Instruction, Run, Step, StructuredSchema } from "../types";
import { isKnown } from "../coerce";
import { renderTemplate } from "../template";
import type { Data, TurnState } from "./state";

export const UNDERSTAND = "understand";
export const SPEAK = "speak";
const DEFAULT_GUIDELINE = "Collect what is still missing below, in the flow of the conversation, one or two things per message.";
const NO_NEW_MESSAGE = "There is no new message from the customer: you speak first.";

function bullets(value: unknown, depth = 0): string[] {
  const pad = "  ".repeat(depth);
  if (Array.isArray(value)) return value.flatMap((v) => (v && typeof v === "object" ? bullets(v, depth) : [`${pad}- ${String(v)}`]));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => (v && typeof v === "object" ? [`${pad}- ${k}:`, ...bullets(v, depth + 1)] : [`${pad}- ${k}: ${String(v)}`]));
  }
  return [`${pad}- ${String(value)}`];
}

/** The stable half: who the assistant is and what it knows (no per-turn data, so a provider may cache it). */
export function systemPrompt(s: TurnState): string {
  const e = s.engine;
  const scope = s.scope(undefined);
  const lines = [`You are ${e.name}.`];
  if (e.persona) lines.push(renderTemplate(e.persona, scope));
  if (e.goal) lines.push(`Your goal: ${renderTemplate(e.goal, scope)}`);
  if (e.knowledgeBase && Object.keys(e.knowledgeBase).length) lines.push("## Knowledge base", ...bullets(e.knowledgeBase));
  return lines.join("\n");
}

function describeField(slug: string, def: FieldDef): string {
  const options = def.enum ? ` [${def.enum.map((v) => String(v)).join(" | ")}]` : "";
  return `${slug} (${def.type})${options}${def.description ? `: ${def.description}` : ""}`;
}

function knownSection(data: Data): string[] {
  const known = Object.entries(data).filter(([, v]) => isKnown(v));
  return known.length ? ["## Already known (settled; never ask for these again)", ...known.map(([k, v]) => `- ${k} = ${JSON.stringify(v)}`)] : [];
}

function customerSection(s: TurnState): string[] {
  return s.kind === "message" ? ["## The customer's message", JSON.stringify(s.input.message)] : [NO_NEW_MESSAGE];
}

function instructionLines(s: TurnState, lists: ReadonlyArray<readonly Instruction<any, any>[] | undefined>, run: Run | undefined): string[] {
  const lines: string[] = [];
  for (const list of lists) {
    for (const ins of list ?? []) {
      if (!s.holds(ins.if, run)) continue;
      const text = renderTemplate(ins.prompt, s.scope(run)).trim();
      if (!text) continue;
      const when = ins.when === undefined ? [] : Array.isArray(ins.when) ? ins.when : [ins.when];
      lines.push(`- [${ins.kind ?? "should"}] [Always] ${text}${when.length ? ` (apply only when: ${when.join(" OR ")})` : ""}`);
    }
  }
  return lines.length ? ["## Instructions", ...lines] : [];
}

const nullableField = (def: FieldDef): StructuredSchema => ({
  type: [def.type === "integer" ? "integer" : def.type, "null"],
  ...(def.description ? { description: def.description } : {}),
  ...(def.enum ? { enum: [...def.enum, null] } : {}),
});
const closed = (properties: Record<string, StructuredSchema>): StructuredSchema => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false });

// ---------------------------------------------------------------------------------------------------
// Speak

export interface TalkPrompt {
  run: Run;
  flow: Flow<any, any>;
  step: Step<any, any>;
  pending: string[];
  answerOnly: boolean;
  wrapUp: boolean;
}

export function talkPrompt(s: TurnState, p: TalkPrompt): string {
  const scope = s.scope(p.run);
  const step = p.step as Step<any, any> & { prompt?: string; ask?: Record<string, string> };
  const lines = [`## Flow: ${p.flow.name}`];
  if (p.flow.description) lines.push(renderTemplate(p.flow.description, scope));
  lines.push("## This step", p.answerOnly ? "The customer's message asks something: answer it briefly and ask for nothing. A fixed question follows your reply." : renderTemplate(step.prompt ?? DEFAULT_GUIDELINE, scope));
  if (p.pending.length) {
    lines.push("## Still missing (take any value the customer's message already gives)");
    for (const slug of p.pending) {
      const def = s.engine.fields[slug]!;
      const ask = step.ask?.[slug] ?? def.ask;
      lines.push(`- ${describeField(slug, def)}${ask ? `. How to ask: ${renderTemplate(ask, scope)}` : ""}`);
    }
  }
  lines.push(...knownSection(s.session.data));
  lines.push(...instructionLines(s, [s.engine.instructions, p.flow.instructions, (p.step as { instructions?: Instruction[] }).instructions], p.run));
  lines.push(...customerSection(s));
  if (p.wrapUp) lines.push("## Wrap up", "No more tools: answer the customer now with what you have.");
  lines.push("## Response format", `Reply with JSON: { "message": the text to send${p.pending.map((f) => `, "${f}": its value or null`).join("")} }.`);
  return lines.join("\n");
}

export function idlePrompt(s: TurnState, guideline: string, instructions: readonly Instruction<any, any>[] | undefined, wrapUp: boolean): string {
  const lines: string[] = [];
  if (guideline.trim()) lines.push("## Guideline", renderTemplate(guideline, s.scope(undefined)));
  lines.push(...knownSection(s.session.data));
  lines.push(...instructionLines(s, [s.engine.instructions, instructions], undefined));
  lines.push(...customerSection(s));
  if (wrapUp) lines.push("## Wrap up", "No more tools: answer the customer now with what you have.");
  lines.push("## Response format", 'Reply with JSON: { "message": the text to send }.');
  return lines.join("\n");
}

export function speakSchema(s: TurnState, pending: readonly string[]): StructuredSchema {
  return closed({ message: { type: "string" }, ...Object.fromEntries(pending.map((f) => [f, nullableField(s.engine.fields[f]!)])) });
}

// ---------------------------------------------------------------------------------------------------
// Understand

export interface UnderstandPlan {
  /** Flows to score 0–100 (with their phrases). */
  flows: Flow<any, any>[];
  mentions: Array<{ flow: Flow<any, any>; phrases: string[]; extract: string[] }>;
  /** Branch questions: alias → full key and its `when`. */
  branches: Array<{ alias: string; key: string; when: string[] }>;
  fields: string[];
  asks: boolean;
}

const phrases = (list: readonly string[]) => {
  const plain = list.map((p) => p.trim()).filter((p) => p && p !== "!");
  const yes = plain.filter((p) => !p.startsWith("!"));
  const no = plain.filter((p) => p.startsWith("!")).map((p) => p.slice(1).trim());
  return `${yes.join("; ")}${no.length ? ` — but not when: ${no.join("; ")} (an exclusion overrides a match)` : ""}`;
};

export function understandPrompt(s: TurnState, plan: UnderstandPlan): string {
  const lines = ["Judge the customer's message below. Reply with JSON holding each section asked for; answer every property (null when the message says nothing about it)."];
  lines.push("## The customer's message", JSON.stringify(s.input.message));
  if (plan.flows.length) {
    lines.push("## flows — score 0 to 100 how well the message fits each flow");
    for (const f of plan.flows) {
      const list = (f.on ?? []).flatMap((t) => ("message" in t ? t.message : []));
      lines.push(`- ${f.id} (${f.name})${f.description ? `: ${f.description}` : ""}${list.length ? ` — ${phrases(list)}` : ""}`);
    }
  }
  if (plan.mentions.length) {
    lines.push("## mentions — true only with clear evidence in the message that the customer brought it up; extract — the values named, per flow");
    for (const m of plan.mentions) lines.push(`- ${m.flow.id}: ${phrases(m.phrases)}${m.extract.length ? ` (extract: ${m.extract.join(", ")})` : ""}`);
  }
  if (plan.branches.length) {
    lines.push("## branches — true when the condition holds for this message");
    for (const b of plan.branches) lines.push(`- ${b.alias}: ${phrases(b.when)}`);
  }
  if (plan.fields.length) {
    lines.push("## fields — the value the customer gave for each, null when not given");
    for (const slug of plan.fields) lines.push(`- ${describeField(slug, s.engine.fields[slug]!)}`);
  }
  if (plan.asks) lines.push("## asks — true when the message asks the assistant something (a question to answer), false when it only answers or greets");
  lines.push(...knownSection(s.session.data));
  return lines.join("\n");
}

export function understandSchema(s: TurnState, plan: UnderstandPlan): StructuredSchema {
  const props: Record<string, StructuredSchema> = {};
  const nullable = (t: string) => ({ type: [t, "null"] });
  if (plan.flows.length) props.flows = closed(Object.fromEntries(plan.flows.map((f) => [f.id, { ...nullable("number"), minimum: 0, maximum: 100 }])));
  if (plan.mentions.length) {
    props.mentions = closed(Object.fromEntries(plan.mentions.map((m) => [m.flow.id, nullable("boolean")])));
    props.extract = closed(Object.fromEntries(plan.mentions.map((m) => [m.flow.id, { anyOf: [closed(Object.fromEntries(m.extract.map((x) => [x, { type: ["string", "number", "boolean", "null"] }]))), { type: "null" }] }])));
  }
  if (plan.branches.length) props.branches = closed(Object.fromEntries(plan.branches.map((b) => [b.alias, nullable("boolean")])));
  if (plan.fields.length) props.fields = closed(Object.fromEntries(plan.fields.map((f) => [f, nullableField(s.engine.fields[f]!)])));
  if (plan.asks) props.asks = { type: "boolean" };
  return closed(props);
}
