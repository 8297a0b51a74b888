// Field coercion: the raw value a provider extracted becomes the field's type, or is dropped with a code.
// The table is in runtime/README.md ("Field coercion").
import type { FieldSpec } from "./types";

export type Coerced =
  | { ok: true; value: string | number | boolean }
  | { ok: false; code: "bad-value" | "not-in-enum"; reason: string }
  /** null / undefined / empty text: the customer did not give it. */
  | { ok: "absent" };

const TRUE_WORDS = new Set(["true", "yes", "y", "sim", "s", "1", "on", "verdadeiro", "claro", "isso"]);
const FALSE_WORDS = new Set(["false", "no", "n", "nao", "0", "off", "falso"]);

/** Lower case, no accents, trimmed: "Não " → "nao". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim().toLowerCase();
}

/**
 * A number written by a person: "1,5" and "1.5" → 1.5; "1.234,5" and "1,234.5" → 1234.5;
 * "1.000.000" → 1000000. With both separators the last one is the decimal mark; a lone comma is the
 * decimal mark; repeated identical separators group thousands. Anything else (words, units) → undefined.
 */
export function parseHumanNumber(text: string): number | undefined {
  const t = text.trim().replace(/[\s\u00a0]/g, "");
  if (!/^[+-]?(\d[\d.,]*)$/.test(t) || /[.,]$/.test(t)) return undefined;
  const lastDot = t.lastIndexOf(".");
  const lastComma = t.lastIndexOf(",");
  let normal: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? "." : ",";
    const group = decimal === "." ? "," : ".";
    if (t.indexOf(decimal) !== t.lastIndexOf(decimal)) return undefined;
    normal = t.split(group).join("").replace(decimal, ".");
  } else if (lastComma >= 0) {
    const commas = t.split(",").length - 1;
    normal = commas === 1 ? t.replace(",", ".") : groupedOrUndefined(t, ",");
  } else if (lastDot >= 0) {
    const dots = t.split(".").length - 1;
    normal = dots === 1 ? t : groupedOrUndefined(t, ".");
  } else {
    normal = t;
  }
  if (!normal) return undefined;
  const n = Number(normal);
  return Number.isFinite(n) ? n : undefined;
}

/** "1.000.000" → "1000000" when every group after the first has three digits; "" otherwise. */
function groupedOrUndefined(t: string, sep: string): string {
  const [head, ...rest] = t.replace(/^[+-]/, "").split(sep);
  if (!head || head.length > 3 || rest.some((g) => g.length !== 3)) return "";
  return t.split(sep).join("");
}

export function coerceField(spec: FieldSpec, raw: unknown): Coerced {
  if (raw === null || raw === undefined) return { ok: "absent" };
  if (typeof raw === "string" && raw.trim() === "") return { ok: "absent" };
  switch (spec.type) {
    case "string": {
      if (typeof raw === "string") return { ok: true, value: raw.trim() };
      if (typeof raw === "number" || typeof raw === "boolean") return { ok: true, value: String(raw) };
      return { ok: false, code: "bad-value", reason: "not text" };
    }
    case "number": {
      if (typeof raw === "number") return Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, code: "bad-value", reason: "not a finite number" };
      if (typeof raw === "string") {
        const n = parseHumanNumber(raw);
        return n === undefined ? { ok: false, code: "bad-value", reason: "not a number" } : { ok: true, value: n };
      }
      return { ok: false, code: "bad-value", reason: "not a number" };
    }
    case "boolean": {
      if (typeof raw === "boolean") return { ok: true, value: raw };
      if (raw === 1 || raw === 0) return { ok: true, value: raw === 1 };
      if (typeof raw === "string") {
        const word = fold(raw);
        if (TRUE_WORDS.has(word)) return { ok: true, value: true };
        if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      }
      return { ok: false, code: "bad-value", reason: "not a yes or no" };
    }
    case "enum": {
      if (typeof raw !== "string" && typeof raw !== "number" && typeof raw !== "boolean") return { ok: false, code: "bad-value", reason: "not a single value" };
      const text = String(raw);
      if (spec.values.includes(text)) return { ok: true, value: text };
      const folded = fold(text);
      const match = spec.values.find((v) => fold(v) === folded);
      return match !== undefined ? { ok: true, value: match } : { ok: false, code: "not-in-enum", reason: `not one of ${spec.values.map((v) => JSON.stringify(v)).join(", ")}` };
    }
  }
}
