// A generated program (a keyless seam run, explore paths) lives in a temporary folder; nothing about it
// should reach the user. Every location in it maps back to what it was generated for (the request or
// machine the lens sits on), and its path and file name in any text become that place or a plain label.
// Pure.
import type { HarnessEvent, SourceLocation } from "@agent-lens/protocol";

export interface GeneratedOrigin {
  /** The generated file (absolute). */
  entry: string;
  /** Where the lens that generated it sits (1-based). */
  origin: SourceLocation;
  /** What to call it where a name is needed: "keyless seam run of summarize". */
  label: string;
}

export function mapGeneratedEvents(events: readonly HarnessEvent[], generated: GeneratedOrigin): HarnessEvent[] {
  const { entry, origin, label } = generated;
  const name = entry.split(/[\\/]/).pop() ?? entry;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const withPosition = new RegExp(`(?:file://)?${escape(entry)}(?::\\d+){1,2}`, "g");
  const bare = new RegExp(`(?:file://)?${escape(entry)}`, "g");
  const alone = new RegExp(`(?<![\\w./-])${escape(name)}(?::\\d+){0,2}(?![\\w.-])`, "g");
  const at = `${origin.file}:${origin.line}`;
  const text = (s: string) => s.replace(withPosition, at).replace(bare, origin.file).replace(alone, label);
  const isEntry = (file: string) => file === entry || file.replace(/\\/g, "/") === entry.replace(/\\/g, "/");
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === "string") return key === "file" && isEntry(value) ? origin.file : text(value);
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (!value || typeof value !== "object") return value;
    const o = value as Record<string, unknown>;
    // A location inside the generated file is the origin, line and column included.
    if (typeof o.file === "string" && isEntry(o.file) && typeof o.line === "number") return { ...o, file: origin.file, line: origin.line, column: origin.column };
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v, k)]));
  };
  return events.map((e) => walk(e) as HarnessEvent);
}
