// Settings from a VS Code settings file (`<folder>/.vscode/settings.json`, or the file `--config` names):
// JSONC read with jsonc-parser (comments, trailing commas). Keys are VS Code's: `"agentLens.x.y": value`
// (flat), or an `"agentLens": { ... }` object. This is how the CLI sees what the editor sees, and the
// language server's base layer for clients that do not answer `workspace/configuration`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { isRecord, SECTION } from "./schema";

const SETTINGS_FILE = join(".vscode", "settings.json");

/** Settings whose value is a map (per finding code, per model): layered key by key, never walked into. */
const MAP_SETTINGS: readonly string[] = ["diagnostics.severity", "run.modelPrices"];

export interface SettingsFile {
  /** The file read (absolute), or undefined when there was none. */
  file?: string;
  /** The `agentLens` section (flat keys without the prefix, merged over a nested object). */
  section: Record<string, unknown>;
  /** Why the file could not be read (or read only in part), naming the file. */
  problems: string[];
}

/** Reads a settings file. A missing file is no problem when `optional` (the default folder file). */
export function readSettingsFile(file: string, optional = false): SettingsFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { section: {}, problems: missing && optional ? [] : [`${file}: cannot be read (${missing ? "no such file" : (error as Error).message})`] };
  }
  return { file, ...sectionOfText(text, file) };
}

/** The settings file of a folder (`.vscode/settings.json`), when there is one. */
export function readFolderSettings(folder: string): SettingsFile {
  return readSettingsFile(join(folder, SETTINGS_FILE), true);
}

function sectionOfText(text: string, file: string): { section: Record<string, unknown>; problems: string[] } {
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const problems = errors.slice(0, 3).map((e) => `${file}: ${printParseErrorCode(e.error)} at offset ${e.offset}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ""}`);
  if (!isRecord(root)) return { section: {}, problems: problems.length ? problems : [`${file}: not a JSON object`] };
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(root)) if (key.startsWith(`${SECTION}.`)) flat[key.slice(SECTION.length + 1)] = value;
  // A flat key wins over the same setting inside an `agentLens` object.
  return { section: layerSections(isRecord(root[SECTION]) ? root[SECTION] : {}, flat), problems };
}

/**
 * Lays `over` on `base` (both sections, nested or flat): a key `over` gives wins; severity maps merge per code,
 * model price maps per model.
 * The language server uses it to put what the client answered over the folder's file.
 */
export function layerSections(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const flat = (section: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    const walk = (node: Record<string, unknown>, prefix: string) => {
      for (const [key, value] of Object.entries(node)) {
        const path = prefix ? `${prefix}.${key}` : key;
        // Objects are walked except the maps that are values of their own (merged below).
        if (isRecord(value) && !MAP_SETTINGS.includes(path)) walk(value, path);
        else out[path] = value;
      }
    };
    walk(section, "");
    return out;
  };
  const a = flat(base);
  const b = flat(over);
  const merged: Record<string, unknown> = { ...a, ...b };
  for (const key of MAP_SETTINGS) {
    const sa = a[key];
    const sb = b[key];
    if (isRecord(sa) && isRecord(sb)) merged[key] = { ...sa, ...sb };
  }
  return merged;
}
