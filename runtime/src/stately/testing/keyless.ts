// Zero-setup seam runs: example answers built from each request's output schema (zod 4 introspection),
// and a listing of a machine's requests for tooling.
import { isStringSchema, isZodSchema, toJsonSchema } from "../schema";
import type { AnyStateMachine } from "../xstate";
import { machineInfo } from "./machine-info";
import type { SeamScriptEntry } from "./script-entry";

/** An example value of a schema: strings "example", numbers 0 (or their minimum), booleans false,
 *  enums and unions their first option, arrays one element, nullable / optional → null / undefined. */
export function exampleOf(schema: unknown, depth = 0): unknown {
  if (!isZodSchema(schema) || depth > 8) return "example";
  const def = schema.def as unknown as Record<string, any>;
  switch (def.type) {
    case "string": return "example";
    case "number": case "int": {
      const min = (schema as unknown as { minValue?: number | null }).minValue;
      return typeof min === "number" && Number.isFinite(min) ? min : 0;
    }
    case "bigint": return 0;
    case "boolean": return false;
    case "null": return null;
    case "undefined": case "void": return undefined;
    case "literal": return def.values?.[0];
    case "enum": return Object.values(def.entries ?? {})[0];
    case "nullable": return null;
    case "optional": return exampleOf(def.innerType, depth + 1);
    case "default": return typeof def.defaultValue === "function" ? def.defaultValue() : def.defaultValue;
    case "array": return [exampleOf(def.element, depth + 1)];
    case "tuple": return (def.items ?? []).map((item: unknown) => exampleOf(item, depth + 1));
    case "union": return exampleOf(def.options?.[0], depth + 1);
    case "record": return {};
    case "map": return {};
    case "set": return [];
    case "date": return new Date(0).toISOString();
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(def.shape ?? {})) {
        if (isZodSchema(value) && (value.def as { type: string }).type === "optional") continue;
        out[key] = exampleOf(value, depth + 1);
      }
      return out;
    }
    case "pipe": return exampleOf(def.in, depth + 1);
    case "lazy": return exampleOf(def.getter?.(), depth + 1);
    case "readonly": case "catch": case "nonoptional": case "prefault": return exampleOf(def.innerType, depth + 1);
    default: return null;
  }
}

export interface AgentRequestDescription {
  /** The name scripts and seams use; undefined for an inline agent.decide named by its input. */
  name: string | undefined;
  invokeId: string;
  kind: "text" | "decision";
  model: string | undefined;
  /** The state (dotted path) that invokes it. */
  state: string;
  /** "string" for plain text; otherwise the output's JSON Schema (zod) or "unknown". */
  output: "string" | Record<string, unknown> | "unknown";
  /** The scripts key a keyless run uses: the name, else the model key. */
  scriptKey: string | undefined;
}

/** Lists a machine's requests (text and decisions) from the artifact, without running it. */
export function describeAgentMachine(machine: AnyStateMachine): { requests: AgentRequestDescription[]; states: string[] } {
  const info = machineInfo(machine);
  return {
    states: info.states,
    requests: info.requests.map((r) => ({
      name: r.name,
      invokeId: r.invokeId,
      kind: r.kind,
      model: r.model,
      state: r.state,
      output: r.kind === "decision" ? "unknown" : !r.outputSchema || (isZodSchema(r.outputSchema) && (r.outputSchema.def as { type: string }).type === "string") ? "string" : toJsonSchema(r.outputSchema) ?? "unknown",
      scriptKey: r.kind === "text" ? r.name ?? r.model : undefined,
    })),
  };
}

/**
 * Scripts for a keyless seam run: one entry per text request, keyed by its name, answering with an
 * example of its output schema. Pass with `repeatLast: true` so loops replay the same answer. An
 * output that is itself `{ result }` is wrapped once more, as entries require.
 */
export function keylessScripts(machine: AnyStateMachine): Record<string, SeamScriptEntry[]> {
  const scripts: Record<string, SeamScriptEntry[]> = {};
  for (const r of machineInfo(machine).requests) {
    if (r.kind !== "text" || !r.name || scripts[r.name]) continue;
    const example = isStringSchema(r.outputSchema) ? `Example answer for ${r.name}.` : exampleOf(r.outputSchema);
    const needsWrap = typeof example === "object" && example !== null && !Array.isArray(example) && Object.keys(example).includes("result") &&
      Object.keys(example).every((k) => ["result", "messages", "usage", "raw"].includes(k));
    scripts[r.name] = [(needsWrap ? { result: example } : example) as SeamScriptEntry];
  }
  return scripts;
}
