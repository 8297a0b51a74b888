// Tools and actions registered on an agent: normalised to maps, tool parameters turned into JSON schema,
// tool arguments validated when the schema can validate.
import type { ActionDef, ActionHandler, JsonSchema, ToolDef, ToolDefinition, ToolParameters, ToolSpec } from "./types";
import { DefinitionError } from "./errors";

interface StandardSchemaLike {
  /** `jsonSchema`: the Standard JSON Schema converter (zod 4 and others implement it). */
  toJSONSchema?: () => unknown;
  "~standard": { jsonSchema?: { input?: (options: { target: string }) => Record<string, unknown> }; validate(value: unknown): { value?: unknown; issues?: ReadonlyArray<{ message: string }> } | Promise<{ value?: unknown; issues?: ReadonlyArray<{ message: string }> }> };
}

const isStandard = (p: ToolParameters | undefined): p is ToolParameters & StandardSchemaLike =>
  !!p && typeof p === "object" && "~standard" in p && typeof (p as StandardSchemaLike)["~standard"]?.validate === "function";

export function toolsMap<D>(tools: readonly ToolDef<D>[] | Record<string, ToolSpec<D>> | undefined): Map<string, ToolDef<D>> {
  const map = new Map<string, ToolDef<D>>();
  if (!tools) return map;
  const list: ToolDef<D>[] = Array.isArray(tools) ? [...(tools as readonly ToolDef<D>[])] : Object.entries(tools as Record<string, ToolSpec<D>>).map(([name, spec]) => ({ ...spec, name }));
  for (const t of list) {
    if (!t || typeof t.name !== "string" || typeof t.run !== "function") throw new DefinitionError("bad-option", `A tool needs a name and a run function (got ${JSON.stringify(t?.name)}).`);
    if (map.has(t.name)) throw new DefinitionError("duplicate-tool", `Two tools are named "${t.name}".`);
    map.set(t.name, t);
  }
  return map;
}

export function actionsMap<D>(actions: readonly ActionDef<D>[] | Record<string, ActionHandler<D> | ActionDef<D>> | undefined): Map<string, ActionHandler<D>> {
  const map = new Map<string, ActionHandler<D>>();
  if (!actions) return map;
  const list: Array<[string, ActionHandler<D>]> = Array.isArray(actions)
    ? (actions as readonly ActionDef<D>[]).map((a) => [a?.name, a?.handler])
    : Object.entries(actions as Record<string, ActionHandler<D> | ActionDef<D>>).map(([name, a]) => [name, typeof a === "function" ? a : a?.handler]);
  for (const [name, handler] of list) {
    if (typeof name !== "string" || typeof handler !== "function") throw new DefinitionError("bad-option", `An action needs a name and a handler (got ${JSON.stringify(name)}).`);
    if (map.has(name)) throw new DefinitionError("duplicate-action", `Two actions are named "${name}".`);
    map.set(name, handler);
  }
  return map;
}

export function toolDefinition(tool: ToolDef<any>): ToolDefinition {
  return { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters: parametersSchema(tool.parameters) };
}

function parametersSchema(p: ToolParameters | undefined): JsonSchema {
  if (!p) return { type: "object", properties: {} };
  if (isStandard(p)) {
    // The Standard JSON Schema converter, or a schema's own toJSONSchema(); no schema library is imported here.
    try {
      const converted = p["~standard"].jsonSchema?.input?.({ target: "draft-2020-12" }) ?? p.toJSONSchema?.();
      if (converted && typeof converted === "object") return converted as JsonSchema;
    } catch {
      // fall through
    }
    return { type: "object" };
  }
  return p as JsonSchema;
}

/** Validated arguments, or the validation problem as text. */
export async function validateArgs(tool: ToolDef<any>, args: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  if (!isStandard(tool.parameters)) return { ok: true, value: args };
  const r = await tool.parameters["~standard"].validate(args);
  if (r.issues?.length) return { ok: false, error: r.issues.map((i) => i.message).join("; ") };
  return { ok: true, value: r.value };
}
