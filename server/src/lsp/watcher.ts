// Files changed on disk (workspace/didChangeWatchedFiles, registered by the server). A created or changed
// agent file is re-read and re-analyzed; a changed file that agent files import is re-read even when it
// mentions no library; a deleted file leaves the index. Open documents are the editor's: their disk
// changes are ignored. A tsconfig.json change rebuilds its folder (path mappings may have changed).
import { sep } from "node:path";
import { FileChangeType } from "vscode-languageserver/node";
import { mentionsAgentLibrary } from "../analysis/prefilter";
import { TOO_LARGE, type OpenDocuments } from "./documents";
import { readSourceFileSync } from "./files";
import type { Indexing } from "./indexing";
import { isSourcePath } from "./paths";
import type { Project } from "./project";
import type { DiagnosticsPublisher } from "./publisher";
import type { SkipReporter } from "./skips";
import type { StatusReporter } from "./status";

export interface WatchParts {
  project: Project;
  docs: OpenDocuments;
  publisher: DiagnosticsPublisher;
  indexing: Indexing;
  status: StatusReporter;
  skips: SkipReporter;
}

export function onDiskChange(parts: WatchParts, file: string, type: FileChangeType): void {
  const { project, docs, publisher, indexing, status, skips } = parts;
  if (file.endsWith(`${sep}tsconfig.json`) || file === "tsconfig.json") {
    const folder = project.folderFor(file);
    project.rebuild(folder);
    docs.markDirty(folder);
    void indexing.run([folder]);
    return;
  }
  if (!isSourcePath(file) || docs.isOpen(file)) return; // open documents: the editor's text wins
  const folder = project.folderFor(file);
  if (!folder.settings.enable) return;
  const dependents = project.dependentsOf(file);
  if (type === FileChangeType.Deleted) {
    project.remove(file);
  } else {
    const r = readSourceFileSync(file);
    if ("skipped" in r) {
      if (r.skipped === "too-large") skips.report(file, TOO_LARGE);
      if (project.isAgentFile(file)) project.remove(file);
    } else if (mentionsAgentLibrary(r.text)) {
      project.setText(file, r.text);
      project.analyze(file);
    } else if (project.isAgentFile(file) || dependents.length) {
      project.setSupportText(file, r.text); // imported by agent files: they must see the new text
    } else {
      return;
    }
  }
  publisher.scheduleDependents(file, dependents);
  status.sendSoon();
}
