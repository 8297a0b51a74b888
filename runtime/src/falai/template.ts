// Templates: `{{data.x}}`, `{{context.a.b}}` and `{{input.x}}` filled in from the turn. An unknown path keeps its
// placeholder (a typo stays visible); a blank one (an empty string, or a path that walks through null/undefined)
// drops out together with the space or comma it leaves behind.

export interface TemplateScope {
  data: unknown;
  context: unknown;
  input: unknown;
}

const PLACEHOLDER = /\{\{\s*(data|context|input)((?:\.[^.{}\s]+)*)\s*\}\}/g;
const BLANK = Symbol("blank");

function lookup(scope: TemplateScope, root: "data" | "context" | "input", path: string): unknown {
  let value: unknown = scope[root];
  const parts = path ? path.slice(1).split(".") : [];
  for (let i = 0; i < parts.length; i++) {
    if (value === null || value === undefined) return i === 0 ? undefined : BLANK; // walked through a null: blank
    if (typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[parts[i]!];
  }
  if (value === "") return BLANK;
  return value;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
}

export function renderTemplate(template: string, scope: TemplateScope): string {
  if (!template.includes("{{")) return template;
  let blanks = false;
  const out = template.replace(PLACEHOLDER, (whole, root: "data" | "context" | "input", path: string) => {
    const value = lookup(scope, root, path);
    if (value === BLANK) {
      blanks = true;
      return "\u0000";
    }
    return value === undefined || value === null ? whole : text(value);
  });
  if (!blanks) return out;
  // Close the gap a blank left: " \0," → ",", " \0" → "", "\0 " at the start → "".
  return out.replace(/ ?\u0000(?=[,.;:!?)])/g, "").replace(/ \u0000|\u0000 ?/g, "").replace(/\( /g, "(");
}

/** Renders every string inside a value, at any depth (for a `do` step's `with`). */
export function renderDeep(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === "string") return renderTemplate(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, scope)]));
  return value;
}
