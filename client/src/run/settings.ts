// The run settings as the editor applies them, through the one settings module (@agent-lens/settings):
// the same defaults, limits and messages as `agent-lens run` reading .vscode/settings.json. The language
// server reports problems with the other settings; the client reports those of `agentLens.run.*`.
import type { RuntimeMode } from "@agent-lens/protocol";
import { parseSettings } from "@agent-lens/settings";

export interface RunSettings {
  timeoutMs: number;
  runtime: RuntimeMode;
}

/** `section`: the `agentLens` configuration as VS Code returns it for a file's folder. */
export function runSettingsOf(section: unknown): { settings: RunSettings; jobs: number; problems: string[] } {
  const { settings, problems } = parseSettings(section);
  return {
    settings: { timeoutMs: settings.run.timeoutSeconds * 1000, runtime: settings.run.runtime },
    jobs: settings.run.jobs,
    problems: problems.filter((p) => p.setting.startsWith("agentLens.run.")).map((p) => p.message),
  };
}
