// The optional memory limit of a run (`--max-rss MB`, `maxRssMb`): the resident set size of the file's
// process, sampled every 200 ms, and the run ended once it is past the limit. `--heap` sets V8's heap limit
// only: Buffers, typed arrays and native memory are outside it (1.5 GB of Buffers passed a 2 GB heap
// limit), and nothing in Node caps them. Sampled, so a file may briefly go past the limit before it is
// stopped, and only the file's own process is counted (processes it starts have their own). Linux reads
// /proc/<pid>/status (~30 µs); elsewhere `ps -o rss=` is asked, at most one at a time.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";

const SAMPLE_MS = 200;
const HAS_PROC = process.platform === "linux";

/** The resident set size of `pid` in MB, when it can be read. */
function rssMbOf(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined; // gone
  }
}

export class MemoryWatch {
  private readonly timer: NodeJS.Timeout;
  private asking = false;
  /** The largest size seen, in MB. */
  peakMb = 0;

  /** Calls `onOver` (once) with the size seen when the process is past `limitMb`. */
  constructor(private readonly pid: number, private readonly limitMb: number, private readonly onOver: (mb: number) => void) {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    if (HAS_PROC) return this.seen(rssMbOf(this.pid));
    if (this.asking || process.platform === "win32") return;
    this.asking = true;
    execFile("ps", ["-o", "rss=", "-p", String(this.pid)], (error, stdout) => {
      this.asking = false;
      this.seen(error ? undefined : Number(stdout.trim()) / 1024 || undefined);
    });
  }

  private seen(mb: number | undefined): void {
    if (mb === undefined) return;
    this.peakMb = Math.max(this.peakMb, mb);
    if (mb > this.limitMb) {
      this.stop();
      this.onOver(mb);
    }
  }
}
