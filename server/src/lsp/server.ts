// The language server: builds its parts and wires them to the connection's lifecycle. Each part keeps
// its own state — open documents (documents.ts), diagnostics publishing (publisher.ts), indexing and
// status (indexing.ts, status.ts), settings (folder-settings.ts), disk changes (watcher.ts), the request
// handlers (features.ts, lenses.ts, requests.ts) — and the folders' analyses live in project.ts with the
// one cache (cache.ts). Everything here adapts; the analysis (server/src/analysis) does the work.
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  MessageType,
  ShowMessageNotification,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type WorkspaceFolder,
} from "vscode-languageserver/node";
import type { InitializationOptions } from "@agent-lens/protocol";
import { setAnalysisErrorListener } from "../analysis/errors";
import { clientSupport, SERVER_CAPABILITIES, type ClientSupport } from "./capabilities";
import { OpenDocuments } from "./documents";
import { registerFeatures } from "./features";
import { readSourceFileSync } from "./files";
import { FolderSettings } from "./folder-settings";
import { describeError, guardedNotification } from "./guard";
import { Indexing } from "./indexing";
import { registerLenses } from "./lenses";
import type { ServerParts } from "./parts";
import { SOURCE_GLOB } from "./paths";
import { Project, type Folder } from "./project";
import { DiagnosticsPublisher } from "./publisher";
import { registerRequests } from "./requests";
import { SkipReporter } from "./skips";
import { StatusReporter } from "./status";
import { onDiskChange } from "./watcher";

export function startServer(connection: Connection): void {
  const log = (message: string) => connection.console.log(message);
  const logError = (message: string) => connection.console.error(message);
  const project = new Project(logError);
  // The analysis never throws to us, but a guarded failure is a bug worth a line in the output channel.
  setAnalysisErrorListener((error, where) => logError(`[agent-lens] analysis error (${where}): ${describeError(error)}`));
  // Size limits and analysis limits: a log line and a notice each (the other skips are only logged).
  const skips = new SkipReporter({ log, notify: (message) => void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message }) });
  const docs = new OpenDocuments(project, skips, log);
  const status = new StatusReporter(connection, project);
  const publisher = new DiagnosticsPublisher(connection, docs, project, skips, { logError, published: () => status.sendSoon() });
  const indexing = new Indexing({ connection, project, docs, publisher, status, skips, log, logError });
  const settings = new FolderSettings(connection, project, log, logError);
  const clientCommands = new Set<string>();
  let support: ClientSupport = clientSupport(undefined);

  /** Apply what changed in the folders' settings: re-set, re-index (unless the caller indexes next) or
   *  forget, then re-check open documents. */
  async function refreshSettings(folders?: Folder[], reindex = true): Promise<void> {
    for (const { folder, rebuilt, wasEnabled } of await settings.refresh(folders)) {
      if (rebuilt) docs.markDirty(folder);
      if (reindex && folder.settings.enable && (rebuilt || !wasEnabled) && folder.root) void indexing.run([folder]);
    }
    publisher.recheckAllOpen();
    status.sendSoon();
  }

  function addFolders(list: readonly WorkspaceFolder[]): Folder[] {
    const added: Folder[] = [];
    for (const f of list) {
      const root = docs.uris.toFile(f.uri);
      if (root) added.push(project.addFolder(root, f.uri, f.name));
    }
    return added;
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    support = clientSupport(params?.capabilities);
    settings.configurationSupported = support.configuration;
    indexing.progressSupported = support.progress;
    const folders: WorkspaceFolder[] = params?.workspaceFolders?.length ? params.workspaceFolders : params?.rootUri ? [{ uri: params.rootUri, name: "root" }] : [];
    addFolders(folders);
    const init = params?.initializationOptions as InitializationOptions | undefined;
    settings.push(init?.settings);
    for (const command of Array.isArray(init?.clientCommands) ? init.clientCommands : []) if (typeof command === "string") clientCommands.add(command);
    return SERVER_CAPABILITIES;
  });

  connection.onInitialized(
    guardedNotification(logError, "initialized", async () => {
      if (support.watchedFilesDynamic) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: SOURCE_GLOB }, { globPattern: "**/tsconfig.json" }] });
      }
      if (support.configurationDynamic) await connection.client.register(DidChangeConfigurationNotification.type, { section: "agentLens" });
      if (support.workspaceFolders) {
        connection.workspace.onDidChangeWorkspaceFolders(
          guardedNotification(logError, "didChangeWorkspaceFolders", async (event) => {
            for (const f of event.removed) {
              const root = docs.uris.toFile(f.uri);
              if (root) project.removeFolder(root);
            }
            const added = addFolders(event.added);
            // Open documents may now belong to another folder's workspace: give them to it.
            docs.markDirty();
            publisher.recheckAllOpen();
            await refreshSettings(added, false);
            await indexing.run(added);
          }),
        );
      }
      await refreshSettings(undefined, false);
      await indexing.run(project.roots());
    }),
  );

  connection.onDidChangeConfiguration(
    guardedNotification(logError, "didChangeConfiguration", (params) => {
      settings.push((params?.settings as { agentLens?: unknown } | undefined)?.agentLens);
      return refreshSettings();
    }),
  );

  connection.onDidChangeWatchedFiles(
    guardedNotification(logError, "didChangeWatchedFiles", (params) => {
      for (const change of params?.changes ?? []) {
        const file = docs.uris.toFile(change.uri);
        if (file) onDiskChange({ project, docs, publisher, indexing, status, skips }, file, change.type);
      }
    }),
  );

  docs.documents.onDidOpen(guardedNotification(logError, "didOpen", ({ document }) => {
    docs.opened(document);
    const file = docs.uris.toFile(document.uri, document.languageId);
    if (file) publisher.closedFiles.opened(file);
  }));

  docs.documents.onDidChangeContent(
    guardedNotification(logError, "didChange", ({ document }) => {
      docs.changed(document.uri);
      publisher.schedule(document.uri);
      const file = docs.uris.toFile(document.uri, document.languageId);
      if (file) publisher.scheduleDependents(file);
    }),
  );

  docs.documents.onDidClose(
    guardedNotification(logError, "didClose", ({ document }) => {
      publisher.cancel(document.uri);
      const file = docs.closed(document);
      if (!file) {
        void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
        return;
      }
      // Back to the disk's text (or gone, for an unsaved or untitled file); its findings now those of the
      // disk's text (scope "workspace") or none (scope "openFiles"), sent by the closed files' publisher.
      const r = readSourceFileSync(file);
      if ("text" in r) project.setText(file, r.text);
      else project.remove(file);
      publisher.scheduleDependents(file);
    }),
  );

  connection.onShutdown(() => {
    skips.dispose();
    publisher.dispose();
    status.dispose();
  });

  const parts: ServerParts = { connection, project, docs, logError, clientCommands, annotatedEdits: () => support.annotatedEdits };
  registerFeatures(parts);
  registerLenses(parts);
  registerRequests(parts);

  docs.documents.listen(connection);
  connection.listen();
}
