// The agent's options, checked once when it is built: every registry entry, then every flow against them.
import { BUILT_IN_CONDITIONS } from "../predicate";
import { validateFields, validateParams } from "./fields";
import type { Registries } from "../spec";
import { checkFlow } from "./flow";
import { validatePred } from "./predicate";
import { fail, fnAt, isObject, listAt, objectAt, onlyKeys, optionalBoolean, optionalText, show, textAt } from "./shape";

const AGENT_KEYS = ["name", "goal", "persona", "provider", "fields", "flows", "actions", "events", "conditions", "tools", "instructions", "knowledgeBase", "idle", "clock", "businessHours", "maxToolLoops", "debug"];
const TOOL_KEYS = ["id", "description", "parameters", "handler", "isConcurrencySafe", "isReadOnly", "isDestructive", "maxResultSizeChars", "validateInput", "checkPermissions"];

/** Returns the warnings `validateFlow` gave for the agent's flows. */
export function validateAgentOptions(options: unknown): string[] {
  const o = objectAt(options, "agent", "the agent's options");
  if (o.compaction !== undefined) fail("unknown-key", "agent", "`compaction` is not supported by this runtime", "Remove it; this runtime never trims the history you pass.");
  onlyKeys(o, AGENT_KEYS, "agent", "an agent");
  textAt(o.name, "agent", "name");
  optionalText(o, "goal", "agent");
  optionalText(o, "persona", "agent");
  const provider = objectAt(o.provider, "agent", "provider");
  fnAt(provider.generateMessage, "agent, provider", "generateMessage");
  const fields = validateFields(o.fields ?? {});
  const actions = o.actions === undefined ? {} : objectAt(o.actions, "agent", "actions");
  for (const [name, action] of Object.entries(actions)) {
    const where = `action "${name}"`;
    const a = objectAt(action, where, "the action");
    onlyKeys(a, ["description", "parameters", "run"], where, "an action (f.action({ parameters, run }))");
    optionalText(a, "description", where);
    validateParams(a.parameters, where);
    fnAt(a.run, where, "run");
  }
  const events = o.events === undefined ? {} : objectAt(o.events, "agent", "events");
  for (const [name, event] of Object.entries(events)) {
    const e = objectAt(event, `event "${name}"`, "the event");
    onlyKeys(e, ["direction", "payload"], `event "${name}"`, "an event (f.event())");
    if (e.direction !== undefined && e.direction !== "inbound" && e.direction !== "outbound") fail("bad-option", `event "${name}"`, `direction is ${show(e.direction)}, which is not one of "inbound", "outbound"`, "Use one of them, or leave it out.");
  }
  const conditions = o.conditions === undefined ? {} : objectAt(o.conditions, "agent", "conditions");
  for (const [name, condition] of Object.entries(conditions)) {
    if (BUILT_IN_CONDITIONS.has(name)) fail("bad-option", "agent", `condition "${name}" shadows a built-in`, "equals, known and silenced are reserved; rename it.");
    fnAt(objectAt(condition, `condition "${name}"`, "the condition").check, `condition "${name}"`, "check");
  }
  const tools = o.tools === undefined ? [] : listAt(o.tools, "agent", "tools", "Write tools: [tool, ...].");
  tools.forEach((tool, i) => {
    const t = objectAt(tool, `agent, tools[${i}]`, "the tool");
    const where = typeof t.id === "string" ? `tool "${t.id}"` : `agent, tools[${i}]`;
    onlyKeys(t, TOOL_KEYS, where, "a tool");
    textAt(t.id, where, "id");
    optionalText(t, "description", where);
    if (t.parameters !== undefined && !(isObject(t.parameters) && t.parameters.type === "object")) {
      fail("bad-option", where, "parameters must be a JSON Schema object", 'Write { type: "object", properties: { … }, required: [ … ] }.');
    }
    fnAt(t.handler, where, "handler");
    for (const k of ["isConcurrencySafe", "isReadOnly", "isDestructive", "validateInput", "checkPermissions"]) if (t[k] !== undefined) fnAt(t[k], where, k);
    if (t.maxResultSizeChars !== undefined && !(typeof t.maxResultSizeChars === "number" && t.maxResultSizeChars > 0)) fail("bad-option", where, `maxResultSizeChars is ${show(t.maxResultSizeChars)}`, "Write a number of characters above 0.");
  });
  const toolIds = tools.map((t) => ({ id: (t as { id: string }).id }));
  const checkInstructionIfs = (list: unknown, where: string) =>
    listAt(list, where, "instructions").forEach((ins, i) => {
      const at = `${where}, instructions[${i}]`;
      const x = objectAt(ins, at, "the instruction");
      onlyKeys(x, ["id", "kind", "when", "if", "prompt"], at, "an instruction");
      textAt(x.prompt, at, "prompt");
      if (x.kind !== undefined && !["must", "never", "should"].includes(x.kind as string)) fail("bad-option", at, `kind is ${show(x.kind)}, which is not one of "must", "never", "should"`, "Use one of them.");
      validatePred(x.if, where, `instructions[${i}].if`, fields, conditions as never);
    });
  if (o.instructions !== undefined) checkInstructionIfs(o.instructions, "agent");
  if (o.knowledgeBase !== undefined) objectAt(o.knowledgeBase, "agent", "knowledgeBase");
  if (o.idle !== undefined && o.idle !== "silent") {
    const idle = objectAt(o.idle, "idle", "idle");
    onlyKeys(idle, ["prompt", "tools", "instructions"], "idle", "idle ({ prompt, tools?, instructions? } or 'silent')");
    textAt(idle.prompt, "idle", "prompt");
    if (idle.tools !== undefined) {
      for (const id of listAt(idle.tools, "idle", "tools")) if (!toolIds.some((t) => t.id === id)) fail("unknown-tool", "idle", `unknown tool ${show(id)}`, "Register it in the agent's tools or fix the name.");
    }
    if (idle.instructions !== undefined) checkInstructionIfs(idle.instructions, "idle");
  }
  if (o.clock !== undefined) fnAt(o.clock, "agent", "clock");
  if (o.businessHours !== undefined) fnAt(o.businessHours, "agent", "businessHours");
  if (o.maxToolLoops !== undefined && !(Number.isInteger(o.maxToolLoops) && (o.maxToolLoops as number) >= 0)) fail("bad-option", "agent", `maxToolLoops is ${show(o.maxToolLoops)}`, "Write a whole number, 0 or more.");
  optionalBoolean(o, "debug", "agent");
  const flows = o.flows === undefined ? [] : listAt(o.flows, "agent", "flows", "Write flows: [f.flow({...}), ...].");
  const seen = new Set<string>();
  for (const flow of flows) {
    const id = isObject(flow) ? flow.id : undefined;
    if (typeof id === "string" && seen.has(id)) fail("duplicate-flow", "agent", `flow "${id}" is declared twice`, "Flow ids must be unique; rename one of them.");
    if (typeof id === "string") seen.add(id);
  }
  const registries = { fields, actions, events, conditions, tools: toolIds, flows: flows as Array<{ id: string }> } as Registries;
  return flows.flatMap((flow) => checkFlow(flow, registries, false).warnings);
}
