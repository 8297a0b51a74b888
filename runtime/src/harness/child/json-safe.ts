// Plain JSON from anything user code hands us: cycles, BigInt, functions, Errors, Maps and Sets, class
// instances, symbols and undefined inside arrays are turned into readable JSON values.
const MAX_DEPTH = 40;
const MAX_STRING = 100_000;
const MAX_ITEMS = 2_000;

export function toJsonSafe(value: unknown): unknown {
  return convert(value, [], 0);
}

function convert(value: unknown, ancestors: object[], depth: number): unknown {
  switch (typeof value) {
    case "string":
      return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value;
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "boolean":
      return value;
    case "bigint":
      return `${value.toString()}n`;
    case "undefined":
      return undefined;
    case "symbol":
      return value.toString();
    case "function":
      return `[Function ${value.name || "anonymous"}]`;
  }
  if (value === null) return null;
  const obj = value as object;
  if (ancestors.includes(obj)) return "[Circular]";
  if (depth >= MAX_DEPTH) return "[…]";
  const next = [...ancestors, obj];
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? "Invalid Date" : obj.toISOString();
  if (obj instanceof Error) {
    const out: Record<string, unknown> = { name: obj.name, message: obj.message };
    for (const [k, v] of Object.entries(obj)) out[k] = convert(v, next, depth + 1);
    return out;
  }
  if (Array.isArray(obj)) {
    const items = obj.slice(0, MAX_ITEMS).map((v) => {
      const c = convert(v, next, depth + 1);
      return c === undefined ? null : c;
    });
    if (obj.length > MAX_ITEMS) items.push(`… ${obj.length - MAX_ITEMS} more`);
    return items;
  }
  if (obj instanceof Map) return { "[Map]": [...obj].slice(0, MAX_ITEMS).map(([k, v]) => [convert(k, next, depth + 1), convert(v, next, depth + 1)]) };
  if (obj instanceof Set) return { "[Set]": [...obj].slice(0, MAX_ITEMS).map((v) => convert(v, next, depth + 1)) };
  if (ArrayBuffer.isView(obj)) return `[${obj.constructor.name} ${obj.byteLength} bytes]`;
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function") {
    try {
      return convert((obj as { toJSON(): unknown }).toJSON(), next, depth + 1);
    } catch {
      return "[toJSON failed]";
    }
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const key of Object.keys(obj)) {
    if (n++ >= MAX_ITEMS) {
      out["…"] = `${Object.keys(obj).length - MAX_ITEMS} more keys`;
      break;
    }
    let v: unknown;
    try {
      v = (obj as Record<string, unknown>)[key];
    } catch {
      v = "[getter threw]";
    }
    const c = convert(v, next, depth + 1);
    if (c !== undefined) out[key] = c;
  }
  return out;
}
