// npm run bench:coverage — what `agent-lens run --coverage` adds to a run (issue 27: at most 10% of its
// wall time). The same `agent-lens run` of examples/ (every eval file, cached bundles) without --coverage,
// with it when the coverage model is cached (no source changed since the last coverage run), and with it
// when the analysis must run (its model cache removed; V8's code cache of the analysis kept), rounds
// alternating so all see the same load, CPU (the CLI and every child it reaped) beside wall, medians and
// the paired ratio. Also the runtime's part alone: runAgent / runSeam with a harness reporter
// installed (visited records on) against none, in one process. Needs `npm run build` first.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { REPORTER_KEY } from "../runtime/src/shared/report";
import { runSeam } from "../runtime/src/stately/testing";
import { MachineVisited } from "../runtime/src/stately/visited";
import { seedMachine } from "../test/runtime/stately/fixtures";
import { childCpuMs, load, median } from "./measure";

const root = resolve(__dirname, "..");
if (!existsSync(join(root, "dist/cli/coverage-worker.js"))) throw new Error("build first: npm run build");
const dist = join(mkdtempSync(join(tmpdir(), "agent-lens-bench-coverage-")), "dist");
cpSync(join(root, "dist"), dist, { recursive: true });
symlinkSync(join(root, "node_modules"), join(dist, "../node_modules"), "dir");
const cache = mkdtempSync(join(tmpdir(), "agent-lens-bench-cache-"));
const out = mkdtempSync(join(tmpdir(), "agent-lens-bench-out-"));
process.on("exit", () => {
  for (const d of [join(dist, ".."), cache, out]) rmSync(d, { recursive: true, force: true });
});

const fmt = (ms: number) => `${Math.round(ms)} ms`.padStart(7);

interface Sample {
  wallMs: number;
  cpuMs: number;
}

function run(args: string[]): Sample {
  const cpu0 = childCpuMs();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(dist, "cli/agent-lens.js"), "run", ...args], {
    cwd: join(root, "examples"), encoding: "utf8", env: { ...process.env, AGENT_LENS_CACHE_DIR: cache, AGENT_LENS_DIST: dist, NO_COLOR: "1" },
  });
  const wallMs = performance.now() - t0;
  // examples/ holds two failing files on purpose: exit 1 is expected, anything else is not
  if (r.status !== 1 || !/passed, \d+ failed/.test(r.stdout)) throw new Error(`agent-lens run ${args.join(" ")}: ${r.status}\n${r.stdout}\n${r.stderr}`);
  if (args.includes("--coverage") && !r.stdout.includes("Agent coverage")) throw new Error(`no coverage table:\n${r.stdout}\n${r.stderr}`);
  return { wallMs, cpuMs: childCpuMs() - cpu0 };
}

function cliFigures(): void {
  const rounds = Number(process.env.AGENT_LENS_BENCH_ROUNDS ?? 9);
  run([]); // fill the bundle cache
  run(["--coverage", "--coverage-dir", out]); // and V8's code cache of the analysis
  const off: Sample[] = [];
  const cached: Sample[] = [];
  const analyzed: Sample[] = [];
  const loads = [load()];
  for (let i = 0; i < rounds; i++) {
    off.push(run([]));
    cached.push(run(["--coverage", "--coverage-dir", out]));
    rmSync(join(cache, "coverage"), { recursive: true, force: true }); // the model's cache: the analysis runs
    analyzed.push(run(["--coverage", "--coverage-dir", out]));
  }
  loads.push(load());
  const m = (xs: Sample[]) => ({ wallMs: median(xs.map((x) => x.wallMs)), cpuMs: median(xs.map((x) => x.cpuMs)) });
  const a = m(off);
  console.log(`agent-lens run examples/ (6 eval files, cached bundles, ${rounds} alternating rounds, load ${loads.join(" → ")})`);
  console.log(`  without --coverage                     ${fmt(a.wallMs)} (cpu ${fmt(a.cpuMs)})`);
  for (const [label, xs] of [["--coverage, model cached (no analysis)", cached], ["--coverage, analysis on a worker", analyzed]] as const) {
    const b = m(xs);
    const paired = median(off.map((x, i) => xs[i]!.wallMs / x.wallMs));
    console.log(`  ${label.padEnd(38)} ${fmt(b.wallMs)} (cpu ${fmt(b.cpuMs)}): wall +${(((b.wallMs - a.wallMs) / a.wallMs) * 100).toFixed(1)}% (paired ×${paired.toFixed(2)}; target ≤ ×1.10: ${paired <= 1.1 ? "met" : "MISSED"}), cpu +${Math.round(b.cpuMs - a.cpuMs)} ms (+${(((b.cpuMs - a.cpuMs) / a.cpuMs) * 100).toFixed(1)}%)`);
  }
}

async function runtimeFigures(): Promise<void> {
  const g = globalThis as Record<symbol, unknown>;
  const machine = seedMachine();
  const once = () => runSeam(machine, { input: { topic: "t" }, scripts: { draftEmail: ["d"], scoreDraft: [{ score: 4 }] }, seam: { request: "scoreDraft" } });
  const measure = async (ms: number): Promise<{ perRunUs: number; cpuUs: number }> => {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < ms) {
      await once();
      n++;
    }
    const used = process.cpuUsage(cpu);
    return { perRunUs: ((performance.now() - t0) * 1000) / n, cpuUs: (used.user + used.system) / n };
  };
  // Three ways: no reporter (outside the harness); a reporter with the visited records switched off (the
  // payloads as before this work); a reporter with them (as under the harness now).
  const attach = MachineVisited.prototype.attach;
  const modes = ["no reporter", "reporter, visited off", "reporter, visited on"] as const;
  const set = (mode: (typeof modes)[number]) => {
    if (mode === "no reporter") delete g[REPORTER_KEY];
    else g[REPORTER_KEY] = () => undefined; // payloads built and dropped, as the child's reporter takes them
    MachineVisited.prototype.attach = mode === "reporter, visited off" ? () => undefined : attach;
  };
  for (const mode of modes) {
    set(mode);
    await measure(300); // warm up every path
  }
  const wall = new Map(modes.map((m) => [m, [] as number[]]));
  const cpu = new Map(modes.map((m) => [m, [] as number[]]));
  for (let i = 0; i < 7; i++) {
    for (const mode of modes) {
      set(mode);
      const r = await measure(150);
      wall.get(mode)!.push(r.perRunUs);
      cpu.get(mode)!.push(r.cpuUs);
    }
  }
  set("no reporter");
  const base = median(wall.get("reporter, visited off")!);
  const baseCpu = median(cpu.get("reporter, visited off")!);
  console.log(`runSeam on the seed machine, in one process (7 alternating rounds, load ${load()})`);
  for (const mode of modes) {
    const w = median(wall.get(mode)!);
    const c = median(cpu.get(mode)!);
    console.log(`  ${mode.padEnd(22)} ${w.toFixed(0).padStart(5)} µs/run (cpu ${c.toFixed(0).padStart(5)} µs)  ×${(w / base).toFixed(2)} wall, ×${(c / baseCpu).toFixed(2)} cpu against "reporter, visited off"`);
  }
}

cliFigures();
void runtimeFigures();
