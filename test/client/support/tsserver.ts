// A real TypeScript server (the repository's typescript package) driven over its stdio protocol, with
// global plugins loaded the way VS Code loads them (--globalPlugins + --pluginProbeLocations).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";

export interface TsServerOptions {
  plugins: string[];
  /** Folders holding node_modules/<plugin> (VS Code passes each contributing extension's folder). */
  probeLocations: string[];
  logFile?: string;
}

export class TsServer {
  private seq = 0;
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<number, (body: { success: boolean; body?: unknown; message?: string }) => void>();
  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
  }

  static start(root: string, options: TsServerOptions): TsServer {
    const args = [join(root, "node_modules/typescript/lib/tsserver.js"), "--disableAutomaticTypingAcquisition", "--globalPlugins", options.plugins.join(","), "--pluginProbeLocations", options.probeLocations.join(",")];
    if (options.logFile) args.push("--logVerbosity", "verbose", "--logFile", options.logFile);
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // mocha's tsx loader is not for tsserver
    return new TsServer(spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "pipe"] }));
  }

  async request<T = unknown>(command: string, args: unknown): Promise<T> {
    const seq = ++this.seq;
    const answer = new Promise<{ success: boolean; body?: unknown; message?: string }>((resolve) => this.waiting.set(seq, resolve));
    this.child.stdin.write(`${JSON.stringify({ seq, type: "request", command, arguments: args })}\n`);
    const response = await answer;
    if (!response.success) throw new Error(`tsserver ${command}: ${response.message}`);
    return response.body as T;
  }

  /** Opens a file (fire and forget in the protocol; a later request orders after it). */
  open(file: string, projectRootPath: string): void {
    this.child.stdin.write(`${JSON.stringify({ seq: ++this.seq, type: "request", command: "open", arguments: { file, projectRootPath } })}\n`);
  }

  close(): void {
    this.child.kill();
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const header = this.buffer.indexOf("\r\n\r\n");
      if (header < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, header).toString())?.[1]);
      if (this.buffer.length < header + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(header + 4, header + 4 + length).toString("utf8"));
      this.buffer = this.buffer.subarray(header + 4 + length);
      if (message.type === "response") {
        this.waiting.get(message.request_seq)?.(message);
        this.waiting.delete(message.request_seq);
      }
    }
  }
}

export interface TsDiagnostic {
  code: number;
  text: string;
  start: { line: number; offset: number };
}
