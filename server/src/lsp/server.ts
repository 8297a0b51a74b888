// The language server: wires documents, settings, indexing, diagnostics and the language features to a
// connection. Everything here adapts; the analysis and the features (server/src/analysis) do the work.
import { sep } from "node:path";
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  MessageType,
  ShowMessageNotification,
  TextDocumentSyncKind,
  TextDocuments,
  CodeActionKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type Position,
  type WorkspaceFolder,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { FileAnalysis } from "../analysis/api";
import { mentionsAgentLibrary } from "../analysis/prefilter";
import { setAnalysisErrorListener } from "../analysis/errors";
import { describeError, guardedNotification } from "./guard";
import { UriMap, SOURCE_LANGUAGES, SOURCE_GLOB, isSourcePath } from "./paths";
import { normalizeSettings, DEFAULT_SETTINGS, sameSettings, type Settings } from "./settings";
import { Project, type Folder } from "./project";
import { DebouncedRunner } from "./diagnostics";
import { indexFolder, type IndexProgress } from "./indexer";
import { readSourceFileSync, MAX_FILE_BYTES } from "./files";
import { toDiagnostic } from "./convert";
import { registerFeatures } from "./features";
import { registerCustomRequests } from "./custom";
import { StatusNotification, type StatusParams } from "./protocol";
import { SkipReporter } from "./skips";

/** What the feature handlers need from the server: the analysis of a document at a position. */
export interface DocumentContext {
  uri: string;
  file: string;
  folder: Folder;
  document: TextDocument;
  analysis: FileAnalysis;
}

export interface ServerCore {
  connection: Connection;
  project: Project;
  uris: UriMap;
  documents: TextDocuments<TextDocument>;
  logError(message: string): void;
  /** The analysis of a document (open, or read from disk); undefined for unknown, skipped or disabled files. */
  contextFor(uri: unknown): DocumentContext | undefined;
  offsetOf(document: TextDocument, position: Position): number | undefined;
  /** Current text of a file: the editor's when open, else the disk's. */
  textOf(file: string): string | undefined;
  /** Bring every edited open document's text into the analysis. */
  flush(): void;
  /** The last analysis of an open document and the text it was computed from (for completion while typing). */
  snapshotFor(uri: string): { text: string; analysis: FileAnalysis } | undefined;
}

const TOO_LARGE = `it is larger than the ${MAX_FILE_BYTES / 1048576} MB limit`;

function isTooLarge(text: string): boolean {
  return text.length > MAX_FILE_BYTES / 4 && Buffer.byteLength(text, "utf8") > MAX_FILE_BYTES;
}

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const uris = new UriMap();
  const log = (message: string) => connection.console.log(message);
  const logError = (message: string) => connection.console.error(message);
  const project = new Project(logError);
  // The analysis never throws to us, but a guarded failure is a bug worth a line in the output channel.
  setAnalysisErrorListener((error, where) => logError(`[agent-lens] analysis error (${where}): ${describeError(error)}`));

  const dirty = new Set<string>(); // open document URIs whose text the analysis has not seen yet
  const openFiles = new Map<string, string>(); // path → URI of open (analyzable) documents
  const skipped = new Map<string, string>(); // URI → why it is not analyzed (logged once per reason)
  // Size limits and analysis limits: a log line and a notice each (the other skips are only logged).
  const skips = new SkipReporter({ log, notify: (message) => void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message }) });
  const snapshots = new Map<string, { text: string; analysis: FileAnalysis }>(); // open URI → last analysis

  let capabilities = { configuration: false, watchedFilesDynamic: false, configurationDynamic: false, workspaceFolders: false, progress: false };
  let state: StatusParams["state"] = "starting";
  let shuttingDown = false;

  // ---------------------------------------------------------------------------------------------- files

  function documentFile(doc: TextDocument): string | undefined {
    const file = uris.toFile(doc.uri, doc.languageId);
    if (!file) return skip(doc.uri, `scheme not analyzed`);
    if (!SOURCE_LANGUAGES.has(doc.languageId) && !(isSourcePath(file) && doc.languageId === "")) return skip(doc.uri, `language "${doc.languageId}" is not TypeScript or JavaScript`);
    if (isTooLarge(doc.getText())) {
      skips.report(file, TOO_LARGE); // logged there, with a notice
      skipped.set(doc.uri, TOO_LARGE);
      return undefined;
    }
    skips.forget(file, TOO_LARGE);
    skipped.delete(doc.uri);
    return file;
  }

  function skip(uri: string, reason: string): undefined {
    if (skipped.get(uri) !== reason) {
      skipped.set(uri, reason);
      log(`[agent-lens] skipped ${uri}: ${reason}`);
    }
    return undefined;
  }

  function flush(): void {
    if (!dirty.size) return;
    for (const uri of [...dirty]) {
      dirty.delete(uri);
      const doc = documents.get(uri);
      if (!doc) continue;
      const file = documentFile(doc);
      if (!file) continue;
      project.setText(file, doc.getText());
    }
  }

  function textOf(file: string): string | undefined {
    const uri = openFiles.get(file);
    const doc = uri ? documents.get(uri) : undefined;
    if (doc) return doc.getText();
    const r = readSourceFileSync(file);
    return "text" in r ? r.text : undefined;
  }

  function contextFor(uri: unknown): DocumentContext | undefined {
    if (typeof uri !== "string") return undefined;
    let document = documents.get(uri);
    let file: string | undefined;
    if (document) {
      file = documentFile(document);
    } else {
      // Not open: answer from the disk when it is a source file we can read (clients rarely ask this).
      file = uris.toFile(uri);
      if (!file || !isSourcePath(file)) return undefined;
      const r = readSourceFileSync(file);
      if (!("text" in r)) return undefined;
      document = TextDocument.create(uri, "typescript", 0, r.text);
    }
    if (!file) return undefined;
    const folder = project.folderFor(file);
    if (!folder.settings.enable) return undefined;
    flush();
    const analysis = project.analyze(file);
    if (documents.get(uri) === document) snapshots.set(uri, { text: document.getText(), analysis });
    return { uri, file, folder, document, analysis };
  }

  function snapshotFor(uri: string): { text: string; analysis: FileAnalysis } | undefined {
    const snapshot = snapshots.get(uri);
    const file = snapshot ? uris.toFile(uri) : undefined;
    if (!snapshot || (file && !project.folderFor(file).settings.enable)) return undefined;
    return snapshot;
  }

  function offsetOf(document: TextDocument, position: Position): number | undefined {
    if (!position || typeof position.line !== "number" || typeof position.character !== "number") return undefined;
    if (position.line < 0 || position.character < 0 || position.line >= document.lineCount) return undefined;
    return document.offsetAt(position);
  }

  // ---------------------------------------------------------------------------------------- diagnostics

  function publishDiagnostics(uri: string): void {
    if (shuttingDown) return;
    const doc = documents.get(uri);
    if (!doc) return;
    const version = doc.version;
    const file = documentFile(doc);
    const folder = file ? project.folderFor(file) : undefined;
    if (!file || !folder?.settings.enable) {
      void connection.sendDiagnostics({ uri, version, diagnostics: [] });
      return;
    }
    flush();
    const analysis = project.analyze(file);
    // A newer version arrived while this one was analyzed: its own run will publish.
    if (documents.get(uri)?.version !== version) return;
    snapshots.set(uri, { text: doc.getText(), analysis });
    const diagnostics = analysis.findings.filter((f) => f.file === file).map((f) => toDiagnostic(f, folder.hints));
    for (const f of analysis.findings) if (f.code === "analysis-skipped" && f.file === file) skips.report(file, f.message);
    void connection.sendDiagnostics({ uri, version, diagnostics });
    sendStatusSoon();
  }

  const diagnostics = new DebouncedRunner((uri) => {
    try {
      publishDiagnostics(uri);
    } catch (error) {
      logError(`[agent-lens] diagnostics for ${uri} failed: ${describeError(error)}`);
    }
  });

  function debounceFor(uri: string): number {
    const file = uris.toFile(uri);
    return (file ? project.folderFor(file).settings : DEFAULT_SETTINGS).debounceMs;
  }

  /** Re-check the open documents that import `file` (directly or not). */
  function scheduleDependents(file: string, delay?: number): void {
    for (const dep of project.dependentsOf(file)) {
      const depUri = openFiles.get(dep);
      if (depUri && depUri !== openFiles.get(file)) diagnostics.schedule(depUri, delay ?? debounceFor(depUri));
    }
  }

  /** After a folder's workspace was rebuilt, its open documents must be set again. */
  function markOpenDirty(folder: Folder): void {
    for (const [open, uri] of openFiles) if (project.folderFor(open) === folder) dirty.add(uri);
  }

  function recheckAllOpen(delay = 0): void {
    for (const doc of documents.all()) diagnostics.schedule(doc.uri, delay);
  }

  // --------------------------------------------------------------------------------------------- status

  let statusTimer: NodeJS.Timeout | undefined;
  let lastStatus = "";
  function sendStatus(message?: string): void {
    const totals = project.totals();
    const detail = message ?? (state === "error" ? indexFailure : undefined);
    const params: StatusParams = { state, definitions: totals.definitions, files: totals.files, ...(detail ? { message: detail } : {}) };
    const key = JSON.stringify(params);
    if (key === lastStatus) return;
    lastStatus = key;
    void connection.sendNotification(StatusNotification, params);
  }
  function sendStatusSoon(): void {
    if (statusTimer || state === "starting") return;
    statusTimer = setTimeout(() => {
      statusTimer = undefined;
      sendStatus();
    }, 100);
  }

  // ------------------------------------------------------------------------------------------- settings

  async function fetchSettings(folder: Folder): Promise<Settings> {
    if (!capabilities.configuration) return folder.settings;
    try {
      const raw = await connection.workspace.getConfiguration(folder.uri ? { scopeUri: folder.uri, section: "agentLens" } : { section: "agentLens" });
      return normalizeSettings(raw);
    } catch (error) {
      logError(`[agent-lens] reading settings failed: ${describeError(error)}`);
      return folder.settings;
    }
  }

  /** Re-read every folder's settings; re-index folders that were turned on, re-check open documents. */
  async function refreshSettings(pushed?: unknown): Promise<void> {
    for (const folder of project.all()) {
      const next = capabilities.configuration ? await fetchSettings(folder) : pushed !== undefined ? normalizeSettings(pushed) : folder.settings;
      if (sameSettings(next, folder.settings)) continue;
      const wasEnabled = folder.settings.enable;
      const rebuilt = project.applySettings(folder, next);
      if (rebuilt) markOpenDirty(folder);
      if (next.enable && (rebuilt || !wasEnabled) && folder.root) void runIndex([folder]);
      if (wasEnabled && !next.enable) folder.definitions.clear();
    }
    recheckAllOpen();
    sendStatusSoon();
  }

  // ------------------------------------------------------------------------------------------- indexing

  async function createProgress(): Promise<IndexProgress> {
    if (!capabilities.progress) return { begin() {}, report() {}, done() {} };
    try {
      const reporter = await connection.window.createWorkDoneProgress();
      return {
        begin: (title, message) => reporter.begin(title, 0, message, false),
        report: (pct, message) => reporter.report(pct, message),
        done: () => reporter.done(),
      };
    } catch {
      return { begin() {}, report() {}, done() {} };
    }
  }

  let indexRuns = 0;
  let indexFailure: string | undefined;
  async function runIndex(folders: Folder[]): Promise<void> {
    indexRuns++;
    state = "indexing";
    sendStatus();
    try {
      for (const folder of folders) {
        if (!folder.settings.enable || !folder.root) continue;
        const started = Date.now();
        const progress = await createProgress();
        const complete = await indexFolder(project, folder, { isOpen: (f) => openFiles.has(f), log, skipped: (f) => skips.report(f, TOO_LARGE), progress });
        if (complete) log(`[agent-lens] indexed ${folder.root}: ${folder.definitions.size} agent files in ${Date.now() - started} ms`);
      }
      indexFailure = undefined;
    } catch (error) {
      logError(`[agent-lens] indexing failed: ${describeError(error)}`);
      indexFailure = `Indexing failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      indexRuns--;
      if (indexRuns === 0) {
        // Open documents still get diagnostics after a failed index; the status says what went wrong.
        state = indexFailure ? "error" : "ready";
        sendStatus(indexFailure);
        recheckAllOpen();
      }
    }
  }

  // ------------------------------------------------------------------------------------- file watching

  function onDiskChange(file: string, type: FileChangeType): void {
    if (file.endsWith(`${sep}tsconfig.json`) || file === "tsconfig.json") {
      const folder = project.folderFor(file);
      project.rebuild(folder);
      markOpenDirty(folder);
      void runIndex([folder]);
      return;
    }
    if (!isSourcePath(file) || openFiles.has(file)) return; // open documents: the editor's text wins
    const folder = project.folderFor(file);
    if (!folder.settings.enable) return;
    const dependents = project.dependentsOf(file);
    if (type === FileChangeType.Deleted) {
      project.remove(file);
    } else {
      const r = readSourceFileSync(file);
      if ("skipped" in r) {
        if (r.skipped === "too-large") skips.report(file, TOO_LARGE);
        if (folder.definitions.has(file)) project.remove(file);
      } else if (mentionsAgentLibrary(r.text)) {
        project.setText(file, r.text);
        project.analyze(file);
      } else if (folder.definitions.has(file) || dependents.length) {
        project.setText(file, r.text); // imported by agent files: they must see the new text
        folder.definitions.delete(file);
      } else {
        return;
      }
    }
    const after = project.dependentsOf(file);
    for (const dep of new Set([...dependents, ...after])) {
      const uri = openFiles.get(dep);
      if (uri) diagnostics.schedule(uri, debounceFor(uri));
    }
    sendStatusSoon();
  }

  // ---------------------------------------------------------------------------------------- lifecycle

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params?.capabilities ?? {};
    capabilities = {
      configuration: !!caps.workspace?.configuration,
      watchedFilesDynamic: !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration,
      configurationDynamic: !!caps.workspace?.didChangeConfiguration?.dynamicRegistration,
      workspaceFolders: !!caps.workspace?.workspaceFolders,
      progress: !!caps.window?.workDoneProgress,
    };
    const folders: WorkspaceFolder[] = params?.workspaceFolders?.length
      ? params.workspaceFolders
      : params?.rootUri
        ? [{ uri: params.rootUri, name: "root" }]
        : [];
    for (const f of folders) {
      const root = uris.toFile(f.uri);
      if (root) project.addFolder(root, f.uri, f.name);
    }
    const init = params?.initializationOptions as { settings?: unknown } | undefined;
    if (init?.settings !== undefined) for (const folder of project.all()) project.applySettings(folder, normalizeSettings(init.settings));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ['"', "'", "`", ".", "#"], resolveProvider: false },
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        hoverProvider: true,
        documentSymbolProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: "agent-lens", version: "0.1.0" },
    };
  });

  connection.onInitialized(
    guardedNotification(logError, "initialized", async () => {
      if (capabilities.watchedFilesDynamic) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: SOURCE_GLOB }, { globPattern: "**/tsconfig.json" }] });
      }
      if (capabilities.configurationDynamic) {
        await connection.client.register(DidChangeConfigurationNotification.type, { section: "agentLens" });
      }
      if (capabilities.workspaceFolders) {
        connection.workspace.onDidChangeWorkspaceFolders(
          guardedNotification(logError, "didChangeWorkspaceFolders", (event) => {
            for (const f of event.removed) {
              const root = uris.toFile(f.uri);
              if (root) project.removeFolder(root);
            }
            const added: Folder[] = [];
            for (const f of event.added) {
              const root = uris.toFile(f.uri);
              if (root) added.push(project.addFolder(root, f.uri, f.name));
            }
            // Open documents may now belong to another folder's workspace: give them to it.
            for (const uri of openFiles.values()) dirty.add(uri);
            recheckAllOpen();
            void (async () => {
              for (const folder of added) if (project.applySettings(folder, await fetchSettings(folder))) markOpenDirty(folder);
              await runIndex(added);
            })();
          }),
        );
      }
      for (const folder of project.all()) if (project.applySettings(folder, await fetchSettings(folder))) markOpenDirty(folder);
      recheckAllOpen();
      await runIndex(project.roots());
    }),
  );

  connection.onDidChangeConfiguration(
    guardedNotification(logError, "didChangeConfiguration", (params) => refreshSettings((params?.settings as { agentLens?: unknown } | undefined)?.agentLens)),
  );

  connection.onDidChangeWatchedFiles(
    guardedNotification(logError, "didChangeWatchedFiles", (params) => {
      for (const change of params?.changes ?? []) {
        const file = uris.toFile(change.uri);
        if (file) onDiskChange(file, change.type);
      }
    }),
  );

  documents.onDidOpen(
    guardedNotification(logError, "didOpen", ({ document }) => {
      const file = documentFile(document);
      if (file) {
        uris.remember(document.uri, file);
        openFiles.set(file, document.uri);
      }
    }),
  );

  documents.onDidChangeContent(
    guardedNotification(logError, "didChange", ({ document }) => {
      const file = uris.toFile(document.uri, document.languageId);
      dirty.add(document.uri);
      diagnostics.schedule(document.uri, debounceFor(document.uri));
      if (file) scheduleDependents(file);
    }),
  );

  documents.onDidClose(
    guardedNotification(logError, "didClose", ({ document }) => {
      diagnostics.cancel(document.uri);
      dirty.delete(document.uri);
      snapshots.delete(document.uri);
      skipped.delete(document.uri);
      void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
      const file = uris.toFile(document.uri, document.languageId);
      if (!file || openFiles.get(file) !== document.uri) return;
      openFiles.delete(file);
      uris.forget(file);
      // Back to the disk's text (or gone, for an unsaved or untitled file).
      const r = readSourceFileSync(file);
      if ("text" in r) project.setText(file, r.text);
      else project.remove(file);
      scheduleDependents(file);
    }),
  );

  connection.onShutdown(() => {
    shuttingDown = true;
    skips.dispose();
    diagnostics.dispose();
    if (statusTimer) clearTimeout(statusTimer);
  });

  const core: ServerCore = { connection, project, uris, documents, logError, contextFor, offsetOf, textOf, flush, snapshotFor };
  registerFeatures(core);
  registerCustomRequests(core);

  documents.listen(connection);
  connection.listen();
}
