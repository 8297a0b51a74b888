// Tracks every process a child starts, so none outlives the run. Three ways to see a descendant:
// - the process group: the child runs in its own (killed as a whole);
// - parent links: a poll of the process table follows descendants that move to another group (setsid,
//   detached: true) while their parent is still alive to link them to the child;
// - the run token: the child's environment carries AGENT_LENS_RUN=<token>, which every descendant
//   inherits unless it clears its environment; at the end (and at every kill) /proc/<pid>/environ of the
//   user's processes is scanned for it, which finds a double-forked session leader whose parent is long
//   gone. Linux only (/proc); elsewhere only the first two apply.
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { randomHex } from "./random-hex";

/** The environment variable that marks a run's processes: space-separated tokens (a run inside a run
 *  adds its own, so the outer run still finds the inner run's processes). */
export const RUN_TOKEN_VAR = "AGENT_LENS_RUN";

export function newRunToken(): string {
  return randomHex(12);
}

/** The value of RUN_TOKEN_VAR for a child of this process. */
export function runTokenValue(token: string, inherited = process.env[RUN_TOKEN_VAR]): string {
  return inherited ? `${inherited} ${token}` : token;
}

const HAS_PROC = process.platform === "linux" && existsSync("/proc/self/environ");

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time (clock ticks on Linux), to tell a process from a later one that reuses its pid. */
  start: string;
  command: string;
}

function commandOf(pid: number, fallback: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ") || fallback;
  } catch {
    return fallback;
  }
}

/** One process from /proc/<pid>/stat (command = the short name); undefined for a zombie or a gone one. */
function procInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    // fields[0] = state, [1] = ppid, [2] = pgrp, [19] = starttime
    if (fields[0] === "Z") return undefined; // a zombie is already dead; its parent only has to reap it
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? "", command: stat.slice(stat.indexOf("(") + 1, close) };
  } catch {
    return undefined; // the process ended while we read it
  }
}

/** When process `pid` started (clock ticks since boot, Linux) — with the pid, what names one process
 *  across pid reuse; undefined when it is gone or there is no /proc. */
export function startTimeOf(pid: number): string | undefined {
  return HAS_PROC ? procInfo(pid)?.start : undefined;
}

function pids(): number[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
}

/** The process table from /proc (command = the short name; commandOf reads the full command line). */
function fromProc(): ProcessInfo[] {
  return pids().flatMap((pid) => procInfo(pid) ?? []);
}

const TOKEN_ENTRY = Buffer.from(`${RUN_TOKEN_VAR}=`);

/** Whether the environment block (NUL-separated) carries `token` in RUN_TOKEN_VAR. */
export function environHasToken(environ: Buffer, token: string): boolean {
  let at = environ.indexOf(TOKEN_ENTRY);
  while (at >= 0) {
    if (at === 0 || environ[at - 1] === 0) {
      const end = environ.indexOf(0, at);
      const value = environ.subarray(at + TOKEN_ENTRY.length, end < 0 ? environ.length : end).toString("latin1");
      return value.split(" ").includes(token);
    }
    at = environ.indexOf(TOKEN_ENTRY, at + 1);
  }
  return false;
}

let environBuffer = Buffer.allocUnsafe(64 * 1024);

/** /proc/<pid>/environ into a reused buffer (one scan reads every process's: no allocation per process). */
function readEnviron(pid: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/environ`, "r");
    let length = 0;
    for (;;) {
      if (length === environBuffer.length) environBuffer = Buffer.concat([environBuffer, Buffer.allocUnsafe(environBuffer.length)]);
      const n = readSync(fd, environBuffer, length, environBuffer.length - length, length);
      if (n === 0) return environBuffer.subarray(0, length);
      length += n;
    }
  } catch {
    return undefined; // another user's process, or gone
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Live processes whose environment carries the run token (only the user's own processes are readable;
 *  an empty list where there is no /proc). */
export function processesWithToken(token: string): ProcessInfo[] {
  if (!HAS_PROC) return [];
  const out: ProcessInfo[] = [];
  for (const pid of pids()) {
    if (pid === process.pid) continue;
    const environ = readEnviron(pid);
    if (!environ || !environHasToken(environ, token)) continue;
    const info = procInfo(pid);
    if (info) out.push(info);
  }
  return out;
}

function fromPs(): ProcessInfo[] {
  try {
    const text = execFileSync("ps", ["-A", "-o", "pid=,ppid=,pgid=,lstart=,stat=,command="], { encoding: "utf8" });
    return text.split("\n").flatMap((line) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\w+\s+\w+\s+\d+\s+[\d:]+\s+\d+)\s+(\S+)\s+(.*)$/.exec(line);
      if (!m || m[5]!.startsWith("Z")) return [];
      return [{ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), start: m[4]!, command: m[6]! }];
    });
  } catch {
    return [];
  }
}

function listProcesses(): ProcessInfo[] {
  if (process.platform === "win32") return [];
  return existsSync("/proc/self/stat") ? fromProc() : fromPs();
}

/** The processes in group `pgid`, and the descendants of `root` (by the parent links in `table`). */
function familyOf(root: number, table: ProcessInfo[]): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of table) {
    const list = children.get(p.ppid) ?? [];
    list.push(p);
    children.set(p.ppid, list);
  }
  const found = new Map<number, ProcessInfo>();
  const stack = [root];
  while (stack.length) {
    for (const child of children.get(stack.pop()!) ?? []) {
      if (found.has(child.pid)) continue;
      found.set(child.pid, child);
      stack.push(child.pid);
    }
  }
  for (const p of table) if (p.pgid === root && p.pid !== root) found.set(p.pid, p);
  return [...found.values()];
}

/** Whether a process with this pid exists (EPERM: it does, as another user's). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function groupHasMembers(pgid: number): boolean {
  if (process.platform === "win32") return false;
  return alive(-pgid);
}

export class ProcessTree {
  private readonly seen = new Map<number, ProcessInfo>();
  private timer: NodeJS.Timeout | undefined;

  private polls = 0;
  private stopped = false;

  /** Polls every `pollMs` for the first 2 s, then every 4 × `pollMs` (a poll reads the process table).
   *  `token`: the run token in the child's environment (see RUN_TOKEN_VAR). */
  constructor(private readonly root: number, private readonly token?: string, private readonly pollMs = 250) {
    if (process.platform !== "win32") this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.poll();
      this.polls++;
      this.schedule();
    }, this.polls * this.pollMs < 2000 ? this.pollMs : this.pollMs * 4);
    this.timer.unref();
  }

  poll(): void {
    for (const p of familyOf(this.root, listProcesses())) this.seen.set(p.pid, p);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Processes of the run still alive: the group's members, every descendant seen while polling, and
   *  every process carrying the run token. */
  survivors(): ProcessInfo[] {
    const marked = this.token ? processesWithToken(this.token) : [];
    // Fast path (the common case): the group is empty, no tracked descendant is alive, nothing is marked.
    if (!marked.length && !groupHasMembers(this.root) && ![...this.seen.values()].some((p) => alive(p.pid))) return [];
    const table = listProcesses();
    const live = new Map(table.map((p) => [p.pid, p]));
    const out = new Map<number, ProcessInfo>();
    for (const p of familyOf(this.root, table)) out.set(p.pid, p);
    for (const p of [...this.seen.values(), ...marked]) {
      const now = live.get(p.pid);
      if (now && now.start === p.start) out.set(p.pid, now);
    }
    out.delete(this.root);
    return [...out.values()].map((p) => (existsSync("/proc/self/stat") ? { ...p, command: commandOf(p.pid, p.command) } : p));
  }

  /** SIGKILL to everything of the run, then wait until the process table shows none of it alive
   *  (a signal is delivered asynchronously: reporting the end before the processes are gone would
   *  let a caller see survivors). Gives up after `timeoutMs`. */
  async killAllAndWait(extra: ProcessInfo[] = [], timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let left = extra;
    for (;;) {
      this.killAll(left);
      left = this.survivors();
      if (left.length === 0 || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** SIGKILL to the whole group, to every tracked descendant and to every process carrying the run token. */
  killAll(extra: ProcessInfo[] = []): void {
    killRun(this.root, this.token, extra);
  }
}

/** SIGKILL to the process group of `root`, to `extra` and to every process carrying the run token. */
export function killRun(root: number, token?: string, extra: ProcessInfo[] = []): void {
  if (process.platform === "win32") {
    try {
      execFileSync("taskkill", ["/pid", String(root), "/T", "/F"], { stdio: "ignore" });
    } catch {
      // already gone
    }
    return;
  }
  try {
    process.kill(-root, "SIGKILL");
  } catch {
    // the group is empty
  }
  const marked = token ? processesWithToken(token) : [];
  for (const p of [...extra, ...marked]) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
