// npm run bench:harness — what a run costs, CPU beside wall (the machine may be shared: CPU is steadier):
// - `agent-lens run` of one eval file, cold (empty cache) and warm (cached bundle), on the seed's stately
//   example, the AI SDK mock-model example and the falai end-to-end example, next to the floor (Node
//   itself running the same bundle, no harness). Targets (issue 16): warm ≤ 150 ms, cold ≤ 300 ms.
// - where a warm run's time goes, through the API (no CLI start-up);
// - the extension's path: a run on a warm child (started behind the previous run, libraries preloaded)
//   against a cold start, alternating rounds, side by side, with the ratio;
// - 50 eval files with --jobs 2 against --jobs 1.
// AGENT_LENS_BENCH_NODES=/path/to/node,... runs the CLI figures under other Node binaries too.
// AGENT_LENS_BENCH_BASELINE=/path/to/another/dist puts this build's run-seam and falai figures side by side with that
// build's (say main's), interleaved in one run, with the ratio.
// Needs `npm run build` first.
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, symlinkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { childCpuMs, load, median } from "./measure";

const root = resolve(__dirname, "..");
const programs = join(root, "test/conformance/programs");
if (!existsSync(join(root, "dist/cli/run.js"))) throw new Error("build first: npm run build");
/** A private copy of a dist/ folder (a rebuild of dist/ meanwhile would pull files out from under the runs). */
function privateCopy(dist: string, name: string): string {
  const copy = join(mkdtempSync(join(tmpdir(), `agent-lens-bench-${name}-`)), "dist");
  cpSync(dist, copy, { recursive: true });
  symlinkSync(join(root, "node_modules"), join(copy, "../node_modules"), "dir");
  process.on("exit", () => rmSync(join(copy, ".."), { recursive: true, force: true }));
  return copy;
}
const distCopy = privateCopy(join(root, "dist"), "dist");
process.env.AGENT_LENS_DIST = distCopy;


interface Sample {
  wallMs: number;
  cpuMs: number;
}

function timed(node: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Sample & { stdout: string } {
  const cpu0 = childCpuMs();
  const t0 = performance.now();
  const r = spawnSync(node, args, { cwd, encoding: "utf8", env });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${node} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return { wallMs, cpuMs: childCpuMs() - cpu0, stdout: r.stdout };
}

function run(node: string, args: string[], cwd: string, cacheDir: string, dist = distCopy): Sample {
  return timed(node, [join(dist, "cli/agent-lens.js"), "run", ...args], cwd, { ...process.env, AGENT_LENS_CACHE_DIR: cacheDir, AGENT_LENS_DIST: dist, NO_COLOR: "1" });
}

const fmt = (ms: number) => `${Math.round(ms)} ms`.padStart(7);
const temp = (p: string) => mkdtempSync(join(tmpdir(), `agent-lens-bench-${p}-`));
const med = (xs: Sample[]) => ({ wallMs: median(xs.map((x) => x.wallMs)), cpuMs: median(xs.map((x) => x.cpuMs)) });
const verdict = (ms: number, target: number) => `target ≤ ${target} ms: ${ms <= target ? "met" : "MISSED"}`;

/** The newest bundle file of a cache (what Node runs for the floor figure). */
function bundleOf(cache: string): string {
  const manifests = join(cache, "manifests");
  const key = (JSON.parse(readFileSync(join(manifests, spawnSync("ls", ["-t", manifests], { encoding: "utf8" }).stdout.split("\n")[0]!), "utf8")) as { key: string }).key;
  return join(cache, "bundles", `${key}.mjs`);
}

function coldWarm(node: string, file: string, rounds = 5): void {
  const cold: Sample[] = [];
  const warm: Sample[] = [];
  const floor: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    const cache = temp("cache");
    cold.push(run(node, [file], programs, cache));
    warm.push(run(node, [file], programs, cache));
    floor.push(timed(node, [bundleOf(cache)], programs));
    rmSync(cache, { recursive: true, force: true });
  }
  const c = med(cold);
  const w = med(warm);
  const f = med(floor);
  console.log(`  ${file.padEnd(28)} cold ${fmt(c.wallMs)} (cpu ${fmt(c.cpuMs)}, ${verdict(c.wallMs, 300)})`);
  console.log(`  ${"".padEnd(28)} warm ${fmt(w.wallMs)} (cpu ${fmt(w.cpuMs)}, ${verdict(w.wallMs, 150)})`);
  console.log(`  ${"".padEnd(28)} floor: node <bundle> ${fmt(f.wallMs)} (cpu ${fmt(f.cpuMs)}); warm run ÷ floor: wall ×${(w.wallMs / f.wallMs).toFixed(2)}, cpu ×${(w.cpuMs / f.cpuMs).toFixed(2)} (issue 30's target ≤ 1.4×: ${w.wallMs / f.wallMs <= 1.4 ? "met" : "MISSED"})`);
}

/** This build against `baseline` (another dist/), cold and warm, interleaved round by round, with the floor
 *  (Node running the file's bundle alone) in the same rounds: each build's warm run ÷ floor side by side. */
function againstBaseline(node: string, baseline: string, file: string, rounds = 7): void {
  const builds = [baseline, distCopy];
  const samples = builds.map(() => ({ cold: [] as Sample[], warm: [] as Sample[] }));
  const floor: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    builds.forEach((dist, k) => {
      const cache = temp("cache");
      samples[k]!.cold.push(run(node, [file], programs, cache, dist));
      samples[k]!.warm.push(run(node, [file], programs, cache, dist));
      if (k === 1) floor.push(timed(node, [bundleOf(cache)], programs));
      rmSync(cache, { recursive: true, force: true });
    });
  }
  for (const kind of ["cold", "warm"] as const) {
    const [b, t] = samples.map((s) => med(s[kind]));
    console.log(`  ${file.padEnd(28)} ${kind} baseline ${fmt(b!.wallMs)} (cpu ${fmt(b!.cpuMs)}) → this build ${fmt(t!.wallMs)} (cpu ${fmt(t!.cpuMs)}): wall ×${(t!.wallMs / b!.wallMs).toFixed(2)}, cpu ×${(t!.cpuMs / b!.cpuMs).toFixed(2)}`);
  }
  const f = med(floor);
  const [b, t] = samples.map((s) => med(s.warm));
  console.log(`  ${"".padEnd(28)} floor ${fmt(f.wallMs)} (cpu ${fmt(f.cpuMs)}); warm run ÷ floor: baseline wall ×${(b!.wallMs / f.wallMs).toFixed(2)} cpu ×${(b!.cpuMs / f.cpuMs).toFixed(2)}, this build wall ×${(t!.wallMs / f.wallMs).toFixed(2)} cpu ×${(t!.cpuMs / f.cpuMs).toFixed(2)} (target ≤ 1.4× wall)`);
}

/** What a bare Node process costs to start here (NODE_EXTRA_CA_CERTS makes Node 20 parse the CA file at start-up). */
function startUp(node: string): string {
  const bare = med(Array.from({ length: 5 }, () => timed(node, ["-e", "0"], root)));
  if (!process.env.NODE_EXTRA_CA_CERTS) return `node -e 0: ${fmt(bare.wallMs)}`;
  const { NODE_EXTRA_CA_CERTS: _, ...without } = process.env;
  const w = med(Array.from({ length: 5 }, () => timed(node, ["-e", "0"], root, without)));
  return `node -e 0: ${fmt(bare.wallMs)} with NODE_EXTRA_CA_CERTS set (as here), ${fmt(w.wallMs)} without`;
}

// Where a warm run's time goes, measured in-process through the API (no CLI start-up).
async function phases(file: string): Promise<void> {
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
  console.log(`  ${file.padEnd(28)} cache check ${col(0)}, child process ${col(1)} (of which the file itself ${col(2)}), total ${col(3)}`);
  rmSync(cache, { recursive: true, force: true });
}

/** The extension's path: runEvalFile on a warm child against a cold start, alternating, in this process. */
async function warmChild(file: string, rounds = 7): Promise<void> {
  const { runEvalFile, WarmChildren } = await import("../runtime/src/harness/index");
  const cache = temp("cache");
  const path = join(programs, file);
  const warm = new WarmChildren();
  await runEvalFile({ file: path, cacheDir: cache, warm }).result; // builds the cache, starts a warm child
  const one = async (pool?: InstanceType<typeof WarmChildren>) => {
    if (pool) {
      for (let i = 0; i < 500 && !pool.current; i++) await new Promise((r) => setTimeout(r, 10));
      await pool.current?.ready; // the click comes after the child is ready, as a user's would
    }
    await new Promise((r) => setTimeout(r, 50)); // let the machine settle after the previous run
    const cpu0 = process.cpuUsage();
    const kids0 = childCpuMs();
    const t0 = performance.now();
    const r = await runEvalFile({ file: path, cacheDir: cache, warm: pool }).result;
    const wallMs = performance.now() - t0;
    const self = process.cpuUsage(cpu0);
    if (r.status !== "passed" || (pool && !r.process?.warm)) throw new Error(`${file}: ${r.status}, ${JSON.stringify(r.process)}`);
    // The child's CPU is counted once it is reaped: for a warm child it includes its start-up before the click.
    return { wallMs, cpuMs: (self.user + self.system) / 1000 + (childCpuMs() - kids0) };
  };
  const cold: Sample[] = [];
  const hot: Sample[] = [];
  const ready: number[] = [];
  let rssMb = 0;
  for (let i = 0; i < rounds; i++) {
    const child = warm.current;
    if (child) {
      ready.push((await child.ready) - child.startedAt);
      rssMb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
    }
    hot.push(await one(warm));
    cold.push(await one());
  }
  await warm.dispose();
  const c = med(cold);
  const h = med(hot);
  console.log(`  ${file.padEnd(28)} warm child ${fmt(h.wallMs)} (cpu ${fmt(h.cpuMs)} incl. its start-up before the click) | cold start ${fmt(c.wallMs)} (cpu ${fmt(c.cpuMs)}) | warm ÷ cold ×${(h.wallMs / c.wallMs).toFixed(2)}`);
  console.log(`  ${"".padEnd(28)} a warm child is ready ${fmt(median(ready))} after it starts, holding ${Math.round(rssMb)} MB (RSS) while it waits`);
  rmSync(cache, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const nodes = [process.execPath, ...(process.env.AGENT_LENS_BENCH_NODES ?? "").split(",").filter(Boolean)];
  console.log(`harness bench: 2 shared cores; load average ${load()} at the start`);
  for (const node of nodes) {
    const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
    console.log(`agent-lens run, one eval file, median of 5 (node ${version}; ${startUp(node)}; load ${load()})`);
    coldWarm(node, "stately-run-seam.test.ts");
    coldWarm(node, "stately-mock-model.test.ts");
    coldWarm(node, "falai-end-to-end.test.ts");
  }
  const baseline = process.env.AGENT_LENS_BENCH_BASELINE;
  if (baseline) {
    const copy = privateCopy(resolve(baseline), "baseline");
    for (const node of nodes) {
      const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
      console.log(`against the baseline ${baseline}, interleaved, median of 7 (node ${version}; load ${load()})`);
      againstBaseline(node, copy, "stately-run-seam.test.ts");
      againstBaseline(node, copy, "falai-end-to-end.test.ts");
    }
  }

  console.log(`a warm run through the API, median of 5 (no CLI start-up; load ${load()})`);
  await phases("stately-run-seam.test.ts");
  await phases("falai-end-to-end.test.ts");

  console.log(`the extension's path: warm child against cold start, alternating, median of 7 (load ${load()})`);
  await warmChild("stately-run-seam.test.ts");
  await warmChild("stately-mock-model.test.ts");
  await warmChild("falai-end-to-end.test.ts");

  // 50 eval files: the seed's runSeam example with different inputs, next to the seed's machine.
  const ws = temp("ws");
  mkdirSync(join(ws, "evals"));
  writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "bench-ws", private: true, type: "module" }));
  copyFileSync(join(programs, "stately-machine.ts"), join(ws, "evals/stately-machine.ts"));
  const seam = readFileSync(join(programs, "stately-run-seam.test.ts"), "utf8");
  for (let i = 0; i < 50; i++) writeFileSync(join(ws, `evals/seam-${String(i).padStart(2, "0")}.eval.ts`), seam.replace("saved cards at checkout", `topic ${i}`));
  const cache = temp("cache");
  run(process.execPath, ["--jobs", "2", "evals"], ws, cache); // warm the cache
  const jobs2 = run(process.execPath, ["--jobs", "2", "evals"], ws, cache);
  const jobs1 = run(process.execPath, ["--jobs", "1", "evals"], ws, cache);
  console.log(`50 eval files (cached bundles; load ${load()})  --jobs 1 ${fmt(jobs1.wallMs)} (${Math.round(jobs1.wallMs / 50)} ms/file, cpu ${fmt(jobs1.cpuMs)})`);
  console.log(`${"".padEnd(45)}--jobs 2 ${fmt(jobs2.wallMs)} (${Math.round(jobs2.wallMs / 50)} ms/file, cpu ${fmt(jobs2.cpuMs)})  speed-up ×${(jobs1.wallMs / jobs2.wallMs).toFixed(2)}`);
  rmSync(ws, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}

void main();
