// Secrets never reach a recording or an event: before a call leaves the child (or is compared with a
// recording) the values of environment variables whose names contain KEY, TOKEN, SECRET or PASSWORD
// (8 characters or more: shorter values are too likely to be ordinary words) are replaced by "[redacted]"
// wherever they occur in a string, and so is the value of any property named like a credential. The
// environment is read at each call: an eval file that loads its own .env (`import "dotenv/config"`) sets
// its keys after the harness started.

export const REDACTED = "[redacted]";

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;
const SECRET_PROPERTY = /^((x-)?(goog-)?api[-_]?key|authorization|proxy-authorization|cookie|set-cookie)$/i;
const MIN_SECRET_LENGTH = 8;

// The names are looked for again only when the number of variables changed (a scan costs ~50 µs, the count
// ~12 µs, reading the few secret variables ~1 µs): values are read every time, names kept in between.
let cachedNames: { env: object; count: number; names: string[] } | undefined;

function secretNames(env: Record<string, string | undefined>): string[] {
  const keys = Object.keys(env);
  if (cachedNames?.env === env && cachedNames.count === keys.length) return cachedNames.names;
  const names = keys.filter((name) => SECRET_NAME.test(name));
  cachedNames = { env, count: keys.length, names };
  return names;
}

/** The secret values of an environment, longest first (so a key containing another is replaced whole). */
export function secretValues(env: Record<string, string | undefined> = process.env): string[] {
  const values = new Set<string>();
  for (const name of secretNames(env)) {
    const value = env[name];
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** A copy of plain data with every secret replaced. */
export function redact<T>(value: T, secrets: readonly string[] = secretValues()): T {
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0 && typeof value !== "object") return value;
  if (typeof value === "string") {
    let out = value;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_PROPERTY.test(key) && v !== null && v !== undefined && v !== "" ? REDACTED : walk(v, secrets);
  return out;
}
