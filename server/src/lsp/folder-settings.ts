// Each folder's settings, through the one settings module: what the client answers to
// workspace/configuration (scoped to the folder, section `agentLens`) laid over the folder's own
// .vscode/settings.json. VS Code's answer already holds that file's values, so for VS Code the file adds
// nothing; other editors (no workspace/configuration, or a partial or null answer) get the same settings
// the CLI reads from the file. Unusable values are logged and said once in a notice, naming the setting.
import { MessageType, ShowMessageNotification, type Connection } from "vscode-languageserver/node";
import { isRecord, layerSections, parseSettings, readFolderSettings, sameSettings, type Settings } from "@agent-lens/settings";
import { describeError } from "./guard";
import type { Folder, Project } from "./project";

export class FolderSettings {
  /** The client answers workspace/configuration (set from its capabilities at initialize). */
  configurationSupported = false;
  /** `initializationOptions.settings` / a pushed `didChangeConfiguration` section, for clients without it. */
  private pushed: Record<string, unknown> | undefined;
  private readonly said = new Set<string>();

  constructor(private readonly connection: Connection, private readonly project: Project, private readonly log: (m: string) => void, private readonly logError: (m: string) => void) {}

  push(section: unknown): void {
    if (isRecord(section)) this.pushed = section;
  }

  /** The settings a folder should have now. */
  async read(folder: Folder): Promise<Settings> {
    let answer: unknown = this.pushed;
    if (this.configurationSupported) {
      try {
        answer = await this.connection.workspace.getConfiguration(folder.uri ? { scopeUri: folder.uri, section: "agentLens" } : { section: "agentLens" });
      } catch (error) {
        this.logError(`[agent-lens] reading settings failed: ${describeError(error)}`);
        return folder.settings;
      }
    }
    const file = folder.root ? readFolderSettings(folder.root) : { section: {}, problems: [] };
    const { settings, problems } = parseSettings(layerSections(file.section, isRecord(answer) ? answer : {}));
    this.tell([...file.problems, ...problems.map((p) => p.message)], folder);
    return settings;
  }

  /** Read and apply every folder's settings; returns the folders whose settings changed, and how. */
  async refresh(folders: Folder[] = this.project.all()): Promise<Array<{ folder: Folder; rebuilt: boolean; wasEnabled: boolean }>> {
    const changed = [];
    for (const folder of folders) {
      const next = await this.read(folder);
      if (sameSettings(next, folder.settings)) continue;
      const wasEnabled = folder.settings.enable;
      changed.push({ folder, wasEnabled, rebuilt: this.project.applySettings(folder, next) });
    }
    return changed;
  }

  private tell(problems: string[], folder: Folder): void {
    const fresh = problems.filter((p) => !this.said.has(p));
    if (!fresh.length) return;
    for (const p of fresh) {
      this.said.add(p);
      this.log(`[agent-lens] settings of ${folder.name}: ${p}`);
    }
    void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Agent Lens settings: ${fresh.join(" ")}` });
  }
}
