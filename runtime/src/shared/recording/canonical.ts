// Plain JSON with every object's keys sorted: the form a call's input is recorded and compared in, so the
// same input always reads (and diffs) the same whatever order the code built it in. Undefined values and
// functions are left out (JSON.stringify drops them too); cycles, BigInts, Dates, Maps and Sets become
// readable JSON values.

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function canonical(value: unknown): unknown {
  return convert(value, [], true);
}

function convert(value: unknown, ancestors: object[], sort: boolean): unknown {
  switch (typeof value) {
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "bigint":
      return `${value}n`;
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "string":
    case "boolean":
      return value;
  }
  if (value === null) return null;
  const obj = value as object;
  if (ancestors.includes(obj)) return "[Circular]";
  const inner = [...ancestors, obj];
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? "Invalid Date" : obj.toISOString();
  if (Array.isArray(obj)) return obj.map((item) => convert(item, inner, sort) ?? null);
  if (obj instanceof Map) return convert(Object.fromEntries([...obj].map(([k, v]) => [String(k), v])), inner, sort);
  if (obj instanceof Set) return [...obj].map((item) => convert(item, inner, sort) ?? null);
  if (ArrayBuffer.isView(obj)) return `[${obj.constructor.name} ${obj.byteLength} bytes]`;
  if (obj instanceof Error) return convert({ ...obj, name: obj.name, message: obj.message }, inner, sort);
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function") return convert((obj as { toJSON(): unknown }).toJSON(), inner, sort);
  const out: Record<string, unknown> = {};
  const keys = Object.keys(obj);
  for (const key of sort ? keys.sort(compare) : keys) {
    const v = convert((obj as Record<string, unknown>)[key], inner, sort);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** The canonical form as one line of JSON (what inputs are compared by). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? "null";
}

/** Plain JSON in the original key order (what answers are kept in: an answer's key order is the model's). */
export function plainJson(value: unknown): unknown {
  return convert(value, [], false);
}
