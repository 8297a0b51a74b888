// A raw value the model gave becomes the field's type, or is dropped with a code (runtime/README.md,
// "Field coercion"). Known = not undefined, null or ''.
import type { ScalarDef } from "./types";

export type Coerced =
  | { ok: true; value: string | number | boolean }
  | { ok: false; code: "bad-value" | "not-in-enum" }
  /** null / undefined / '': the customer did not give it. */
  | { ok: "absent" };

const TRUE_WORDS = new Set(["true", "sim", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "não", "nao", "no", "0"]);
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?$/;
const COMMA_DECIMAL = /^[+-]?\d+,\d+$/;

export const isKnown = (value: unknown): boolean => value !== undefined && value !== null && value !== "";

/** A numeric string: "30", "1.5", "1,5" (one comma is the decimal mark). Anything else (units, words, "1.500,50") → undefined. */
function parseNumberText(text: string): number | undefined {
  const t = text.trim();
  const normal = COMMA_DECIMAL.test(t) ? t.replace(",", ".") : PLAIN_NUMBER.test(t) ? t : undefined;
  if (normal === undefined) return undefined;
  const n = Number(normal);
  return Number.isFinite(n) ? n : undefined;
}

function toType(def: ScalarDef, raw: unknown): string | number | boolean | undefined {
  switch (def.type) {
    case "string":
      return typeof raw === "string" ? raw : typeof raw === "number" || typeof raw === "boolean" ? String(raw) : undefined;
    case "number":
    case "integer": {
      const n = typeof raw === "number" ? (Number.isFinite(raw) ? raw : undefined) : typeof raw === "string" ? parseNumberText(raw) : undefined;
      return n === undefined ? undefined : def.type === "integer" ? Math.trunc(n) : n;
    }
    case "boolean": {
      if (typeof raw === "boolean") return raw;
      if (typeof raw !== "string") return undefined;
      const word = raw.trim().toLowerCase();
      return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : undefined;
    }
  }
}

export function coerceField(def: ScalarDef, raw: unknown): Coerced {
  if (!isKnown(raw)) return { ok: "absent" };
  const value = toType(def, raw);
  if (value === undefined) return { ok: false, code: "bad-value" };
  if (def.enum && !def.enum.includes(value as string | number)) return { ok: false, code: "not-in-enum" };
  return { ok: true, value };
}
