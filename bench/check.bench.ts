// npm run bench:check — `agent-lens check` as a whole process (start-up included), CPU beside wall, printed
// and not asserted (issue 30):
//  - machines of 1,000, 4,000 and 16,000 states (BENCH_CHECK_STATES), clean and with an unknown target in
//    every state (bench/analysis-generate.ts scalingMachine), samples interleaved: the exponent of the
//    least-squares fit of log CPU over log states, for the whole process and for what it spends beyond a
//    one-line check (the analysis without start-up); then the 28,000-state machine with 28,000 unknown
//    targets (3.6 MB, under the 4,000,000-character limit);
//  - 5,000 generated agent files (BENCH_CHECK_FILES) against a parse-only script in its own process
//    (TypeScript loaded, every file read and given to ts.createSourceFile);
//  - a one-line check against `node -e 0`, on this Node and on any in AGENT_LENS_BENCH_NODES (the e2e
//    suite's Node 24 at .e2e/node24 is added when present), with NODE_EXTRA_CA_CERTS as set here and without.
// Each check runs with its own warm cache folder (V8's code cache of check.js, written by a first check).
// Needs `npm run build` first.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { agentWorkspaceFile, scalingMachine } from "./analysis-generate";
import { childCpuMs, load, median } from "./measure";

const root = resolve(__dirname, "..");
const cli = join(root, "dist/cli/agent-lens.js");
if (!existsSync(cli)) throw new Error("build first: npm run build");
const ROUNDS = Number(process.env.BENCH_CHECK_ROUNDS ?? 3);

const ms = (x: number) => `${Math.round(x)} ms`.padStart(8);
const temp = (name: string) => mkdtempSync(join(tmpdir(), `agent-lens-bench-check-${name}-`));
const scratch = temp("work");
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));


interface Sample {
  cpu: number;
  wall: number;
}

/** One process, timed; exit codes 0 and 1 (findings) are both a finished check. */
function timed(node: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Sample & { stdout: string } {
  const cpu0 = childCpuMs();
  const t0 = performance.now();
  const r = spawnSync(node, args, { cwd, env, encoding: "utf8", maxBuffer: 1 << 30 });
  const wall = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${node} ${args.join(" ")} exited ${r.status}:\n${r.stderr}`);
  return { cpu: childCpuMs() - cpu0, wall, stdout: r.stdout };
}

const caches = new Map<string, string>();
/** `check` of `folder` under `node`, with a cache folder of its own per Node (warmed by the first call). */
function check(node: string, folder: string, env: NodeJS.ProcessEnv = process.env): Sample & { stdout: string } {
  let cache = caches.get(node);
  if (!cache) caches.set(node, (cache = temp("cache")));
  return timed(node, [cli, "check", "--no-color", "."], folder, { ...env, AGENT_LENS_CACHE_DIR: cache });
}

const med = (xs: Sample[]): Sample => ({ cpu: median(xs.map((x) => x.cpu)), wall: median(xs.map((x) => x.wall)) });

/** Least-squares slope of log y over log x. */
function exponent(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  lx.forEach((x, i) => {
    num += (x - mx) * (ly[i]! - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

function folderWith(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

function scaling(): void {
  const states = (process.env.BENCH_CHECK_STATES ?? "1000,4000,16000").split(",").map(Number);
  const oneLine = folderWith("one-line", { "agent.ts": scalingMachine(1, false) });
  const cases = states.flatMap((n) => [false, true].map((unknown) => ({ n, unknown, dir: folderWith(`m${n}-${unknown}`, { "machine.ts": scalingMachine(n, unknown) }) })));
  check(process.execPath, oneLine); // writes the code cache
  const samples = new Map<string, Sample[]>();
  const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
  for (let round = 0; round < ROUNDS; round++) {
    add("floor", check(process.execPath, oneLine));
    for (const c of cases) add(`${c.n}-${c.unknown}`, check(process.execPath, c.dir));
  }
  const floor = med(samples.get("floor")!);
  console.log(`check of one machine, whole process, median of ${ROUNDS} interleaved (node ${process.version}; a one-state machine: cpu ${ms(floor.cpu)}, wall ${ms(floor.wall)}):`);
  for (const unknown of [false, true]) {
    const rows = states.map((n) => med(samples.get(`${n}-${unknown}`)!));
    states.forEach((n, i) => console.log(`  ${String(n).padStart(6)} states, ${unknown ? "an unknown target in each" : "clean                    "}  cpu ${ms(rows[i]!.cpu)}  wall ${ms(rows[i]!.wall)}  beyond the one-state check: cpu ${ms(rows[i]!.cpu - floor.cpu)}`));
    const whole = exponent(states, rows.map((r) => r.cpu));
    const beyond = exponent(states, rows.map((r) => Math.max(1, r.cpu - floor.cpu)));
    console.log(`  ${unknown ? "unknown targets" : "clean"}: CPU grows as states^${whole.toFixed(2)} (whole process), states^${beyond.toFixed(2)} beyond the one-state check (target ≤ 1.2: ${Math.max(whole, beyond) <= 1.2 ? "met" : "MISSED"}); wall states^${exponent(states, rows.map((r) => r.wall)).toFixed(2)}`);
  }
  const big = Number(process.env.BENCH_CHECK_BIG ?? 28000);
  if (!big) return;
  const text = scalingMachine(big, true);
  const dir = folderWith(`m${big}`, { "machine.ts": text });
  const r = med(Array.from({ length: ROUNDS }, () => check(process.execPath, dir)));
  console.log(`  ${big} states with ${big} unknown targets (${(text.length / 1e6).toFixed(1)} MB): cpu ${ms(r.cpu)}  wall ${ms(r.wall)} (target ≤ 5 s: ${Math.max(r.cpu, r.wall) <= 5000 ? "met" : "MISSED"}; load ${load()})\n`);
}

/** A script that loads TypeScript and parses every .ts file under a folder: the floor of any analysis. */
const PARSE_ONLY = `
const ts = require(${JSON.stringify(require.resolve("typescript", { paths: [root] }))});
const fs = require("node:fs"), path = require("node:path");
const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (p.endsWith(".ts")) ts.createSourceFile(p, fs.readFileSync(p, "utf8"), ts.ScriptTarget.Latest, true); } };
walk(process.argv[1]);`;

function manyFiles(): void {
  const count = Number(process.env.BENCH_CHECK_FILES ?? 5000);
  if (!count) return;
  const dir = join(scratch, "many");
  for (let i = 0; i < count; i++) {
    const sub = join(dir, "agents", `group${Math.floor(i / 100)}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `agent${i}.ts`), agentWorkspaceFile(i));
  }
  const checks: Sample[] = [];
  const parses: Sample[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    checks.push(check(process.execPath, dir));
    parses.push(timed(process.execPath, ["-e", PARSE_ONLY, dir], dir));
  }
  const c = med(checks);
  const p = med(parses);
  console.log(`check of ${count} agent files against a parse-only script (its own process: TypeScript loaded, every file parsed), median of ${ROUNDS} interleaved:`);
  console.log(`  check cpu ${ms(c.cpu)} wall ${ms(c.wall)}; parse-only cpu ${ms(p.cpu)} wall ${ms(p.wall)}: CPU ×${(c.cpu / p.cpu).toFixed(2)} (target ≤ 3×: ${c.cpu / p.cpu <= 3 ? "met" : "MISSED"}), wall ×${(c.wall / p.wall).toFixed(2)} (load ${load()})\n`);
}

function startUp(): void {
  const node24 = join(root, ".e2e/node24/node_modules/node/bin/node");
  const mainNode24 = "/work/main/.e2e/node24/node_modules/node/bin/node";
  const extra = (process.env.AGENT_LENS_BENCH_NODES ?? "").split(",").filter(Boolean);
  const nodes = [process.execPath, ...extra, ...[node24, mainNode24].filter(existsSync).slice(0, 1)];
  const oneLine = folderWith("one-line-start", { "agent.ts": scalingMachine(1, false) });
  const { NODE_EXTRA_CA_CERTS: ca, ...withoutCa } = process.env;
  const envs: Array<[string, NodeJS.ProcessEnv]> = ca ? [["NODE_EXTRA_CA_CERTS set", process.env], ["without it", withoutCa]] : [["no NODE_EXTRA_CA_CERTS", process.env]];
  console.log(`one-line check against node -e 0, median of ${ROUNDS * 3} interleaved (load ${load()}):`);
  for (const node of nodes) {
    const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
    check(node, oneLine); // writes the code cache (Node 22+ also its compile cache)
    for (const [label, env] of envs) {
      const checks: Sample[] = [];
      const bare: Sample[] = [];
      for (let i = 0; i < ROUNDS * 3; i++) {
        checks.push(check(node, oneLine, env));
        bare.push(timed(node, ["-e", "0"], oneLine, env));
      }
      const c = med(checks);
      const b = med(bare);
      const goal = Number(version.slice(1).split(".")[0]) >= 22 ? ` (target on Node 22+ ≤ 2.5×: ${c.cpu / b.cpu <= 2.5 ? "met" : "MISSED"})` : " (Node 20: documented, no target)";
      console.log(`  node ${version}, ${label.padEnd(23)} check cpu ${ms(c.cpu)} wall ${ms(c.wall)}; node -e 0 cpu ${ms(b.cpu)} wall ${ms(b.wall)}: CPU ×${(c.cpu / b.cpu).toFixed(2)}, wall ×${(c.wall / b.wall).toFixed(2)}${goal}`);
    }
  }
}

console.log(`agent-lens check bench: ${cpus().length} cores shared with other work, load average ${load()} at the start; process CPU from /proc (10 ms ticks)\n`);
scaling();
manyFiles();
startUp();
for (const cache of caches.values()) rmSync(cache, { recursive: true, force: true });
console.log(`\n(load average at the end ${load()})`);
