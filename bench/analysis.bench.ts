// npm run bench:analysis — the analysis against the TypeScript parser (ts.createSourceFile) on generated
// files of 500, 2,000, 10,000 and 20,000 lines (BENCH_SIZES): an @statelyai/agent machine, an @falai/agent
// flow file, and a flow file using more of the library's v4 definitions; eslint with eslint-plugin-xstate's
// rules on the same machine files as a peer. Prints figures (CPU beside wall); asserts nothing.
//
// Each analysis is timed three ways, samples interleaved with the parser's so all see the same load:
//  - cold, opened: a file just opened for editing — parse, extraction, checks: its findings (what
//    diagnostics need); symbols, references, lenses, tests and graphs are built when first asked for;
//  - cold, from disk: a new text of a file read from disk — the analysis reads every part at once and lets
//    its tree and model go (what indexing does), i.e. the whole analysis as computed before issue 16;
//  - after a comment edit: the same file open for editing (setFile with `editing`), the run's variant
//    differing from the previous one inside a trailing comment (the tree is patched, nothing extracted);
//  - after a target edit (machine files): one transition target retyped (re-resolved, its machine's
//    target checks re-run).
// Issue 16's targets: analysis ≤ 2× the parser at 2k, 10k and 20k lines, ≤ 4× at 500.
//
// Those samples start from a collected heap, so each pays for the collections its own allocation
// triggers but not for collecting what it leaves behind. A second table (steady state) repeats each
// operation alone, back to back, so every run also pays for collecting the runs before it: the parser
// (its tree dropped at once), the parser keeping each tree until the next one is made (what any consumer
// of a tree pays), and the analysis of opened files — with the main thread's GC pauses counted apart.
//
// BENCH_BASELINE=<dir> (a copy of server/src/analysis, e.g. from an earlier commit) also runs that copy's
// analyses beside ours, the same operations as often, samples interleaved, and prints before → after (CPU
// and wall). The copy should resolve the same node_modules (a worktree whose node_modules links to this
// one's), so that both parse with one compiler.
import * as path from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { spawnSync } from "node:child_process";
import { ts } from "ts-morph";
import { SERVER_NODE_FLAGS } from "../shared/protocol/lsp";
import { createWorkspace } from "../server/src/analysis";
import type { AnalysisWorkspace } from "../server/src/analysis/api";
import { flowFile, flowFileV4, machineFile } from "./analysis-generate";

// The analysis runs in the language server, under its Node flags (SERVER_NODE_FLAGS: a larger young
// generation): this bench measures it, and the parser beside it, under the same ones.
if (!SERVER_NODE_FLAGS.every((flag) => process.execArgv.includes(flag))) {
  const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}

const SIZES = (process.env.BENCH_SIZES ?? "500,2000,10000,20000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
// The language server runs the analysis warm; enough warm-up that the JIT has settled before samples
// count: at least WARMUP runs of each function and at least WARMUP_MS of them all.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const STEADY_RUNS = Number(process.env.BENCH_STEADY_RUNS ?? 15);
const STEADY_MS = Number(process.env.BENCH_STEADY_MS ?? 1500);
const STEADY_SIZES = (process.env.BENCH_STEADY_SIZES ?? "2000,10000").split(",").map(Number);

interface Timing {
  /** Median CPU time of this process (user + system), ms: what a busy machine disturbs least. */
  cpu: number;
  /** Median wall time, ms. */
  wall: number;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
// A full collection before each sample, so garbage left by one measurement is not billed to the next.
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as () => void;
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** A full collection, then waiting until V8's background threads have finished sweeping: their CPU time
 *  is the collected garbage's, not the next sample's (process CPU time counts every thread). A fixed
 *  5 ms was too short after the big files: the sweeping of a 20k-line file's trees was billed to the
 *  next 500-line sample (CPU twice its wall time). So: 5 ms pauses until one costs the process (nearly)
 *  no CPU, at most 200 ms. */
async function collected(): Promise<void> {
  collect();
  for (let i = 0; i < 40; i++) {
    const before = cpuNow();
    await pause(5);
    if (cpuNow() - before < 0.5) return;
  }
}

/** Main-thread GC pauses (ms) since the last reset, as the gc performance entries report them. */
const gcPauses = { ms: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.ms += entry.duration;
}).observe({ entryTypes: ["gc"] });

/** Medians of RUNS runs after WARMUP runs of each function, the functions' samples interleaved; each
 *  run gets a fresh variant of the text (a trailing comment) so no cache can answer. */
async function time(...fns: Array<(variant: number) => unknown>): Promise<Timing[]> {
  const warmStart = performance.now();
  for (let i = 0; i < WARMUP || performance.now() - warmStart < WARMUP_MS; i++) for (const fn of fns) await fn(-1 - i);
  const samples = fns.map(() => ({ cpu: [] as number[], wall: [] as number[] }));
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of fns.entries()) {
      await collected();
      const c = cpuNow();
      const w = performance.now();
      await fn(i);
      samples[k]!.wall.push(performance.now() - w);
      samples[k]!.cpu.push(cpuNow() - c);
    }
  }
  return samples.map((s) => ({ cpu: median(s.cpu), wall: median(s.wall) }));
}

function heapAfterCollection(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const variant = (text: string, n: number) => `${text}// run ${n}\n`;

type Kind = "machine" | "flow" | "flow-v4";
/** The generated file of a kind and about `size` lines. */
const generated = (kind: Kind, size: number) => (kind === "machine" ? machineFile(size) : kind === "flow" ? flowFile(size) : flowFileV4(size));

/** A cold analysis of a file read from disk: the text replaced (nothing kept between versions); such an
 *  analysis reads every part at once and lets its tree and model go (what indexing does). */
function analyzer(workspace: AnalysisWorkspace, file: string, text: string, found: { n: number }) {
  return (n: number) => {
    workspace.setFile(file, variant(text, n));
    found.n = workspace.analyze(file).findings.length;
  };
}

/** A cold analysis of a file just opened: a new file each run (nothing to reuse), findings only — the
 *  other parts are built when something asks for them. */
function openedAnalyzer(workspace: AnalysisWorkspace, file: string, text: string) {
  return (n: number) => {
    workspace.removeFile(`${file}.${n - 1}.ts`);
    workspace.setFile(`${file}.${n}.ts`, variant(text, n), { editing: true });
    void workspace.analyze(`${file}.${n}.ts`).findings.length;
  };
}

/** The file open for editing; each run's text differs from the last one inside the trailing comment. */
function commentEdit(workspace: AnalysisWorkspace, file: string, text: string) {
  workspace.setFile(file, variant(text, -100), { editing: true });
  workspace.analyze(file);
  return (n: number) => {
    workspace.setFile(file, variant(text, n), { editing: true });
    void workspace.analyze(file).findings.length;
  };
}

/** The file open for editing; each run retypes one transition target (`target: "x"` / `"x"` of an `on`). */
function targetEdit(workspace: AnalysisWorkspace, file: string, text: string) {
  const sites = [...text.matchAll(/target: "(\.?[a-z][a-z0-9]*)"/g)];
  let current = text;
  workspace.setFile(file, current, { editing: true });
  workspace.analyze(file);
  return (n: number) => {
    const m = sites[Math.abs(n * 7919) % sites.length]!;
    const at = m.index! + 'target: "'.length;
    // retarget in place: same length, the name's first letter changed (an unknown target, then back)
    const old = current.charCodeAt(at + (m[1]!.startsWith(".") ? 1 : 0));
    const i = at + (m[1]!.startsWith(".") ? 1 : 0);
    current = current.slice(0, i) + (old === 120 ? m[1]!.replace(".", "")[0]! : "x") + current.slice(i + 1);
    workspace.setFile(file, current, { editing: true });
    void workspace.analyze(file).findings.length;
  };
}

interface Steady {
  /** CPU per run, ms (every thread: GC helpers included). */
  cpu: number;
  /** Main-thread GC pauses per run, ms. */
  gc: number;
}

/** One operation repeated alone, back to back (at least STEADY_RUNS runs and STEADY_MS), after a
 *  warm-up: CPU and GC pauses per run. */
async function steady(fn: (variant: number) => unknown): Promise<Steady> {
  const warmStart = performance.now();
  for (let i = 0; i < WARMUP || performance.now() - warmStart < WARMUP_MS / 2; i++) fn(-1 - i);
  await collected();
  await pause(20); // gc entries of the warm-up are delivered before the reset
  gcPauses.ms = 0;
  const c = cpuNow();
  const w = performance.now();
  let runs = 0;
  while (runs < STEADY_RUNS || performance.now() - w < STEADY_MS) fn(runs++);
  const cpu = (cpuNow() - c) / runs;
  await pause(20); // the loop's gc entries arrive on the event loop
  return { cpu, gc: gcPauses.ms / runs };
}

/** The steady-state table: parse (tree dropped), parse keeping its tree until the next, opened analysis. */
async function steadyTable(): Promise<void> {
  const rows: string[][] = [["file", "lines", "parse ms (GC)", "parse, tree kept ms (GC)", "analysis ms (GC)", "÷ parse", "÷ parse, tree kept"]];
  for (const kind of ["machine", "flow", "flow-v4"] as const) {
    for (const size of STEADY_SIZES) {
      const text = generated(kind, size);
      const file = `/steady/${kind}-${size}`;
      const parse = await steady((n) => ts.createSourceFile(`${file}.ts`, variant(text, n), ts.ScriptTarget.Latest));
      let kept: ts.SourceFile | undefined;
      const keeping = await steady((n) => (kept = ts.createSourceFile(`${file}.ts`, variant(text, n), ts.ScriptTarget.Latest)));
      void kept;
      kept = undefined;
      const workspace = createWorkspace({ roots: ["/steady"], readFile: () => undefined });
      const analysis = await steady(openedAnalyzer(workspace, file, text));
      const cell = (t: Steady) => `${t.cpu.toFixed(1)} (${t.gc.toFixed(1)})`;
      rows.push([kind, String(text.split("\n").length), cell(parse), cell(keeping), cell(analysis), (analysis.cpu / parse.cpu).toFixed(2), (analysis.cpu / keeping.cpu).toFixed(2)]);
    }
  }
  console.log(`steady state: each operation repeated alone, back to back, for at least ${STEADY_RUNS} runs and ${STEADY_MS / 1000} s (CPU per run, main-thread GC pauses in brackets; every run pays for collecting the runs before it):`);
  printTable(rows);
}

function printTable(table: string[][]): void {
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  for (const r of table) console.log(r.map((cell, c) => cell.padStart(widths[c]!)).join("  "));
  console.log("");
}

async function main(): Promise<void> {
  const baselineDir = process.env.BENCH_BASELINE;
  const baselineModule = baselineDir ? ((await import(path.resolve(baselineDir, "index.ts"))) as { createWorkspace: typeof createWorkspace }) : undefined;
  // eslint 8 ships no type declarations; this is the slice of its API the benchmark uses.
  const { ESLint } = require("eslint") as { ESLint: new (options: object) => { lintText(text: string, options: { filePath: string }): Promise<unknown[]> } };
  // The plugin's own "all" config (XState v5 rules); version-4-only rules are not part of it.
  const xstatePlugin = require("eslint-plugin-xstate") as { rules: Record<string, unknown>; configs: { all: { rules: Record<string, unknown>; settings: Record<string, unknown> } } };
  const eslint = new ESLint({
    useEslintrc: false,
    plugins: { xstate: xstatePlugin as never },
    overrideConfig: {
      parser: "@typescript-eslint/parser",
      parserOptions: { ecmaVersion: "latest", sourceType: "module" },
      plugins: ["xstate"],
      settings: xstatePlugin.configs.all.settings,
      rules: xstatePlugin.configs.all.rules as never,
    },
  });

  const rows: string[][] = [["file", "lines", "parse ms", "cold, opened: findings ms (CPU / wall)", "÷ parse", "cold, from disk: all ms (CPU / wall)", "÷ parse", "comment edit ms", "÷ parse", "target edit ms", "÷ parse", "findings", "eslint-plugin-xstate ms", "eslint ÷ ours (all)"]];
  const before: string[][] = [["file", "lines", "before ms (CPU / wall)", "after, all ms (CPU / wall)", "after ÷ before (CPU / wall)"]];
  const perLine: Record<string, number[]> = { machine: [], flow: [], "flow-v4": [] };
  const ratio = (t: Timing, parse: Timing) => (t.cpu / parse.cpu).toFixed(2);
  for (const kind of ["machine", "flow", "flow-v4"] as const) {
    for (const size of SIZES) {
      const text = generated(kind, size);
      const lines = text.split("\n").length;
      const file = `/bench/${kind}-${size}.ts`;
      const found = { n: 0 };
      // A workspace per file: the samples of a 500-line file must not pay for marking and sweeping the
      // trees of the 20k-line files measured before it (a full run billed them 2-3x the small files' cost).
      const workspace = createWorkspace({ roots: ["/bench"], readFile: () => undefined });
      const baseline = baselineModule?.createWorkspace({ roots: ["/bench"], readFile: () => undefined });
      const parse = (n: number) => ts.createSourceFile(file, variant(text, n), ts.ScriptTarget.Latest);
      const fns: Array<(n: number) => unknown> = [parse, openedAnalyzer(workspace, `${file}.opened`, text), analyzer(workspace, file, text, found), commentEdit(workspace, `${file}.comment.ts`, text)];
      if (kind === "machine") fns.push(targetEdit(workspace, `${file}.target.ts`, text));
      // The baseline runs the same operations as this tree, as often: a copy whose code ran less would
      // still be compiling when its samples count (the same code compared with itself read ×0.49–1.17).
      const mirrored = fns.length - 1;
      if (baseline) {
        fns.push(openedAnalyzer(baseline, `${file}.opened`, text), analyzer(baseline, file, text, { n: 0 }), commentEdit(baseline, `${file}.comment.ts`, text));
        if (kind === "machine") fns.push(targetEdit(baseline, `${file}.target.ts`, text));
      }
      const timings = await time(...fns);
      const [p, findingsOnly, all, comment] = timings as [Timing, Timing, Timing, Timing];
      const target = kind === "machine" ? timings[4] : undefined;
      if (baseline) {
        const prior = timings[1 + mirrored + 1]!; // the baseline's "from disk" analysis
        before.push([kind, String(lines), `${prior.cpu.toFixed(1)} / ${prior.wall.toFixed(1)}`, `${all.cpu.toFixed(1)} / ${all.wall.toFixed(1)}`, `${(all.cpu / prior.cpu).toFixed(2)} / ${(all.wall / prior.wall).toFixed(2)}`]);
      }
      let peer = "";
      let peerRatio = "";
      if (kind === "machine" && !process.env.BENCH_NO_ESLINT) {
        const [ms] = (await time((n) => eslint.lintText(variant(text, n), { filePath: `bench/${kind}-${size}.ts` }))) as [Timing];
        peer = ms.cpu.toFixed(1);
        peerRatio = (ms.cpu / all.cpu).toFixed(1) + "×";
      }
      perLine[kind]!.push((all.cpu * 1000) / lines);
      const cw = (t: Timing) => `${t.cpu.toFixed(1)} / ${t.wall.toFixed(1)}`;
      rows.push([kind, String(lines), cw(p), cw(findingsOnly), ratio(findingsOnly, p), cw(all), ratio(all, p), cw(comment), ratio(comment, p), target ? cw(target) : "—", target ? ratio(target, p) : "—", String(found.n), peer || "—", peerRatio || "—"]);
    }
  }
  printTable(rows);
  for (const kind of ["machine", "flow", "flow-v4"]) {
    const list = perLine[kind]!;
    if (list.length > 1) console.log(`${kind}: time per line at ${SIZES.at(-1)} lines is ${(list.at(-1)! / list[0]!).toFixed(2)}× that at ${SIZES[0]} (target ≤ 1.5×)`);
  }
  if (baselineModule) {
    console.log(`\nbefore (${baselineDir}) → after (this tree), samples interleaved:`);
    printTable(before);
  }
  await steadyTable();
  console.log(`memory held per analyzed file (heap after full collections; issue 16's target: ≤ 20× its text for a 10k-line file):`);
  for (const kind of ["machine", "flow-v4"] as const) {
    const text = generated(kind, 10000);
    for (const editing of [false, true]) {
      const ws = createWorkspace({ roots: ["/mem"], readFile: () => undefined });
      const add = (i: number) => {
        ws.setFile(`/mem/${i}.ts`, variant(text, i), { editing });
        void ws.analyze(`/mem/${i}.ts`).findings.length;
      };
      for (let i = 0; i < 10; i++) add(i); // past the few recent trees a workspace keeps
      const before = heapAfterCollection();
      for (let i = 10; i < 20; i++) add(i);
      const per = (heapAfterCollection() - before) / 10;
      console.log(`  ${kind}, ${text.split("\n").length} lines, ${(text.length / 1e6).toFixed(2)} MB of text, ${editing ? "open for editing (tree and model kept)" : "analyzed from disk"}: ${(per / 1e6).toFixed(2)} MB = ${(per / text.length).toFixed(1)}× its text`);
    }
  }
  const load = require("node:fs").readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`(median CPU and wall time of ${RUNS} warm runs each, all samples interleaved; "÷ parse" is CPU over ts.createSourceFile's CPU on the same text; load average at the end ${load}, 2 cores shared with other work, so read the ratios; node flags: ${process.execArgv.filter((f) => f.startsWith("--max-semi")).join(" ")})`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
