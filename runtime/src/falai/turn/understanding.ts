// What the understand call answered, read leniently: a malformed section counts as empty, never as a crash.

export interface Understanding {
  /** flowId → 0–100 fit of the message. */
  flows?: Record<string, number>;
  /** flowId → the customer brought it up. */
  mentions?: Record<string, boolean>;
  /** flowId → values for the mention's `extract`. */
  extract?: Record<string, Record<string, unknown>>;
  /** `${runId}/${stepId}/${index}` → the branch's `when` holds. */
  branches?: Record<string, boolean>;
  /** field → the raw value the customer gave. */
  fields?: Record<string, unknown>;
  /** The message asks something (judged only while a fixed question could go out). */
  asks?: boolean;
}

const section = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The envelope as structured data. Branch answers arrive under their full key (`runId/stepId/index`) or under the
 * short alias (`q1`, `q2`, …) the call offered; aliases are mapped back through `aliases`.
 */
export function readUnderstanding(raw: unknown, aliases: ReadonlyMap<string, string>): Understanding {
  const env = section(raw);
  const flows: Record<string, number> = {};
  for (const [id, score] of Object.entries(section(env.flows))) {
    const n = typeof score === "number" ? score : typeof score === "string" ? Number(score) : NaN;
    if (Number.isFinite(n)) flows[id] = n;
  }
  const mentions: Record<string, boolean> = {};
  for (const [id, v] of Object.entries(section(env.mentions))) mentions[id] = v === true;
  const extract: Record<string, Record<string, unknown>> = {};
  for (const [id, v] of Object.entries(section(env.extract))) extract[id] = section(v);
  const branches: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(section(env.branches))) branches[aliases.get(k) ?? k] = v === true;
  return { flows, mentions, extract, branches, fields: section(env.fields), ...(typeof env.asks === "boolean" ? { asks: env.asks } : {}) };
}

/** The structured reply, or the message parsed as JSON when the provider gave text only. */
export function structuredOf(out: { message: string; structured?: unknown }): Record<string, unknown> {
  if (out.structured && typeof out.structured === "object" && !Array.isArray(out.structured)) return out.structured as Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(out.message);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // plain text
  }
  return {};
}
