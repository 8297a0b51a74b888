// Real pipes for a child's stdout and stderr. Node's `spawn` gives a child socket pairs for 'pipe', where a
// shell pipeline (`node file | cat`) or `node --test`'s parent terminal give a pipe or a TTY: on a socket
// /dev/stdout cannot be opened (ENXIO), and a large fs.writeSync(1, …) fails with EAGAIN once Node made the
// descriptor non-blocking. Node has no pipe(2), so the pipes are FIFOs: made by `mkfifo` into a private
// stock folder in the cache (a batch at a time, off the run's path: the next batch is made in the
// background while the stock runs low), claimed by renaming one away (atomic: two processes never get the
// same), opened at both ends and unlinked, so nothing is left on disk. Where FIFOs cannot be made (Windows,
// a file system without them, no mkfifo), the child gets Node's own pipes, as before.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { randomHex } from "./random-hex";

/** A pipe for one of a child's output streams: the parent reads `read` (non-blocking), the child gets `write`. */
export interface OutputPipe {
  read: number;
  write: number;
}

const BATCH = 16;
const LOW = 6;
const refilling = new Set<string>();

/** The stock folder of FIFOs in a cache folder. */
function pipeStockOf(cacheDir: string): string {
  return join(cacheDir, "pipes");
}

/** Two pipes (stdout, stderr) for a child, or undefined where FIFOs are not available. */
export function outputPipes(cacheDir: string): [OutputPipe, OutputPipe] | undefined {
  if (process.platform === "win32") return undefined;
  const stock = pipeStockOf(cacheDir);
  const taken: OutputPipe[] = [];
  try {
    for (let attempt = 0; taken.length < 2 && attempt < 2; attempt++) {
      let names = stockNames(stock);
      if (names.length < 2 - taken.length) {
        if (!makeFifos(stock, true)) break;
        names = stockNames(stock);
      }
      for (const name of names) {
        if (taken.length === 2) break;
        const pipe = claim(stock, name);
        if (pipe) taken.push(pipe);
      }
    }
    if (taken.length === 2) {
      if (stockNames(stock).length < LOW) makeFifos(stock, false);
      return [taken[0]!, taken[1]!];
    }
  } catch {
    // fall through: Node's own pipes
  }
  for (const p of taken) closePipe(p);
  return undefined;
}

export function closePipe(pipe: OutputPipe): void {
  for (const fd of [pipe.read, pipe.write]) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
  }
}

function stockNames(stock: string): string[] {
  try {
    return readdirSync(stock).filter((n) => n.startsWith("fifo-"));
  } catch {
    return [];
  }
}

/** Opens the FIFO `name` at both ends after renaming it out of the stock, then unlinks it. */
function claim(stock: string, name: string): OutputPipe | undefined {
  const mine = join(stock, `claimed-${process.pid}-${randomHex(6)}`);
  try {
    renameSync(join(stock, name), mine);
  } catch {
    return undefined; // another process claimed it first
  }
  let read: number | undefined;
  try {
    // The read end first, non-blocking (an open for reading alone would wait for a writer); then the
    // write end, which a reader lets open at once.
    read = openSync(mine, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(read);
    if (!st.isFIFO() || (process.getuid && st.uid !== process.getuid())) throw new Error("not our FIFO");
    const write = openSync(mine, constants.O_WRONLY);
    return { read, write };
  } catch {
    if (read !== undefined) closeSync(read);
    return undefined;
  } finally {
    try {
      unlinkSync(mine);
    } catch {
      // gone already
    }
  }
}

/** Makes a batch of FIFOs in the stock: now (the stock is empty and a child waits), or in the background. */
function makeFifos(stock: string, now: boolean): boolean {
  if (!now && refilling.has(stock)) return true;
  mkdirSync(stock, { recursive: true, mode: 0o700 });
  const names = Array.from({ length: BATCH }, () => join(stock, `fifo-${randomHex(8)}`));
  const args = ["-m", "600", ...names];
  if (now) return spawnSync("mkfifo", args, { stdio: "ignore" }).status === 0;
  refilling.add(stock);
  try {
    const maker = spawn("mkfifo", args, { stdio: "ignore", detached: true });
    maker.on("error", () => undefined);
    maker.once("close", () => refilling.delete(stock));
    maker.unref();
  } catch {
    refilling.delete(stock);
  }
  return true;
}
