// What every bench reads off this machine: the load, CPU time from /proc (ticks of 10 ms), medians.
import { readFileSync } from "node:fs";

/** The load average over 1, 5 and 15 minutes, as printed beside each figure. */
export const load = (): string => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The fields of /proc/<pid>/stat after the command name. */
const statFields = (pid: number | "self") => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");

/** CPU time (user + system, ms) of this process's reaped children (cutime + cstime). */
export function childCpuMs(): number {
  const fields = statFields("self");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** CPU time (user + system, ms) a running process has used (utime + stime). */
export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
