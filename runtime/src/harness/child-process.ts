// Starting the harness child. Everything about a child that is fixed when its process starts is its
// spec (working directory, environment, heap limit, node:test reporter, cache folder); the file comes
// later, over the control pipe (control-protocol.ts). So a child can be started before the file is known
// (warm-children.ts) and a cold start is the same thing with the file handed over at once.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync } from "node:fs";
import { Socket } from "node:net";
import { join } from "node:path";
import type { Duplex, Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import type { HarnessAssets } from "./assets";
import { controlLine, READY_LINE } from "./control-protocol";
import { killRun, newRunToken, RUN_TOKEN_VAR, runTokenValue } from "./process-tree";
import { randomHex } from "./random-hex";
import { closePipe, outputPipes } from "./output-pipes";
import { superviseRun } from "./lifeline";
import { TOKEN_HEX_LENGTH } from "./channel-protocol";
import { RECORDINGS_MODE_VAR } from "./recordings-path";

export interface ChildSpec {
  /** The workspace folder: the child's working directory. */
  cwd: string;
  /** The environment the file gets: the parent's plus the caller's additions (ours go on top). */
  env: Record<string, string | undefined>;
  /** --max-old-space-size, in MB. */
  heapMb: number;
  /** The file imports node:test: the child is started with our node:test reporter. */
  nodeTest: boolean;
  /** The cache folder (V8's compiled code is kept in its v8/ folder). */
  cacheDir: string;
  /** node:test files: run only the tests these patterns name (`--test-name-pattern`; the others are
   *  reported skipped). A flag Node reads at start-up, refused in NODE_OPTIONS: part of the spec. */
  testNamePatterns?: readonly string[];
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The process could not be started. */
  error?: Error;
}

/** A string that is equal for two specs exactly when a child started for one can run the other's file. */
export function specKey(spec: ChildSpec, assets: HarnessAssets): string {
  const env = Object.entries(spec.env).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([process.execPath, assets.child, assets.testReporter, spec.cwd, spec.heapMb, spec.nodeTest, spec.cacheDir, env, spec.testNamePatterns ?? []]);
}

/** Why `child` (called `name` in the reason: a warm child, the early child) cannot run a file that needs
 *  `spec` and imports `libraries` (undefined: it can). It can when it was started exactly as a cold start
 *  for the file would be, and every library it preloaded is one the file imports (so it did nothing the
 *  file would not have done). */
export function mismatch(child: HarnessChild, spec: ChildSpec, assets: HarnessAssets, libraries: readonly string[], name: string): string | undefined {
  if (child.key !== specKey(spec, assets)) {
    const had = child.spec;
    if (had.cwd !== spec.cwd) return `the ${name} was started in another folder`;
    if (had.heapMb !== spec.heapMb) return `the ${name} has another heap limit`;
    if (had.nodeTest !== spec.nodeTest) return spec.nodeTest ? `the file uses node:test; the ${name} was started for a plain script` : `the file is a plain script; the ${name} was started for node:test`;
    if (had.cacheDir !== spec.cacheDir) return `the ${name} uses another cache folder`;
    if (JSON.stringify(had.testNamePatterns ?? []) !== JSON.stringify(spec.testNamePatterns ?? [])) return `the ${name} was started for other tests of the file`;
    const mode = (s: ChildSpec) => s.env[RECORDINGS_MODE_VAR] ?? "auto";
    if (mode(had) !== mode(spec)) return `the ${name} was started for a run in recordings mode ${mode(had)}, this one is ${mode(spec)}`;
    return `the environment changed since the ${name} was started`;
  }
  const wanted = new Set(libraries);
  const extra = child.preload.find((f) => !wanted.has(f));
  if (extra) return `the ${name} preloaded a library the file does not import (${extra})`;
  return undefined;
}

export class HarnessChild {
  readonly process: ChildProcess;
  /** AGENT_LENS_RUN's token for this child: every process it starts inherits it (process-tree.ts). */
  readonly runToken = newRunToken();
  /** The result channel's secret (channel-protocol.ts): handed to the child first thing on its control
   *  pipe, never in its environment or command line (user code could read those). */
  readonly channelSecret = randomHex(TOKEN_HEX_LENGTH / 2);
  readonly key: string;
  /** When the process was started (performance.now()). */
  readonly startedAt = performance.now();
  readonly exited: Promise<ChildExit>;
  /** Resolves with the time (performance.now()) the child said it had loaded its preloads and waits for a
   *  file; never, when it is handed a file first or ends before. */
  readonly ready: Promise<number>;
  private ended = false;
  private handedOver = false;
  private readonly unsupervise: () => void;

  /** The library files it imports while it waits for its file. */
  readonly preload: readonly string[];
  /** The child's stdout and stderr (pipes: output-pipes.ts) and its result channel (fd 3). */
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly channel: Readable;

  /** Starts a child for `spec` that imports `preload` (verified library files) while it waits for its file.
   *  As a function, `preload` is worked out after the process is spawned (while Node starts up in it). */
  constructor(readonly spec: ChildSpec, assets: HarnessAssets, preload: readonly string[] | (() => readonly string[]) = []) {
    this.key = specKey(spec, assets);
    const args = [`--max-old-space-size=${spec.heapMb}`, "--enable-source-maps"];
    if (spec.nodeTest) args.push(`--test-reporter=${pathToFileURL(assets.testReporter).href}`, "--test-reporter-destination=stdout");
    if (spec.nodeTest) for (const pattern of spec.testNamePatterns ?? []) args.push(`--test-name-pattern=${pattern}`);
    args.push(assets.child);
    const pipes = outputPipes(spec.cacheDir);
    try {
      this.process = spawn(process.execPath, args, {
        cwd: spec.cwd,
        env: { ...spec.env, ELECTRON_RUN_AS_NODE: "1", AGENT_LENS_COMPILE_CACHE: join(spec.cacheDir, "v8"), [RUN_TOKEN_VAR]: runTokenValue(this.runToken, spec.env[RUN_TOKEN_VAR]) },
        stdio: ["ignore", pipes?.[0].write ?? "pipe", pipes?.[1].write ?? "pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true,
      });
    } catch (error) {
      for (const p of pipes ?? []) closePipe(p);
      throw error;
    }
    // Before anything is written to it (its `run` above all): if this process dies from here on, the
    // supervisor ends the child's group and everything carrying its run token (lifeline.ts).
    this.unsupervise = this.process.pid !== undefined ? superviseRun(this.process.pid, this.runToken) : () => undefined;
    // The child has its own copies of the write ends now; with ours closed, the pipes end when it (and
    // whatever inherited them) is gone.
    for (const p of pipes ?? []) closeSync(p.write);
    this.stdout = pipes ? new Socket({ fd: pipes[0].read, readable: true, writable: false }) : this.process.stdout!;
    this.stderr = pipes ? new Socket({ fd: pipes[1].read, readable: true, writable: false }) : this.process.stderr!;
    this.channel = this.process.stdio[3] as Readable;
    for (const stream of [this.stdout, this.stderr, this.channel]) stream.on("error", () => undefined); // the child's end went away
    this.exited = new Promise((done) => {
      this.process.once("error", (error) => done({ code: null, signal: null, error }));
      this.process.once("exit", (code, signal) => done({ code, signal }));
    }).then((exit) => {
      this.ended = true;
      return exit as ChildExit;
    });
    const control = this.control;
    control?.on("error", () => undefined); // the child went away; its exit says how
    // Before anything else (the preloads may take a moment to work out): the child reads it at once.
    control?.write(`${this.channelSecret}\n`);
    this.ready = new Promise((done) => {
      let said = "";
      const onData = (chunk: Buffer) => {
        said += chunk.toString("latin1");
        if (said.includes(READY_LINE)) {
          control?.off("data", onData);
          done(performance.now());
        }
      };
      control?.on("data", onData);
    });
    this.preload = [...(typeof preload === "function" ? preload() : preload)];
    control?.write(controlLine({ preload: [...this.preload] }));
  }

  private get control(): Duplex | undefined {
    return (this.process.stdio[4] ?? undefined) as Duplex | undefined;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Started, not ended, and no file handed to it yet. */
  get idle(): boolean {
    return !this.ended && !this.handedOver && this.process.pid !== undefined;
  }

  /** Resolves once the child's output pipes and result channel have all ended (every process holding
   *  them is gone), or after `ms`, when whatever still holds them open is cut off. */
  drained(ms: number): Promise<void> {
    const streams = [this.stdout, this.stderr, this.channel];
    const open = () => streams.filter((s) => !s.readableEnded && !s.destroyed);
    if (!open().length) return Promise.resolve();
    return new Promise((done) => {
      const finish = () => {
        clearTimeout(timer);
        for (const s of streams) s.off("close", check).off("end", check);
        done();
      };
      const check = () => {
        if (!open().length) finish();
      };
      const timer = setTimeout(() => {
        for (const s of streams) s.destroy();
        finish();
      }, ms);
      for (const s of streams) s.on("close", check).on("end", check);
    });
  }

  /** Hands the child its file (the bundle's metadata file) and closes the control pipe. */
  run(metaFile: string): void {
    this.handedOver = true;
    this.control?.end(controlLine({ run: metaFile }));
  }

  /** Ends a child that was never handed a file, and anything it started (it ran no file, but a preloaded
   *  library is the workspace's code): its process group and every process carrying its run token.
   *  Resolves once the child is gone. */
  discard(): Promise<ChildExit> {
    this.handedOver = true;
    if (this.process.pid !== undefined) killRun(this.process.pid, this.runToken);
    else this.process.kill("SIGKILL");
    return this.exited.then((exit) => {
      this.release();
      return exit;
    });
  }

  /** The run is over and nothing of it is left (the caller killed and waited for everything): the
   *  supervisor need not watch it any more. */
  release(): void {
    this.unsupervise();
  }
}
