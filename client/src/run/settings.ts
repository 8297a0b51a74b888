// The run settings as the editor applies them, through the one settings module (@agent-lens/settings):
// the same defaults and limits as `agent-lens run` reading .vscode/settings.json. A value the module cannot
// take as given is clamped or replaced here without a word: the language server, which reads every
// setting of every folder, says so once (one warning, from one place).
import type { RecordingsMode, RuntimeMode } from "@agent-lens/protocol";
import { parseSettings } from "@agent-lens/settings";

export interface RunSettings {
  timeoutMs: number;
  runtime: RuntimeMode;
  /** `agentLens.run.recordings` when not the default (`auto`); a Record run sets `record`. */
  recordings?: RecordingsMode;
  /** `agentLens.run.envFile` when set: a dotenv file relative to the workspace folder (the harness reads it). */
  envFile?: string;
}

/** `section`: the `agentLens` configuration as VS Code returns it for a file's folder. */
export function runSettingsOf(section: unknown): { settings: RunSettings; jobs: number } {
  const { settings } = parseSettings(section);
  return {
    settings: {
      timeoutMs: settings.run.timeoutSeconds * 1000, runtime: settings.run.runtime,
      ...(settings.run.recordings !== "auto" ? { recordings: settings.run.recordings } : {}),
      ...(settings.run.envFile ? { envFile: settings.run.envFile } : {}),
    },
    jobs: settings.run.jobs,
  };
}
