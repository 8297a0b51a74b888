// validateFlow: throws a FlowConfigurationError on the first thing that would break at run time, returns warnings for
// what runs but probably not as meant. `f.flow` runs it with the fields only (names of actions, events,
// conditions and tools are checked when the agent is built, with every registry).
import type { FieldDefs, Flow } from "../types";
import { stripNulls, type FlowSpec, type Registries } from "../spec";
import { bodyKinds, isTalk, keysOf, type StepKind } from "../steps";
import { fail, durationAt, isObject, listAt, objectAt, oneOf, onlyKeys, optionalBoolean, optionalText, show, textAt } from "./shape";
import { validatePred } from "./predicate";
import { validateWith } from "./params";
import { validateParams } from "./fields";

const FLOW_KEYS = ["id", "name", "description", "on", "anchor", "while", "collect", "clearOnStart", "steps", "onEnd", "instructions", "tools"];
const TRIGGER_KEYS: Record<string, readonly string[]> = {
  message: ["message", "if", "repeat"],
  mention: ["mention", "extract", "if", "repeat"],
  silence: ["silence", "if", "businessHours", "repeat"],
  event: ["event", "if", "after", "businessHours", "repeat"],
};

interface Ctx {
  reg: Registries;
  /** Registries other than fields are only checked when the agent is built. */
  partial: boolean;
  flowWhere: string;
  stepIds: string[];
  warnings: string[];
}

/** Checks a flow (or a FlowSpec) against the registries it names things from. */
export function validateFlow(input: Flow<any, any> | FlowSpec, registries: Registries): { warnings: string[] } {
  return checkFlow(stripNulls(input), registries, false);
}

export function checkFlow(input: unknown, reg: Registries, partial: boolean): { warnings: string[] } {
  if (!isObject(input)) fail("bad-option", "flow", `is ${show(input)}, not an object`, "Pass the flow itself: { id, name, steps }.");
  if (typeof input.id !== "string" || !input.id) fail("bad-option", "flow", "has no id", "Give the flow a short unique id.");
  const where = `flow "${input.id}"`;
  onlyKeys(input, FLOW_KEYS, where, "a flow");
  if (typeof input.name !== "string" || !input.name) fail("bad-option", where, "has no name", "Give the flow a name; the model reads it when routing and speaking.");
  optionalText(input, "description", where);
  optionalText(input, "anchor", where);
  const steps = listAt(input.steps, where, "steps", "Write steps as a list, even an empty one.");
  const ctx: Ctx = { reg, partial, flowWhere: where, stepIds: [], warnings: [] };
  steps.forEach((step, i) => {
    if (!isObject(step)) fail("bad-option", where, `steps[${i}] is ${show(step)}, not an object`, "Write each entry of steps as an object.");
    if (typeof step.id !== "string" || !step.id) fail("bad-option", `${where}, step #${i + 1}`, "has no id", "Give every step a unique id.");
    if (step.id === "end") fail("bad-option", `${where}, step "end"`, 'uses the reserved id "end"', '"end" ends the run; pick another id.');
    if (ctx.stepIds.includes(step.id)) fail("duplicate-step", `${where}, step "${step.id}"`, "duplicates an earlier step id", "Give each step its own id.");
    ctx.stepIds.push(step.id);
  });
  const on = input.on === undefined ? [] : listAt(input.on, where, "on");
  if (on.length && !steps.length) fail("bad-option", where, "has triggers but no steps", "Add at least one step or remove `on`.");
  on.forEach((t, i) => checkTrigger(t, `${where}, trigger #${i + 1}`, ctx));
  validatePred(input.while, where, "while", reg.fields, partial ? undefined : (reg.conditions ?? {}));
  for (const key of ["collect", "clearOnStart"] as const) if (input[key] !== undefined) checkFieldList(input[key], where, key, reg.fields);
  if (input.onEnd !== undefined) oneOf(input.onEnd, ["end", "stay", "reset"], where, "onEnd");
  if (input.instructions !== undefined) checkInstructions(input.instructions, where, ctx);
  if (input.tools !== undefined) checkTools(input.tools, where, ctx);
  steps.forEach((step, i) => checkStep(step as Record<string, unknown>, i, ctx));
  warnAskedOnly(input, steps as Array<Record<string, unknown>>, ctx);
  return { warnings: ctx.warnings };
}

function checkFieldList(value: unknown, where: string, name: string, fields: FieldDefs): string[] {
  const list = listAt(value, where, name, `Write ${name}: ["field", ...].`);
  for (const f of list) if (typeof f !== "string" || !fields[f]) fail("unknown-field", where, `unknown field ${show(f)} in ${name}`, "Add it to the agent's fields or fix the slug.");
  return list as string[];
}

function checkRepeat(repeat: unknown, where: string): void {
  if (repeat === undefined || repeat === "once" || repeat === "always") return;
  if (isObject(repeat) && Object.keys(repeat).length === 1 && repeat.cooldown !== undefined) {
    durationAt(repeat.cooldown, where, "repeat.cooldown");
    return;
  }
  fail("bad-trigger", where, `repeat is ${show(repeat)}`, 'Use "once", "always" or { cooldown: "24h" }.');
}

function checkPhrases(value: unknown, where: string, name: string): void {
  const list = listAt(value, where, name);
  if (list.some((p) => typeof p !== "string")) fail("bad-trigger", where, `${name} is ${show(value)}`, `Write ${name} as a list of phrases.`);
  const plain = (list as string[]).map((p) => p.trim()).filter((p) => p && p !== "!");
  if (plain.length && plain.every((p) => p.startsWith("!"))) {
    fail("bad-trigger", where, `every ${name} phrase starts with "!", so nothing can ever match it`, 'A "!" phrase rules the trigger out. Add at least one plain phrase saying when it should fire, or use an empty list for a catch-all.');
  }
}

function checkTrigger(value: unknown, where: string, ctx: Ctx): void {
  const t = objectAt(value, where, "the trigger");
  const kinds = Object.keys(TRIGGER_KEYS).filter((k) => t[k] !== undefined);
  if (kinds.length !== 1) {
    fail("bad-trigger", where, kinds.length ? `mixes ${kinds.map((k) => `"${k}"`).join(" and ")}` : "names no trigger kind", "A trigger is one of `message`, `mention`, `silence`, `event`. A flow the host starts itself has no `on` at all.");
  }
  const kind = kinds[0]!;
  onlyKeys(t, TRIGGER_KEYS[kind]!, where, `a ${kind} trigger`);
  checkRepeat(t.repeat, where);
  validatePred(t.if, where, "if", ctx.reg.fields, ctx.partial ? undefined : (ctx.reg.conditions ?? {}));
  optionalBoolean(t, "businessHours", where);
  if (kind === "message" || kind === "mention") checkPhrases(t[kind], where, kind);
  if (kind === "mention" && t.extract !== undefined) validateParams(t.extract, `${where}, extract`);
  if (kind === "silence") durationAt(t.silence, where, "silence");
  if (kind === "event") {
    textAt(t.event, where, "event");
    if (!ctx.partial && !ctx.reg.events?.[t.event as string]) fail("unknown-event", where, `unknown event "${t.event}"`, "Register it in events or fix the name.");
    if (t.after !== undefined) durationAt(t.after, where, "after");
  }
}

function checkInstructions(value: unknown, where: string, ctx: Ctx): void {
  listAt(value, where, "instructions").forEach((ins, i) => {
    const at = `${where}, instructions[${i}]`;
    const o = objectAt(ins, at, "the instruction");
    onlyKeys(o, ["id", "kind", "when", "if", "prompt"], at, "an instruction");
    textAt(o.prompt, at, "prompt");
    optionalText(o, "id", at);
    if (o.kind !== undefined) oneOf(o.kind, ["must", "never", "should"], at, "kind");
    if (o.when !== undefined && typeof o.when !== "string" && !(Array.isArray(o.when) && o.when.every((w) => typeof w === "string"))) fail("bad-option", at, `when is ${show(o.when)}`, "Write when as a sentence, or a list of them.");
    validatePred(o.if, where, `instructions[${i}].if`, ctx.reg.fields, ctx.partial ? undefined : (ctx.reg.conditions ?? {}));
  });
}

function checkTools(value: unknown, where: string, ctx: Ctx): void {
  const list = listAt(value, where, "tools", 'Write tools: ["toolId", ...].');
  for (const id of list) {
    if (typeof id !== "string") fail("bad-option", where, `tools lists ${show(id)}`, "List tool ids as strings.");
    if (!ctx.partial && !(ctx.reg.tools ?? []).some((t) => t.id === id)) fail("unknown-tool", where, `unknown tool "${id}"`, "Register it in the agent's tools or fix the name.");
  }
}

/** A `then` / `else` / `onFail` / branch target. Returns the step id it jumps to, if any. */
function checkTarget(value: unknown, where: string, name: string, ctx: Ctx, from: number): void {
  let stepId: string | undefined;
  let clears = false;
  if (typeof value === "string") {
    if (value !== "end") stepId = value;
  } else if (isObject(value) && typeof value.step === "string") {
    onlyKeys(value, ["step", "clear"], where, name);
    stepId = value.step;
    if (value.clear !== undefined) clears = checkFieldList(value.clear, where, `${name}.clear`, ctx.reg.fields).length > 0;
  } else if (isObject(value) && typeof value.flow === "string") {
    onlyKeys(value, ["flow", "input"], where, name);
    if (ctx.reg.flows && !value.flow.includes("{{") && !ctx.reg.flows.some((f) => f.id === value.flow)) {
      fail("unknown-step", where, `${name} names flow "${value.flow}", which this agent does not have`, `Use one of ${ctx.reg.flows.map((f) => `"${f.id}"`).join(", ")}, or add the flow.`);
    }
  } else {
    fail("unknown-step", where, `${name} is ${show(value)}, not a step id or a target`, 'Write a step id, "end", { step: "id" } or { flow: "id" }.');
  }
  if (stepId === undefined) return;
  const to = ctx.stepIds.indexOf(stepId);
  if (to < 0) fail("unknown-step", where, `${name} points at step "${stepId}", which does not exist`, 'Use an existing step id or "end".');
  if (to <= from && !clears) ctx.warnings.push(`${where}: ${name} jumps back to "${stepId}" without clear; the fields collected since stay known and those steps skip. Add clear: [...] to re-ask them.`);
}

function checkBranches(value: unknown, where: string, kind: StepKind, ctx: Ctx, from: number): void {
  listAt(value, where, "branches").forEach((b, i) => {
    const name = `branches[${i}]`;
    const o = objectAt(b, where, name);
    onlyKeys(o, ["when", "if", "then"], `${where}, ${name}`, "a branch");
    if (o.when === undefined && o.if === undefined) fail("bad-option", where, `${name} has neither when nor if`, "Give the branch an AI condition (when) or a code one (if).");
    if (o.when !== undefined) {
      if (kind === "wait") fail("bad-option", where, `${name} is a "when" branch, but a wait step is judged by code only`, 'Use "if", or move the branch to a talk step.');
      if (typeof o.when !== "string" && !(Array.isArray(o.when) && o.when.every((w) => typeof w === "string"))) fail("bad-option", where, `${name}.when is ${show(o.when)}`, "Write when as a sentence, or a list of them.");
    }
    validatePred(o.if, where, `${name}.if`, ctx.reg.fields, ctx.partial ? undefined : (ctx.reg.conditions ?? {}));
    if (o.then === undefined) fail("unknown-step", where, `${name} has no then`, 'Write then: a step id, "end", { step } or { flow }.');
    checkTarget(o.then, where, `${name}.then`, ctx, from);
  });
}

function checkStep(step: Record<string, unknown>, index: number, ctx: Ctx): void {
  const where = `${ctx.flowWhere}, step "${step.id as string}"`;
  const kinds = bodyKinds(step);
  if (kinds.length === 0) fail("bad-option", where, "does nothing", "A step talks (prompt / collect), says (say), acts (do), waits (wait) or forks (if).");
  if (kinds.length > 1) fail("bad-option", where, `mixes ${kinds.map((k) => `"${k === "prompt" || k === "collect" ? "prompt" : k}"`).join(" and ")}`, "A step does one thing. Split it into one step per kind.");
  const kind = kinds[0]!;
  onlyKeys(step, keysOf(kind), where, `a ${kind} step`);
  if (step.kind !== undefined && step.kind !== kind && !(isTalk(kind) && isTalk(step.kind as StepKind) && Array.isArray(step.collect))) {
    fail("bad-option", where, `has kind ${show(step.kind)}, but its body is a "${kind}" step`, `Set kind to "${kind}", or change the body to match.`);
  }
  optionalText(step, "label", where);
  if (step.ui !== undefined) objectAt(step.ui, where, "ui");
  if (step.then !== undefined) checkTarget(step.then, where, "then", ctx, index);
  const fields = ctx.reg.fields;
  if (isTalk(kind)) {
    const collect = step.collect === undefined ? [] : checkFieldList(step.collect, where, "collect", fields);
    optionalText(step, "prompt", where);
    optionalText(step, "question", where);
    if (step.question !== undefined && collect.length === 0) fail("bad-option", where, "has a question but collects nothing", "A fixed question asks for fields: add collect, or send the text with a say step.");
    if (step.ask !== undefined) {
      for (const [field, text] of Object.entries(objectAt(step.ask, where, "ask"))) {
        if (!fields[field]) fail("unknown-field", where, `unknown field "${field}" in ask`, "Add it to the agent's fields or fix the slug.");
        textAt(text, where, `ask.${field}`);
      }
    }
    if (step.maxAsks !== undefined && !(Number.isInteger(step.maxAsks) && (step.maxAsks as number) >= 1)) fail("bad-option", where, `maxAsks is ${show(step.maxAsks)}, not a whole number of 1 or more`, "Write a number like 3.");
    if (step.branches !== undefined) checkBranches(step.branches, where, kind, ctx, index);
    if (step.tools !== undefined) checkTools(step.tools, where, ctx);
    if (step.instructions !== undefined) checkInstructions(step.instructions, where, ctx);
    const asks = isObject(step.ask) ? step.ask : {};
    if (collect.length && step.prompt === undefined && step.question === undefined && collect.every((f) => !asks[f] && !fields[f]?.ask)) {
      ctx.warnings.push(`${where}: collects ${collect.map((f) => `"${f}"`).join(", ")} with no prompt and no ask; the model has nothing to go on. Add a prompt or an ask per field.`);
    }
  } else if (kind === "say") {
    textAt(step.say, where, "say");
    if (step.media !== undefined) {
      const media = objectAt(step.media, where, "media");
      onlyKeys(media, ["slug"], where, "media");
      textAt(media.slug, where, "media.slug");
    }
    optionalBoolean(step, "once", where);
  } else if (kind === "do") {
    textAt(step.do, where, "do");
    const action = ctx.reg.actions?.[step.do as string];
    if (!ctx.partial && !action) fail("unknown-action", where, `unknown action "${step.do}"`, "Register it in actions or fix the name.");
    const args = step.with === undefined ? {} : objectAt(step.with, where, "with");
    if (action) validateWith(args, action.parameters, step.do as string, where);
    if (step.onFail !== undefined) checkTarget(step.onFail, where, "onFail", ctx, index);
  } else if (kind === "wait") {
    durationAt(step.wait, where, "wait");
    optionalBoolean(step, "businessHours", where);
    if (step.else !== undefined) checkTarget(step.else, where, "else", ctx, index);
    if (step.branches !== undefined) checkBranches(step.branches, where, kind, ctx, index);
  } else if (kind === "waitEvent") {
    const wait = step.wait as Record<string, unknown>;
    onlyKeys(wait, ["event", "upTo"], where, "wait");
    if (typeof wait.event !== "string") fail("bad-option", where, "wait has no event", 'Write wait: { event: "name" } to wait for an event, or a duration like "1h".');
    if (!ctx.partial && !ctx.reg.events?.[wait.event]) fail("unknown-event", where, `unknown event "${wait.event}" in wait`, "Register it in events or fix the name.");
    if (wait.upTo !== undefined) durationAt(wait.upTo, where, "wait.upTo");
    if (step.else !== undefined) checkTarget(step.else, where, "else", ctx, index);
  } else {
    validatePred(step.if, where, "if", fields, ctx.partial ? undefined : (ctx.reg.conditions ?? {}));
    if (step.else !== undefined) checkTarget(step.else, where, "else", ctx, index);
    const then = typeof step.then === "string" ? step.then : isObject(step.then) && typeof step.then.step === "string" ? step.then.step : undefined;
    if (then !== undefined && then !== "end" && ctx.stepIds.indexOf(then) <= index && step.else === undefined) {
      fail("bad-option", where, `"if" jumps back to "${then}" with no else`, "Add else so the false branch has somewhere to go.");
    }
  }
}

function warnAskedOnly(flow: Record<string, unknown>, steps: Array<Record<string, unknown>>, ctx: Ctx): void {
  const listed = new Set(steps.flatMap((s) => (Array.isArray(s.collect) ? (s.collect as string[]) : [])));
  for (const field of (flow.collect as string[] | undefined) ?? []) {
    const def = ctx.reg.fields[field]!;
    if ((def.extract ?? (def.type === "boolean" ? "asked" : "anywhere")) === "asked" && !listed.has(field)) {
      ctx.warnings.push(`${ctx.flowWhere}: collect lists "${field}", which is only taken from the answer to a step that asks it, and no step does. Add it to a step's collect, or set extract: 'anywhere' on the field.`);
    }
  }
}
