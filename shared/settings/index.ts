// The one settings module: defaults (defaults.ts), the rules every reader applies (schema.ts), settings
// files (file.ts). Imported as `@agent-lens/settings` by the language server, the CLI and the VS Code
// client, so the same file gives the same findings and the same runs everywhere.
import { readFolderSettings, readSettingsFile, type SettingsFile } from "./file";
import { parseSettings, severityProblem, type SeverityOverrides, type SeveritySetting, type Settings } from "./schema";

export * from "./defaults";
export { DEFAULT_MODEL_PRICES, costOf, priceOf, type ModelPrice } from "./model-prices";
export { DEFAULT_SETTINGS, SEVERITY_SETTINGS, isRecord, parseSettings, sameSettings, type Settings, type SeveritySetting, type SeverityOverrides } from "./schema";
export { layerSections, readFolderSettings } from "./file";

export interface FileSettings {
  settings: Settings;
  /** The file read, if any. */
  file?: string;
  /** Everything worth telling the user: unreadable file, unusable values (each names the setting). */
  problems: string[];
}

/** The settings of a folder as the CLI sees them: `config` (a settings file) when given, else the folder's
 *  `.vscode/settings.json` when it has one, else the defaults. */
export function settingsOfFolder(folder: string, config?: string): FileSettings {
  const read: SettingsFile = config ? readSettingsFile(config) : readFolderSettings(folder);
  const { settings, problems } = parseSettings(read.section);
  return { settings, file: read.file, problems: [...read.problems, ...problems.map((p) => (read.file ? `${read.file}: ${p.message}` : p.message))] };
}

/** `agentLens.testGlobs` of a folder (its .vscode/settings.json, else the defaults). */
export function testGlobsOf(folder: string): string[] {
  return settingsOfFolder(folder).settings.testGlobs;
}

/** `--severity code=level` (the CLI's override of one code). Throws with a message naming the flag. */
export function parseSeverityFlag(text: string): [keyof SeverityOverrides, SeveritySetting] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new Error(`--severity needs code=level (e.g. unreachable-state=error), got "${text}"`);
  const code = text.slice(0, eq).trim();
  const level = text.slice(eq + 1).trim();
  const problem = severityProblem(code, level);
  if (problem) throw new Error(`--severity ${problem.replace(/: ignored\.$/, "")}`);
  return [code as keyof SeverityOverrides, level as SeveritySetting];
}
