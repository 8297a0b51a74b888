// Schema helpers over Standard Schema (zod 4 implements it): synchronous validation with readable
// issues, and zod 4 introspection where the runtime needs to know a schema's shape.
import { z } from "zod";
import type { StandardSchemaV1 } from "./xstate";

export type Issue = { path: string; message: string };

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** True for a Standard Schema (zod 4, valibot, arktype, a hand-written validator). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { "~standard"?: { validate?: unknown } } | null)?.["~standard"];
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof standard?.validate === "function";
}

export function validate<T = unknown>(schema: StandardSchemaV1 | undefined, value: unknown): ValidationResult<T> {
  if (!schema) return { ok: true, value: value as T };
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) {
    throw new TypeError("Asynchronous schemas are not supported by @statelyai/agent: use a synchronous schema.");
  }
  if (result.issues) {
    return {
      ok: false,
      issues: result.issues.map((issue) => ({
        path: (issue.path ?? []).map((p) => (typeof p === "object" && p !== null ? String(p.key) : String(p))).join("."),
        message: issue.message,
      })),
    };
  }
  return { ok: true, value: result.value as T };
}

export function describeIssues(issues: Issue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
}

/** A zod 4 schema, recognised by shape rather than instanceof: the user's zod copy may not be ours. */
export function isZodSchema(schema: unknown): schema is z.ZodType {
  if (schema instanceof z.ZodType) return true;
  const s = schema as { _zod?: { def?: { type?: unknown } }; def?: { type?: unknown } } | null;
  return typeof s === "object" && s !== null && typeof s._zod === "object" && typeof s.def?.type === "string";
}

/** True for a schema whose values are strings (the default output of a text request). */
export function isStringSchema(schema: StandardSchemaV1 | undefined): boolean {
  if (!schema) return true;
  return isZodSchema(schema) && schema.def.type === "string";
}

/** The JSON Schema of a zod schema, for prompts, tools and the editor; undefined for other schemas. */
export function toJsonSchema(schema: StandardSchemaV1 | undefined): Record<string, unknown> | undefined {
  if (!schema || !isZodSchema(schema)) return undefined;
  try {
    return z.toJSONSchema(schema, { unrepresentable: "any" }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
