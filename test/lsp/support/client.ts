// A test LSP client: starts the real built server over stdio and talks to it with
// vscode-languageserver-protocol, answering the server's own requests (configuration, progress,
// dynamic registration) as an editor would, and recording what the server sends.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
  type ClientCapabilities,
  type Diagnostic,
} from "vscode-languageserver-protocol/node";
import { ensureServerBuilt } from "./build";
import { SERVER_NODE_FLAGS } from "@agent-lens/protocol";

export interface StatusParams {
  state: "starting" | "indexing" | "ready" | "error";
  definitions: number;
  files: number;
  message?: string;
}

export interface StartOptions {
  folders: string[];
  /** The `agentLens` section answered to workspace/configuration (per folder when a function). */
  settings?: Record<string, unknown> | ((scopeUri: string | undefined) => Record<string, unknown>);
  capabilities?: ClientCapabilities;
  initializationOptions?: unknown;
}

export const uriOf = (file: string) => pathToFileURL(file).href;

export const DEFAULT_CAPABILITIES: ClientCapabilities = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: true },
    didChangeConfiguration: { dynamicRegistration: true },
  },
  window: { workDoneProgress: true },
  textDocument: {
    synchronization: { dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true },
    rename: { prepareSupport: true },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix"] } }, isPreferredSupport: true },
  },
};

export class TestClient {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  /** Every publishDiagnostics, in arrival order. */
  readonly published: PublishDiagnosticsParams[] = [];
  readonly statuses: StatusParams[] = [];
  readonly logs: string[] = [];
  /** window/showMessage notices (type 3 = info). */
  readonly notices: Array<{ type: number; message: string }> = [];
  readonly progress: Array<{ token: unknown; value: { kind: string; title?: string; percentage?: number; message?: string } }> = [];
  readonly registrations: Array<{ method: string; registerOptions?: unknown }> = [];
  private readonly waiters = new Set<() => void>();
  private readonly versions = new Map<string, number>();
  private exited = false;

  private constructor(readonly process: ChildProcessWithoutNullStreams, readonly connection: ProtocolConnection, private readonly options: StartOptions) {
    process.on("exit", () => {
      this.exited = true;
      this.notify();
    });
    connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p);
      this.published.push(p);
      this.notify();
    });
    connection.onNotification("agentLens/status", (p: StatusParams) => {
      this.statuses.push(p);
      this.notify();
    });
    connection.onNotification("window/logMessage", (p: { message: string }) => {
      this.logs.push(p.message);
      this.notify();
    });
    connection.onNotification("window/showMessage", (p: { type: number; message: string }) => {
      this.notices.push(p);
      this.notify();
    });
    connection.onNotification("$/progress", (p: { token: unknown; value: never }) => {
      this.progress.push(p);
      this.notify();
    });
    connection.onRequest("window/workDoneProgress/create", () => null);
    connection.onRequest("client/registerCapability", (p: { registrations: Array<{ method: string; registerOptions?: unknown }> }) => {
      this.registrations.push(...p.registrations);
      this.notify();
      return null;
    });
    connection.onRequest("workspace/configuration", (p: { items: Array<{ scopeUri?: string; section?: string }> }) =>
      p.items.map((item) => (item.section === "agentLens" ? this.settingsFor(item.scopeUri) : null)),
    );
  }

  private settingsFor(scopeUri: string | undefined): Record<string, unknown> {
    const s = this.options.settings;
    return typeof s === "function" ? s(scopeUri) : (s ?? {});
  }

  /** Replace the settings the client answers with; call `configurationChanged()` to tell the server. */
  setSettings(settings: StartOptions["settings"]): void {
    this.options.settings = settings;
  }

  static async start(options: StartOptions): Promise<TestClient> {
    const serverJs = ensureServerBuilt();
    // AGENT_LENS_SERVER_NODE_ARGS: extra node flags for the server (e.g. "--cpu-prof" when profiling a bench).
    const nodeArgs = (process.env.AGENT_LENS_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, serverJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] }); // as the extension starts it
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000); // the server logs through window/logMessage; this is for crashes
    });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new TestClient(child, connection, options);
    connection.listen();
    const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`the server exited (${code}) before initialize: ${stderr}`))));
    await Promise.race([
      connection.sendRequest("initialize", {
        processId: process.pid,
        rootUri: null,
        capabilities: options.capabilities ?? DEFAULT_CAPABILITIES,
        workspaceFolders: options.folders.map((f, i) => ({ uri: uriOf(f), name: `folder${i}` })),
        initializationOptions: options.initializationOptions,
      }),
      exited,
    ]);
    exited.catch(() => {});
    await connection.sendNotification("initialized", {});
    return client;
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves when `check` returns a value (re-checked on every message from the server). */
  waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 15000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const attempt = () => {
        let value: T | undefined | false;
        try {
          value = check();
        } catch (error) {
          finish();
          reject(error);
          return;
        }
        if (value !== undefined && value !== false) {
          finish();
          resolve(value);
        } else if (this.exited) {
          finish();
          reject(new Error(`server exited while waiting for ${what}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(attempt);
      };
      this.waiters.add(attempt);
      attempt();
    });
  }

  waitForReady(): Promise<StatusParams> {
    return this.waitFor("status ready", () => this.statuses.findLast((s) => s.state === "ready"));
  }

  /** Diagnostics published for `uri` at `version` or later, optionally matching `predicate`. */
  /** The diagnostics of `uri` once they match: for a document open here, those the server published for
   *  its current version (or `minVersion`) — not a closed file's unversioned ones (agentLens.diagnostics.scope
   *  "workspace" publishes those for files that are not open); for a closed one, the latest. */
  waitForDiagnostics(uri: string, predicate: (d: Diagnostic[]) => boolean = () => true, minVersion?: number): Promise<Diagnostic[]> {
    const open = this.versions.has(uri);
    const version = minVersion ?? this.versions.get(uri) ?? 0;
    return this.waitFor(`diagnostics for ${uri} (version ≥ ${version})`, () => {
      const p = this.diagnostics.get(uri);
      if (!p || (p.version ?? (open ? -1 : version)) < version) return undefined;
      return predicate(p.diagnostics) ? p.diagnostics : undefined;
    });
  }

  open(file: string, text = readFileSync(file, "utf8"), languageId = "typescript", uri = uriOf(file)): string {
    this.versions.set(uri, 1);
    this.diagnostics.delete(uri);
    void this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
    return uri;
  }

  change(uri: string, changes: TextDocumentContentChangeEvent[]): number {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    void this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  close(uri: string): void {
    this.versions.delete(uri);
    void this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  notifyServer(method: string, params: unknown): void {
    void this.connection.sendNotification(method, params);
  }

  async stop(): Promise<void> {
    if (this.exited) {
      this.connection.dispose();
      return;
    }
    try {
      await Promise.race([this.connection.sendRequest("shutdown"), new Promise((r) => setTimeout(r, 2000))]);
      void this.connection.sendNotification("exit");
    } catch {
      // already gone
    }
    await Promise.race([new Promise((r) => this.process.once("exit", r)), new Promise((r) => setTimeout(r, 2000))]);
    if (!this.exited) this.process.kill();
    this.connection.dispose();
  }

  get alive(): boolean {
    return !this.exited;
  }
}

/** Position of the `nth` occurrence (0-based) of `needle` in `text`, plus `delta` characters. */
export function positionOf(text: string, needle: string, delta = 0, nth = 0): { line: number; character: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`"${needle}" (#${nth}) not found`);
  }
  const offset = index + delta;
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}
