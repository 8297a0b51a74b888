// npm run bench:harness — cold (empty cache) and warm (cached bundle) time of `agent-lens run` on the
// seed's stately example and the falai end-to-end example, and 50 eval files with --jobs 2 against
// --jobs 1. Prints wall time and the CPU the run spent (the machine may be shared, CPU is steadier).
// Targets: warm ≤ 400 ms per file, cold ≤ 1.5 s. Needs `npm run build` first.
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, symlinkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(__dirname, "..");
const programs = join(root, "test/conformance/programs");
if (!existsSync(join(root, "dist/cli/run.js"))) throw new Error("build first: npm run build");
// A private copy of dist/ (a rebuild of dist/ meanwhile would pull files out from under the runs).
const distCopy = join(mkdtempSync(join(tmpdir(), "agent-lens-bench-dist-")), "dist");
cpSync(join(root, "dist"), distCopy, { recursive: true });
symlinkSync(join(root, "node_modules"), join(distCopy, "../node_modules"), "dir");
process.on("exit", () => rmSync(join(distCopy, ".."), { recursive: true, force: true }));
const cli = join(distCopy, "cli/agent-lens.js");

/** CPU time (ms) of reaped children of this process (the CLI and the harness children it reaped). */
function childCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime, 100 ticks per second
}

function run(args: string[], cwd: string, cacheDir: string): { wallMs: number; cpuMs: number } {
  const cpu0 = childCpuMs();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, "run", ...args], { cwd, encoding: "utf8", env: { ...process.env, AGENT_LENS_CACHE_DIR: cacheDir, AGENT_LENS_DIST: distCopy, NO_COLOR: "1" } });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`agent-lens run ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return { wallMs, cpuMs: childCpuMs() - cpu0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${Math.round(ms)} ms`.padStart(8);
const temp = (p: string) => mkdtempSync(join(tmpdir(), `agent-lens-bench-${p}-`));

function coldWarm(file: string, rounds = 5): void {
  const cold: Array<{ wallMs: number; cpuMs: number }> = [];
  const warm: Array<{ wallMs: number; cpuMs: number }> = [];
  for (let i = 0; i < rounds; i++) {
    const cache = temp("cache");
    cold.push(run([file], programs, cache));
    warm.push(run([file], programs, cache));
    rmSync(cache, { recursive: true, force: true });
  }
  const c = median(cold.map((x) => x.wallMs));
  const w = median(warm.map((x) => x.wallMs));
  console.log(`${file.padEnd(28)} cold ${fmt(c)} (cpu ${fmt(median(cold.map((x) => x.cpuMs)))}, target ≤ 1500 ms: ${c <= 1500 ? "ok" : "MISSED"})`);
  console.log(`${"".padEnd(28)} warm ${fmt(w)} (cpu ${fmt(median(warm.map((x) => x.cpuMs)))}, target ≤ 400 ms: ${w <= 400 ? "ok" : "MISSED"})`);
}

console.log(`agent-lens run, median of 5 (node ${process.version}, load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})`);
coldWarm("stately-run-seam.test.ts");
coldWarm("stately-mock-model.test.ts");
coldWarm("falai-end-to-end.test.ts");

// Where a warm run's time goes, measured in-process through the API (no CLI start-up).
async function phases(file: string): Promise<void> {
  process.env.AGENT_LENS_DIST = distCopy;
  const { runEvalFile } = await import("../runtime/src/harness/index");
  const cache = temp("cache");
  await runEvalFile({ file: join(programs, file), cacheDir: cache }).result;
  const rows: number[][] = [];
  for (let i = 0; i < 5; i++) {
    let spawned = 0;
    let inFile = 0;
    const r = await runEvalFile({
      file: join(programs, file), cacheDir: cache,
      onEvent: (e) => {
        if (e.type === "start") spawned = performance.now();
        if (e.type === "test-end") inFile = e.durationMs;
      },
    }).result;
    rows.push([r.bundle.durationMs, performance.now() - spawned, inFile, r.durationMs]);
  }
  const col = (i: number) => fmt(median(rows.map((row) => row[i]!)));
  console.log(`${file.padEnd(28)} warm, API: cache check ${col(0)}, child process ${col(1)} (of which the file itself ${col(2)}), total ${col(3)}`);
  rmSync(cache, { recursive: true, force: true });
}

async function main(): Promise<void> {
  await phases("stately-run-seam.test.ts");
  await phases("falai-end-to-end.test.ts");

  // 50 eval files: the seed's runSeam example with different inputs, next to the seed's machine.
  const ws = temp("ws");
  mkdirSync(join(ws, "evals"));
  writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "bench-ws", private: true, type: "module" }));
  copyFileSync(join(programs, "stately-machine.ts"), join(ws, "evals/stately-machine.ts"));
  const seam = readFileSync(join(programs, "stately-run-seam.test.ts"), "utf8");
  for (let i = 0; i < 50; i++) writeFileSync(join(ws, `evals/seam-${String(i).padStart(2, "0")}.eval.ts`), seam.replace("saved cards at checkout", `topic ${i}`));
  const cache = temp("cache");
  run(["--jobs", "2", "evals"], ws, cache); // warm the cache
  const jobs2 = run(["--jobs", "2", "evals"], ws, cache);
  const jobs1 = run(["--jobs", "1", "evals"], ws, cache);
  console.log(`50 eval files (cached bundles)  --jobs 1 ${fmt(jobs1.wallMs)} (${Math.round(jobs1.wallMs / 50)} ms/file, cpu ${fmt(jobs1.cpuMs)})`);
  console.log(`                                --jobs 2 ${fmt(jobs2.wallMs)} (${Math.round(jobs2.wallMs / 50)} ms/file, cpu ${fmt(jobs2.cpuMs)})  speed-up ×${(jobs1.wallMs / jobs2.wallMs).toFixed(2)}`);
  rmSync(ws, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}

void main();
