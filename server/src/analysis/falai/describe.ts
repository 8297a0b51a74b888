// One-line details and markdown summaries (hover) for field sets, fields, flows, steps, agents, tools and actions.
import { formatDuration } from "./duration";
import type { AgentModel, FieldModel, FieldSetModel, FlowModel, Registration, StepModel, TriggerModel } from "./model";

const code = (s: string) => "`" + s.replace(/`/g, "'") + "`";
const quote = (s: string) => JSON.stringify(s);

export function fieldDetail(f: FieldModel): string {
  const type = f.type?.text ?? (f.typeStatic ? "string" : "?");
  return type === "enum" && f.values?.length ? `enum: ${f.values.join(" | ")}` : type;
}

/** The hover header already shows the name and type (the detail); this adds what the field asks and allows. */
export function fieldSummary(f: FieldModel): string {
  const lines: string[] = [];
  if (f.ask) lines.push(`Ask: ${f.ask}`);
  if (f.type?.text === "enum" && f.values?.length) lines.push(`Values: ${f.values.map(code).join(", ")}`);
  if (f.description) lines.push(f.description);
  return lines.length ? lines.join("\n\n") : `A ${code(fieldDetail(f))} field.`;
}

export function fieldSetSummary(set: FieldSetModel): string {
  if (!set.fields.length) return "No fields.";
  return set.fields.map((f) => `- ${code(f.name)}: ${fieldDetail(f)}${f.ask ? ` — ${f.ask}` : ""}`).join("\n");
}

function durationText(d: { text: string; ms: number | undefined } | undefined): string {
  if (!d) return "?";
  return d.ms === undefined ? `${d.text} (not a duration)` : /^[0-9.]+$/.test(d.text) ? formatDuration(d.ms) : d.text;
}

export function triggerText(t: TriggerModel): string {
  switch (t.kind) {
    case "message":
      return t.catchAll ? "any message (catch-all)" : `a message like ${t.phrases.map(quote).join(", ") || "…"}`;
    case "silence":
      return `silence for ${durationText(t.silence)}`;
    case "mention":
      return `a mention of ${t.mention ? quote(t.mention) : "…"}${t.extract.length ? ` (extracts ${t.extract.map((e) => e.text).join(", ")})` : ""}`;
    default:
      return "a custom trigger";
  }
}

export function flowDetail(flow: FlowModel): string {
  if (!flow.triggers.length) return flow.triggersStatic ? "no triggers" : "triggers: dynamic";
  return flow.triggers.map((t) => (t.kind === "message" && t.catchAll ? "catch-all" : t.kind === "silence" ? `silence ${t.silence?.text ?? "?"}` : t.kind)).join(", ");
}

export function flowSummary(flow: FlowModel): string {
  const lines: string[] = [];
  lines.push(`Flow ${code(flow.id?.text ?? "?")}${flow.name ? ` — ${flow.name}` : ""}`);
  lines.push(flow.triggers.length ? `Starts on:\n${flow.triggers.map((t) => `- ${triggerText(t)}`).join("\n")}` : "Starts on: nothing (no `on` triggers)");
  if (flow.steps.length) lines.push(`Steps: ${flow.steps.map((s) => code(s.id?.text ?? `#${s.index + 1}`)).join(" → ")}`);
  return lines.join("\n\n");
}

export function stepDetail(step: StepModel): string {
  const parts: string[] = [];
  if (step.prompt !== undefined) parts.push("prompt");
  if (step.collect.length) parts.push(`collect ${step.collect.map((c) => c.text).join(", ")}`);
  if (step.hasWait) parts.push(`wait ${step.wait?.text ?? "?"}${step.else ? ` · else ${step.else.text}` : ""}`);
  if (step.do.length) parts.push(`do ${step.do.map((d) => d.text).join(", ")}`);
  if (step.tools.length) parts.push(`tools ${step.tools.map((d) => d.text).join(", ")}`);
  if (step.branches.length) parts.push(`${step.branches.length} branch${step.branches.length > 1 ? "es" : ""}`);
  return parts.join(" · ") || "step";
}

export function stepSummary(step: StepModel, flow: FlowModel): string {
  const lines = [`Step ${code(step.id?.text ?? `#${step.index + 1}`)} of flow ${code(flow.id?.text ?? "?")} (${step.index + 1} of ${flow.steps.length})`];
  if (step.prompt !== undefined) lines.push(`Prompt: ${step.prompt}`);
  if (step.collect.length) lines.push(`Collects: ${step.collect.map((c) => code(c.text)).join(", ")}`);
  if (step.hasWait) lines.push(`Waits ${durationText(step.wait)}; a customer message meanwhile goes to ${code(step.else?.text ?? "the next step")}`);
  if (step.do.length) lines.push(`Runs actions: ${step.do.map((d) => code(d.text)).join(", ")}`);
  if (step.tools.length) lines.push(`Offers tools: ${step.tools.map((d) => code(d.text)).join(", ")}`);
  for (const b of step.branches) lines.push(`- ${b.hasWhen ? `when ${quote(b.when ?? "…")}` : "otherwise"} → ${code(b.goto?.text ?? "?")}`);
  return lines.join("\n\n");
}

export function agentDetail(agent: AgentModel): string {
  const flows = agent.flows.map((e) => e.flow.id?.text ?? "?");
  return flows.length ? `flows: ${flows.join(", ")}` : "agent";
}

export function agentSummary(agent: AgentModel): string {
  const lines = [`Agent ${code(agent.name ?? agent.varName ?? "?")}`];
  lines.push(agent.flows.length ? `Flows:\n${agent.flows.map((e) => `- ${code(e.flow.id?.text ?? "?")}: ${flowDetail(e.flow)}`).join("\n")}` : "Flows: none known statically");
  if (agent.tools.length) lines.push(`Tools: ${agent.tools.map((t) => code(t.name)).join(", ")}`);
  if (agent.actions.length) lines.push(`Actions: ${agent.actions.map((t) => code(t.name)).join(", ")}`);
  if (!agent.hasClock) lines.push("Clock: the system clock (pass `clock: fakeClock(...)` in tests)");
  return lines.join("\n\n");
}

export function registrationSummary(r: Registration): string {
  return `${r.kind === "tool" ? "Tool" : "Action"} ${code(r.name)}${r.description ? `\n\n${r.description}` : ""}`;
}
