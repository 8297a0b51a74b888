// Helpers for the harness suites: a private copy of dist/, run the built CLI, run files through
// the API collecting events, find processes left in a run's process group, snapshot a folder.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runEvalFile, type HarnessEvent, type RunOptions, type FileRunResult } from "../../runtime/src/harness/index";

export const root = resolve(__dirname, "../..");
export const fixtures = join(root, "test/fixtures/harness");
const REQUIRED = ["harness/child.js", "harness/test-reporter.mjs", "cli/agent-lens.js", "cli/run.js", "vendor/zod.mjs", "vendor/ai.mjs", "vendor/xstate.mjs"];
let privateDist: string | undefined;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The suites run against a private copy of dist/ (teammates rebuild dist/ at any time, and the build
 * starts by deleting it). Waits for a build in progress, builds when nothing is there, then copies.
 * Extra files (e.g. the runtime modules) are required on demand with `needs`.
 */
export function ensureBuilt(needs: string[] = []): string {
  const want = [...REQUIRED, ...needs];
  const complete = (dist: string) => want.every((f) => existsSync(join(dist, f)));
  if (privateDist && complete(privateDist)) return privateDist;
  const dist = join(root, "dist");
  for (let i = 0; i < 90 && !complete(dist); i++) sleep(1000);
  if (!complete(dist)) execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "ignore" });
  for (let attempt = 0; attempt < 5; attempt++) {
    const copy = join(mkdtempSync(join(tmpdir(), "agent-lens-dist-")), "dist");
    try {
      cpSync(dist, copy, { recursive: true });
    } catch {
      // a rebuild started while copying; try again
    }
    // The CLI keeps esbuild external: let the copy find the repository's node_modules.
    symlinkSync(join(root, "node_modules"), join(copy, "..", "node_modules"), "dir");
    if (complete(copy)) {
      privateDist = copy;
      process.env.AGENT_LENS_DIST = copy;
      process.once("exit", () => rmSync(join(copy, ".."), { recursive: true, force: true }));
      return copy;
    }
    rmSync(join(copy, ".."), { recursive: true, force: true });
    sleep(2000);
  }
  throw new Error(`dist/ is incomplete (needs ${want.join(", ")}); run npm run build`);
}

export function cliPath(): string {
  return join(ensureBuilt(), "cli/agent-lens.js");
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `agent-lens-${prefix}-`));
}

/** Writes `files` (paths relative to `dir`), making their folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** For the enclosing suite: a maker of temporary workspaces (an ESM package.json and `files`), all removed
 *  after the suite. Node_modules folders written there are not tracked in the repository. */
export function suiteWorkspaces(): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return (files) => {
    const dir = tempDir("ws");
    dirs.push(dir);
    writeFiles(dir, { "package.json": JSON.stringify({ name: "ws", private: true, type: "module" }), ...files });
    return dir;
  };
}

/** For the enclosing suite: dist/ built and copied, and a fresh cache folder (the getter's value),
 *  removed after the suite. */
export function suiteCache(): () => string {
  let dir = "";
  before(() => {
    ensureBuilt();
    dir = tempDir("cache");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], cwd: string, cacheDir: string, timeoutMs = 120_000): CliResult {
  const r = spawnSync(process.execPath, [cliPath(), "run", ...args], {
    cwd, encoding: "utf8", timeout: timeoutMs,
    env: { ...process.env, AGENT_LENS_CACHE_DIR: cacheDir, NO_COLOR: "1" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface Collected {
  events: HarnessEvent[];
  result: FileRunResult;
}

export async function runCollect(options: RunOptions): Promise<Collected> {
  const run = runEvalFile(options);
  const events: HarnessEvent[] = [];
  for await (const e of run.events) events.push(e);
  return { events, result: await run.result };
}

export function pidOf(events: HarnessEvent[]): number {
  const start = events.find((e) => e.type === "start");
  if (start?.type !== "start" || !start.pid) throw new Error("no start event with a pid");
  return start.pid;
}

/** Whether process `pid` was started by this test process or its runs: its environment carries this
 *  process's private dist/ (AGENT_LENS_DIST, inherited by every harness child and what it starts). The
 *  machine is shared: another suite running the same fixtures at the same time starts the same commands. */
function ours(pid: number | string): boolean {
  if (!privateDist) return true;
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`AGENT_LENS_DIST=${privateDist}`);
  } catch {
    return false; // gone, or not readable: not one of ours to judge
  }
}

/** Live (non-zombie) processes whose process group is `pgid`, or whose command line contains `needle` (and
 *  that this test process started: see `ours`). */
export function survivors(pgid: number, needle?: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").trim();
      if (Number(fields[2]) === pgid || Number(name) === pgid || (needle && cmd.includes(needle) && ours(name))) out.push(`${name} ${cmd}`);
    } catch {
      // gone
    }
  }
  return out;
}

/** Every file and folder under dir with its mtime (node_modules included). */
export function snapshot(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      out.push(`${full} ${statSync(full).mtimeMs}`);
      if (entry.isDirectory()) visit(full);
    }
  };
  visit(dir);
  return out.sort();
}

export function testEnds(events: HarnessEvent[]): Array<Extract<HarnessEvent, { type: "test-end" }>> {
  return events.filter((e): e is Extract<HarnessEvent, { type: "test-end" }> => e.type === "test-end");
}

/** What `ps` lists of a run: processes in process group `pgid`, or whose command line contains one of
 *  `needles` and that this test process started (zombies excluded: they are dead, only not yet reaped). */
export function psSurvivors(pgid: number | undefined, needles: string[] = []): string[] {
  const r = spawnSync("ps", ["-A", "-ww", "-o", "pid=,pgid=,stat=,args="], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ps failed: ${r.stderr}`);
  return r.stdout.split("\n").filter((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!m || m[3]!.startsWith("Z") || Number(m[1]) === process.pid) return false;
    return (pgid !== undefined && Number(m[2]) === pgid) || (needles.some((n) => m[4]!.includes(n)) && ours(m[1]!));
  });
}

export interface JsonEvent {
  type: string;
  file: string;
  test?: string;
  status?: string;
  pid?: number;
  stream?: string;
  text?: string;
  failure?: { message: string; code?: string; location?: { file: string; line: number; column: number } };
  summary?: { passed: number; failed: number; skipped: number };
}

/** The events of `agent-lens run --json` output. */
export function jsonEvents(stdout: string): JsonEvent[] {
  return stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as JsonEvent);
}
