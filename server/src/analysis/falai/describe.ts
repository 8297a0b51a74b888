// One-line details and markdown summaries (hover) for field sets, fields, flows, steps, agents and the
// things agents register (tools, actions, events, conditions).
import { formatDuration } from "./duration";
import type { AgentModel, FieldModel, FieldSetModel, FlowModel, NextModel, Registration, StepModel, TriggerModel } from "./model";

const code = (s: string) => "`" + s.replace(/`/g, "'") + "`";
const quote = (s: string) => JSON.stringify(s);

export function fieldDetail(f: FieldModel): string {
  const type = f.type?.text ?? (f.typeStatic ? "string" : "?");
  return f.enumValues?.length ? `${type}: ${f.enumValues.join(" | ")}` : type;
}

/** The hover header already shows the name and type (the detail); this adds what the field asks and allows. */
export function fieldSummary(f: FieldModel): string {
  const lines: string[] = [];
  if (f.ask) lines.push(`Ask: ${f.ask}`);
  if (f.enumValues?.length) lines.push(`Values: ${f.enumValues.map(code).join(", ")}`);
  if (f.extract) lines.push(`Extracted: ${f.extract}`);
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

function triggerText(t: TriggerModel): string {
  const gate = t.hasIf ? " (if …)" : "";
  switch (t.kind) {
    case "message":
      return (t.catchAll ? "any message (catch-all)" : `a message like ${t.phrases.map(quote).join(", ") || "…"}`) + gate;
    case "silence":
      return `silence for ${durationText(t.silence)}${gate}`;
    case "mention":
      return `a mention of ${t.phrases.map(quote).join(", ") || "…"}${t.extractKeys.length ? ` (extracts ${t.extractKeys.join(", ")})` : ""}${gate}`;
    case "event":
      return `the event ${t.event ? code(t.event.text) : "…"}${t.after ? `, ${durationText(t.after)} later` : ""}${gate}`;
    default:
      return "a custom trigger";
  }
}

export function flowDetail(flow: FlowModel): string {
  if (!flow.triggers.length) return flow.triggersStatic ? "started by hand" : "triggers: dynamic";
  return flow.triggers.map((t) => (t.kind === "message" && t.catchAll ? "catch-all" : t.kind === "silence" ? `silence ${t.silence?.text ?? "?"}` : t.kind === "event" ? `event ${t.event?.text ?? "?"}` : t.kind)).join(", ");
}

export function flowSummary(flow: FlowModel): string {
  const lines: string[] = [];
  lines.push(`Flow ${code(flow.id?.text ?? "?")}${flow.name ? ` — ${flow.name}` : ""}`);
  lines.push(flow.triggers.length ? `Starts on:\n${flow.triggers.map((t) => `- ${triggerText(t)}`).join("\n")}` : "Starts on: `turn({ start })` or another flow's `then: { flow }` (no `on`)");
  if (flow.steps.length) lines.push(`Steps: ${flow.steps.map((s) => code(s.id?.text ?? `#${s.index + 1}`)).join(" → ")}`);
  if (flow.onEnd) lines.push(`After the last step: ${flow.onEnd}`);
  return lines.join("\n\n");
}

function nextText(next: NextModel | undefined): string {
  if (!next) return "the next step";
  switch (next.kind) {
    case "step":
      return code(next.step.text) + (next.clear.length ? ` (clearing ${next.clear.map((c) => c.text).join(", ")})` : "");
    case "end":
      return "`end`";
    case "flow":
      return next.flow ? `flow ${code(next.flow.text)}` : "a flow named at run time";
    default:
      return "(computed)";
  }
}

export function stepDetail(step: StepModel): string {
  const parts: string[] = [];
  if (step.prompt !== undefined) parts.push("prompt");
  if (step.collect.length) parts.push(`collect ${step.collect.map((c) => c.text).join(", ")}`);
  if (step.say !== undefined) parts.push("say");
  if (step.do) parts.push(`do ${step.do.text}`);
  if (step.kind === "wait") parts.push(`wait ${step.wait?.text ?? "?"}`);
  if (step.kind === "wait-event") parts.push(`wait for ${step.waitEvent?.text ?? "an event"}${step.upTo ? ` up to ${step.upTo.text}` : ""}`);
  if (step.kind === "if") parts.push("if");
  if (step.tools.length) parts.push(`tools ${step.tools.map((d) => d.text).join(", ")}`);
  if (step.branches.length) parts.push(`${step.branches.length} branch${step.branches.length > 1 ? "es" : ""}`);
  if (step.then) parts.push(`then ${plain(step.then)}`);
  if (step.else) parts.push(`else ${plain(step.else)}`);
  return parts.join(" · ") || "step";
}

const plain = (next: NextModel) => nextText(next).replace(/`/g, "");

export function stepSummary(step: StepModel, flow: FlowModel): string {
  const lines = [`Step ${code(step.id?.text ?? `#${step.index + 1}`)} of flow ${code(flow.id?.text ?? "?")} (${step.index + 1} of ${flow.steps.length})`];
  if (step.prompt !== undefined) lines.push(`Prompt: ${step.prompt}`);
  if (step.say !== undefined) lines.push(`Says: ${step.say}`);
  if (step.collect.length) lines.push(`Collects: ${step.collect.map((c) => code(c.text)).join(", ")}`);
  if (step.do) lines.push(`Runs action ${code(step.do.text)}${step.onFail ? `; on failure goes to ${nextText(step.onFail)}` : ""}`);
  if (step.kind === "wait") lines.push(`Waits ${durationText(step.wait)}, then goes to ${nextText(step.then)}${step.else ? `; a customer message meanwhile goes to ${nextText(step.else)}` : ""}`);
  else if (step.kind === "wait-event") lines.push(`Waits for the event ${code(step.waitEvent?.text ?? "?")}${step.upTo ? ` up to ${durationText(step.upTo)}` : " (up to 30d)"}, then goes to ${nextText(step.then)}; without it, ${step.else ? nextText(step.else) : "the run ends"}`);
  else if (step.kind === "if") lines.push(`If the condition holds: ${nextText(step.then)}; else ${step.else ? nextText(step.else) : "`end`"}`);
  else if (step.then) lines.push(`Then: ${nextText(step.then)}`);
  if (step.tools.length) lines.push(`Offers tools: ${step.tools.map((d) => code(d.text)).join(", ")}`);
  for (const b of step.branches) lines.push(`- ${b.hasWhen ? `when ${quote(b.when ?? "…")}` : b.hasIf ? "if …" : "branch"} → ${nextText(b.then)}`);
  return lines.join("\n\n");
}

export function agentDetail(agent: AgentModel): string {
  const flows = agent.flows.map((e) => e.flow.id?.text ?? "?");
  return flows.length ? `flows: ${flows.join(", ")}` : "agent";
}

export function agentSummary(agent: AgentModel): string {
  const lines = [`Agent ${code(agent.name ?? agent.varName ?? "?")}`];
  if (agent.persona) lines.push(`Persona: ${agent.persona}`);
  lines.push(agent.flows.length ? `Flows:\n${agent.flows.map((e) => `- ${code(e.flow.id?.text ?? "?")}: ${flowDetail(e.flow)}`).join("\n")}` : "Flows: none known statically");
  const list = (label: string, regs: Registration[]) => {
    if (regs.length) lines.push(`${label}: ${regs.map((t) => code(t.name)).join(", ")}`);
  };
  list("Tools", agent.tools.entries);
  list("Actions", agent.actions.entries);
  list("Events", agent.events.entries);
  list("Conditions", agent.conditions.entries);
  if (!agent.hasClock) lines.push("Clock: the system clock (pass `clock: fakeClock(...)` in tests)");
  return lines.join("\n\n");
}

const KIND_LABEL: Record<Registration["kind"], string> = { tool: "Tool", action: "Action", event: "Event", condition: "Condition" };

export function registrationSummary(r: Registration): string {
  return `${KIND_LABEL[r.kind]} ${code(r.name)}${r.description ? `\n\n${r.description}` : ""}`;
}
