// Plain JSON from anything user code hands us: cycles, BigInt, functions, Errors, Maps and Sets, class
// instances, symbols and undefined inside arrays are turned into readable JSON values — and JSON text from
// that, for the result channel. Both use only the built-ins captured before user code loaded
// (./primordials.ts), and the values made here have no prototype, so nothing user code patches later (a
// prototype's method, Object.keys, Object.prototype.toJSON, JSON.stringify) can change a frame.
import { P } from "./primordials";

const MAX_DEPTH = 40;
const MAX_STRING = 100_000;
const MAX_ITEMS = 2_000;

type Safe = null | string | number | boolean | Safe[] | { [key: string]: Safe };

export function toJsonSafe(value: unknown): unknown {
  return convert(value, list(), 0);
}

/** What a frame's text must not carry (runtime/src/shared/recording/redact.ts, done here with the captured
 *  built-ins): these values wherever they occur in a string, and the value of any credential-named key.
 *  `whole`: no string, list or depth is cut short (a model call, which a recording must keep exactly). */
export interface Redaction {
  secrets: readonly string[];
  whole?: boolean;
}

let redaction: Redaction | undefined;

/** JSON text of a value made by toJsonSafe (or of plain data made by the harness itself, which is
 *  converted first), without consulting any toJSON or any global. */
export function encodeJson(value: unknown, redact?: Redaction): string {
  redaction = redact;
  try {
    return encode(convert(value, list(), 0));
  } finally {
    redaction = undefined;
  }
}

const REDACTED = "[redacted]";
// Lower-cased credential names (redact.ts's list), looked up in an object without a prototype.
const CREDENTIAL_KEYS: Record<string, true> = P.create(null) as Record<string, true>;
for (const k of ["apikey", "api_key", "api-key", "x-api-key", "x-goog-api-key", "authorization", "proxy-authorization", "cookie", "set-cookie"]) CREDENTIAL_KEYS[k] = true;

function withoutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (let i = 0; i < secrets.length; i++) {
    const secret = secrets[i]!;
    if (!secret) continue;
    let at = P.stringIndexOf(out, secret, 0);
    while (at >= 0) {
      out = `${P.stringSlice(out, 0, at)}${REDACTED}${P.stringSlice(out, at + secret.length)}`;
      at = P.stringIndexOf(out, secret, at + REDACTED.length);
    }
  }
  return out;
}

function encode(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return P.stringify(value);
    case "number":
      return `${value}`;
    case "boolean":
      return value ? "true" : "false";
  }
  if (P.isArray(value)) {
    const items = value as unknown[];
    let out = "[";
    for (let i = 0; i < items.length; i++) out += `${i ? "," : ""}${encode(items[i])}`;
    return `${out}]`;
  }
  const keys = P.keys(value as object);
  let out = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    out += `${first ? "" : ","}${P.stringify(key)}:${encode(item)}`;
    first = false;
  }
  return `${out}}`;
}

/** A fresh object with no prototype (an own key named `__proto__` stays a key). */
function record(): Record<string, Safe> {
  return P.create(null) as Record<string, Safe>;
}

/** A fresh array with no prototype: storing an element cannot reach a setter put on Array.prototype. */
function list<T>(): T[] {
  const out: T[] = [];
  P.setPrototypeOf(out, null);
  return out;
}

/** A toJSON method the value's own data provides: its own, or its class's — never one put on
 *  Object.prototype or Array.prototype, which would apply to every object the harness sends. */
function ownToJson(obj: object): ((this: unknown) => unknown) | undefined {
  for (let at: object | null = obj; at && at !== P.objectPrototype && at !== P.arrayPrototype; at = P.getPrototypeOf(at) as object | null) {
    if (P.apply(P.hasOwn, at, ["toJSON"])) {
      const fn = (at as { toJSON?: unknown }).toJSON;
      return typeof fn === "function" ? (fn as (this: unknown) => unknown) : undefined;
    }
  }
  return undefined;
}

function read(obj: object, key: string): unknown {
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return "[getter threw]";
  }
}

function convert(value: unknown, ancestors: object[], depth: number): Safe | undefined {
  switch (typeof value) {
    case "string": {
      const text = redaction ? withoutSecrets(value, redaction.secrets) : value;
      return text.length > MAX_STRING && !redaction?.whole ? `${P.stringSlice(text, 0, MAX_STRING)}… (${text.length} chars)` : text;
    }
    case "number":
      return P.isFinite(value) ? value : `${value}`;
    case "boolean":
      return value;
    case "bigint":
      return `${P.bigintToString(value)}n`;
    case "undefined":
      return undefined;
    case "symbol":
      return P.symbolToString(value);
    case "function": {
      const name = read(value, "name");
      return `[Function ${typeof name === "string" && name ? name : "anonymous"}]`;
    }
  }
  if (value === null) return null;
  const obj = value as object;
  for (let i = 0; i < ancestors.length; i++) if (ancestors[i] === obj) return "[Circular]";
  if (depth >= MAX_DEPTH && !redaction?.whole) return "[…]";
  const inner = (v: unknown) => {
    ancestors[ancestors.length] = obj;
    try {
      return convert(v, ancestors, depth + 1);
    } finally {
      ancestors.length--;
    }
  };
  try {
    if (P.isDate(obj)) return P.dateIsValid(obj as Date) ? P.dateToIso(obj) : "Invalid Date";
    if (P.isNativeError(obj)) {
      const out = record();
      out.name = inner(read(obj, "name")) ?? null;
      out.message = inner(read(obj, "message")) ?? null;
      copyKeys(obj, out, inner);
      return out;
    }
    if (P.isArray(obj)) {
      const items = obj as unknown[];
      const out = list<Safe>();
      const n = items.length < MAX_ITEMS || redaction?.whole ? items.length : MAX_ITEMS;
      for (let i = 0; i < n; i++) out[i] = inner(read(items, `${i}`)) ?? null;
      if (n < items.length) out[n] = `… ${items.length - MAX_ITEMS} more`;
      return out;
    }
    if (P.isMap(obj)) {
      const pairs = list<Safe>();
      const it = P.mapEntries(obj);
      for (let step = P.mapIteratorNext(it); !step.done && pairs.length < MAX_ITEMS; step = P.mapIteratorNext(it)) {
        pairs[pairs.length] = [inner(step.value[0]) ?? null, inner(step.value[1]) ?? null];
      }
      const out = record();
      out["[Map]"] = pairs;
      return out;
    }
    if (P.isSet(obj)) {
      const items = list<Safe>();
      const it = P.setValues(obj);
      for (let step = P.setIteratorNext(it); !step.done && items.length < MAX_ITEMS; step = P.setIteratorNext(it)) items[items.length] = inner(step.value) ?? null;
      const out = record();
      out["[Set]"] = items;
      return out;
    }
    if (P.isView(obj)) {
      const ctor = read(obj, "constructor");
      const name = typeof ctor === "function" ? read(ctor, "name") : undefined;
      return `[${typeof name === "string" ? name : "TypedArray"} ${read(obj, "byteLength") as number} bytes]`;
    }
    const toJSON = ownToJson(obj);
    if (toJSON) {
      try {
        return inner(P.apply(toJSON, obj, [""]));
      } catch {
        return "[toJSON failed]";
      }
    }
    const out = record();
    copyKeys(obj, out, inner);
    return out;
  } catch {
    // A proxy whose traps throw, say: what the value is cannot be said.
    return "[unreadable]";
  }
}

function copyKeys(obj: object, out: Record<string, Safe>, inner: (v: unknown) => Safe | undefined): void {
  const keys = P.keys(obj);
  const n = keys.length < MAX_ITEMS || redaction?.whole ? keys.length : MAX_ITEMS;
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    const c = inner(read(obj, key));
    if (c === undefined) continue;
    out[key] = redaction && c !== null && c !== "" && CREDENTIAL_KEYS[P.stringToLowerCase(key)] === true ? REDACTED : c;
  }
  if (n < keys.length) out["…"] = `${keys.length - MAX_ITEMS} more keys`;
}
