// A step's kind, read from which property it has (the same table `toSpec` writes as `kind`).
import type { Step } from "./types";

export type StepKind = "prompt" | "collect" | "say" | "do" | "wait" | "waitEvent" | "if";

const STEP_KEYS: Record<"talk" | "say" | "do" | "wait" | "waitEvent" | "if", readonly string[]> = {
  talk: ["prompt", "collect", "ask", "question", "maxAsks", "branches", "tools", "instructions"],
  say: ["say", "media", "once"],
  do: ["do", "with", "onFail"],
  wait: ["wait", "businessHours", "else", "branches"],
  waitEvent: ["wait", "else"],
  if: ["if", "else"],
};
const BASE_STEP_KEYS = ["id", "label", "then", "ui", "kind"] as const;

/** The kinds a step's body names (one for a well-formed step). */
export function bodyKinds(step: Record<string, unknown>): StepKind[] {
  const kinds: StepKind[] = [];
  if (step.prompt !== undefined || step.collect !== undefined) kinds.push(Array.isArray(step.collect) && step.collect.length > 0 ? "collect" : step.prompt !== undefined ? "prompt" : "collect");
  if (step.say !== undefined) kinds.push("say");
  if (step.do !== undefined) kinds.push("do");
  if (step.wait !== undefined) kinds.push(typeof step.wait === "object" && step.wait !== null ? "waitEvent" : "wait");
  if (step.if !== undefined) kinds.push("if");
  return kinds;
}

export function stepKind(step: Step<any, any>): StepKind {
  return bodyKinds(step as unknown as Record<string, unknown>)[0]!;
}

export const isTalk = (kind: StepKind): boolean => kind === "prompt" || kind === "collect";

/** The keys a step of this kind may carry. */
export function keysOf(kind: StepKind): readonly string[] {
  const group = kind === "prompt" || kind === "collect" ? "talk" : kind;
  return [...BASE_STEP_KEYS, ...STEP_KEYS[group]];
}
