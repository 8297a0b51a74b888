// What the provider receives: the understand and speak prompts and the JSON schemas of their replies.
import type { FieldSpec, FieldsSpec, JsonSchema } from "./types";

export const UNDERSTAND = "understand";
export const SPEAK = "speak";

export interface FlowCandidate {
  flowId: string;
  name: string;
  descriptions: readonly string[];
}
export interface MentionCandidate {
  flowId: string;
  mention: string;
  extract: readonly string[];
}
export interface BranchQuestion {
  key: string;
  when: string;
}

function describeType(spec: FieldSpec): string {
  return spec.type === "enum" ? `one of ${spec.values.map((v) => JSON.stringify(v)).join(", ")}` : spec.type;
}

function fieldLine(name: string, spec: FieldSpec): string {
  const hint = [spec.description, spec.ask].filter(Boolean).join(" ");
  return `- ${name} (${describeType(spec)})${hint ? `: ${hint}` : ""}`;
}

function knownLines(data: Record<string, unknown>): string[] {
  const known = Object.entries(data).filter(([, v]) => v !== undefined && v !== null);
  return known.length ? ["Already known:", ...known.map(([k, v]) => `- ${k} = ${JSON.stringify(v)}`)] : [];
}

const anyRaw: JsonSchema = { type: ["string", "number", "boolean", "null"] };
const objectOf = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false });

export interface UnderstandPlan {
  agentName: string;
  message: string;
  flows: FlowCandidate[];
  mentions: MentionCandidate[];
  branches: BranchQuestion[];
  fields: string[];
}

export function understandPrompt(plan: UnderstandPlan, fields: FieldsSpec, data: Record<string, unknown>): string {
  const lines = [
    `You judge one customer message for the agent "${plan.agentName}". Reply with JSON holding every section ({ flows, mentions, extract, branches, fields }), empty when there is nothing to say.`,
    `Customer message: ${JSON.stringify(plan.message)}`,
  ];
  if (plan.flows.length) {
    lines.push("flows — score 0 to 100 how well the message fits each flow:");
    for (const f of plan.flows) lines.push(`- ${f.flowId} (${f.name}): ${f.descriptions.join("; ")}`);
  }
  if (plan.mentions.length) {
    lines.push("mentions — true when the customer brought it up; extract — the values named, per flow:");
    for (const m of plan.mentions) lines.push(`- ${m.flowId}: ${m.mention}${m.extract.length ? ` (extract: ${m.extract.join(", ")})` : ""}`);
  }
  if (plan.branches.length) {
    lines.push("branches — true when the condition holds for this message:");
    for (const b of plan.branches) lines.push(`- ${b.key}: ${b.when}`);
  }
  if (plan.fields.length) {
    lines.push("fields — the raw value the customer gave for each, left out when not given:");
    for (const name of plan.fields) lines.push(fieldLine(name, fields[name]!));
  }
  lines.push(...knownLines(data));
  return lines.join("\n");
}

export function understandSchema(plan: UnderstandPlan): JsonSchema {
  const props = (keys: string[], schema: JsonSchema) => ({ type: "object", properties: Object.fromEntries(keys.map((k) => [k, schema])), additionalProperties: false });
  return objectOf({
    flows: props(plan.flows.map((f) => f.flowId), { type: "number", minimum: 0, maximum: 100 }),
    mentions: props(plan.mentions.map((m) => m.flowId), { type: "boolean" }),
    extract: props(plan.mentions.map((m) => m.flowId), props(plan.mentions.flatMap((m) => m.extract), anyRaw)),
    branches: props(plan.branches.map((b) => b.key), { type: "boolean" }),
    fields: props(plan.fields, anyRaw),
  });
}

export interface SpeakPlan {
  agentName: string;
  instructions?: string;
  flowId: string;
  flowName: string;
  stepId: string;
  prompt?: string;
  pending: string[];
  toolNames: string[];
}

export function speakPrompt(plan: SpeakPlan, fields: FieldsSpec, data: Record<string, unknown>): string {
  const lines = [`You are ${plan.agentName}, talking with a customer.`];
  if (plan.instructions) lines.push(plan.instructions);
  lines.push(`Flow "${plan.flowName}" (${plan.flowId}), step "${plan.stepId}".`);
  if (plan.prompt) lines.push(`Instructions: ${plan.prompt}`);
  if (plan.pending.length) {
    lines.push("Ask for what is still missing, and reply with one property per field below: the value the customer gave, or null when they did not give it:");
    for (const name of plan.pending) lines.push(fieldLine(name, fields[name]!));
  }
  if (plan.toolNames.length) lines.push(`You may call these tools before answering: ${plan.toolNames.join(", ")}.`);
  lines.push(...knownLines(data));
  lines.push(`Reply with JSON: { "message": the text to send${plan.pending.map((p) => `, "${p}": ...`).join("")} }.`);
  return lines.join("\n");
}

export function speakSchema(plan: SpeakPlan, fields: FieldsSpec): JsonSchema {
  const props: Record<string, JsonSchema> = { message: { type: "string" } };
  for (const name of plan.pending) {
    const spec = fields[name]!;
    props[name] = spec.type === "enum" ? { type: ["string", "null"], enum: [...spec.values, null] } : { type: [spec.type, "null"] };
  }
  return objectOf(props);
}
