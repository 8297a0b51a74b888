// `agentLens.*` settings, read per workspace folder through workspace/configuration and normalized so a
// missing or mistyped value falls back to its default instead of breaking anything.
import { FINDING_CODES, type FindingCode, type Severity } from "../analysis/types";
import type { SeverityOverrides } from "../analysis/api";

export type SeveritySetting = Severity | "hint" | "off";

export interface Settings {
  enable: boolean;
  debounceMs: number;
  severity: Partial<Record<FindingCode, SeveritySetting>>;
  testGlobs: string[];
}

export const DEFAULT_SETTINGS: Settings = Object.freeze({
  enable: true,
  debounceMs: 150,
  severity: {},
  testGlobs: ["**/*.{test,spec,eval}.{ts,mts,js,mjs}"],
});

const SEVERITIES: ReadonlySet<string> = new Set(["error", "warning", "info", "hint", "off"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Accepts the `agentLens` section as VS Code returns it (nested objects) and also flat dotted keys
 * (`"diagnostics.debounceMs": 0`), which some clients send.
 */
export function normalizeSettings(raw: unknown): Settings {
  const section = isRecord(raw) ? raw : {};
  const diagnostics = isRecord(section.diagnostics) ? section.diagnostics : {};
  const pick = (nested: unknown, flat: string) => (nested !== undefined ? nested : section[flat]);

  const enable = pick(section.enable, "enable");
  const debounce = pick(diagnostics.debounceMs, "diagnostics.debounceMs");
  const severityRaw = pick(diagnostics.severity, "diagnostics.severity");
  const globs = pick(section.testGlobs, "testGlobs");

  const severity: Settings["severity"] = {};
  if (isRecord(severityRaw)) {
    for (const [code, value] of Object.entries(severityRaw)) {
      if (code in FINDING_CODES && typeof value === "string" && SEVERITIES.has(value)) severity[code as FindingCode] = value as SeveritySetting;
    }
  }
  return {
    enable: typeof enable === "boolean" ? enable : DEFAULT_SETTINGS.enable,
    debounceMs: typeof debounce === "number" && Number.isFinite(debounce) && debounce >= 0 ? Math.min(debounce, 10_000) : DEFAULT_SETTINGS.debounceMs,
    severity,
    testGlobs: Array.isArray(globs) && globs.every((g) => typeof g === "string") ? (globs as string[]) : [...DEFAULT_SETTINGS.testGlobs],
  };
}

/** The analysis knows error/warning/info/off; "hint" is an LSP-only severity applied when converting. */
export function analysisOverrides(settings: Settings): SeverityOverrides {
  const out: SeverityOverrides = {};
  for (const [code, value] of Object.entries(settings.severity) as Array<[FindingCode, SeveritySetting]>) {
    out[code] = value === "hint" ? "info" : value;
  }
  return out;
}

export function hintCodes(settings: Settings): Set<string> {
  return new Set(Object.entries(settings.severity).filter(([, v]) => v === "hint").map(([k]) => k));
}

export function sameSettings(a: Settings, b: Settings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
