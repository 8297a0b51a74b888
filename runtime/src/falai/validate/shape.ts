// Small shape checks shared by every definition validator. Each throws a FlowConfigurationError naming where the
// problem is and the key at fault; nothing the runtime does not understand is accepted and ignored.
import { FlowConfigurationError, type FlowConfigurationErrorCode } from "../errors";
import { tryParseDuration } from "../duration";

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const show = (v: unknown): string => (v === undefined ? "undefined" : typeof v === "string" ? JSON.stringify(v) : typeof v === "function" ? "a function" : JSON.stringify(v) ?? String(v));

export function fail(code: FlowConfigurationErrorCode, where: string, what: string, fix: string): never {
  throw new FlowConfigurationError(code, where, what, fix);
}

/** Every key of `obj` must be one of `allowed`. */
export function onlyKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string, what = "it"): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail("unknown-key", where, `unknown key "${key}"`, `${what[0]!.toUpperCase()}${what.slice(1)} takes ${allowed.map((k) => `\`${k}\``).join(", ")}; remove "${key}" or fix its name.`);
  }
}

export function objectAt(value: unknown, where: string, name: string): Record<string, unknown> {
  if (!isObject(value)) fail("bad-option", where, `${name} is ${show(value)}, not an object`, `Write ${name} as an object.`);
  return value;
}

export function listAt(value: unknown, where: string, name: string, fix = `Write ${name}: [...].`): unknown[] {
  if (!Array.isArray(value)) fail("bad-option", where, `${name} is ${show(value)}, not a list`, fix);
  return value;
}

export function textAt(value: unknown, where: string, name: string): string {
  if (typeof value !== "string") fail("bad-option", where, `${name} is ${show(value)}, not text`, `Write ${name} as a string.`);
  return value;
}

export function optionalText(obj: Record<string, unknown>, key: string, where: string): void {
  if (obj[key] !== undefined) textAt(obj[key], where, key);
}

export function optionalBoolean(obj: Record<string, unknown>, key: string, where: string): void {
  if (obj[key] !== undefined && typeof obj[key] !== "boolean") fail("bad-option", where, `${key} is ${show(obj[key])}, not a boolean`, "Write true or false.");
}

export function oneOf(value: unknown, values: readonly string[], where: string, name: string): void {
  if (!values.includes(value as string)) fail("bad-option", where, `${name} is ${show(value)}, which is not one of ${values.map((v) => `"${v}"`).join(", ")}`, "Use one of them.");
}

export function durationAt(value: unknown, where: string, name: string): number {
  const ms = tryParseDuration(value);
  if (ms === undefined) fail("bad-duration", where, `${name} has duration ${show(value)}, which does not parse`, 'Write a number and a unit: "30s", "5m", "24h" or "3d".');
  return ms;
}

export function fnAt(value: unknown, where: string, name: string): void {
  if (typeof value !== "function") fail("bad-option", where, `${name} is ${show(value)}, not a function`, `Pass a function as ${name}.`);
}
