// npm run bench:analysis — the analysis against the TypeScript parser on generated files of 500, 2,000
// and 10,000 lines (an @statelyai/agent machine, an @falai/agent flow file, and a flow file using more of
// the library's v4 definitions: branches, jumps, do / if / say steps, events and conditions), and eslint with
// eslint-plugin-xstate's rules on the same machine files as a peer. Prints figures; asserts nothing.
// Targets: analysis ≤ 3× ts.createSourceFile at every size; time per line at 10k ≤ 1.5× that at 500.
//
// BENCH_BASELINE=<dir> (a copy of server/src/analysis, e.g. from an earlier commit) also times that copy
// on the same files, its samples interleaved with ours so both see the same machine load, and prints
// before → after (CPU and wall).
import * as path from "node:path";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { ts } from "ts-morph";
import { createWorkspace } from "../server/src/analysis";
import type { AnalysisWorkspace } from "../server/src/analysis/api";
import { flowFile, flowFileV4, machineFile } from "./analysis-generate";

const SIZES = (process.env.BENCH_SIZES ?? "500,2000,10000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
// The language server runs the analysis warm; enough warm-up runs that the JIT has settled before samples count.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);

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

/** Medians of RUNS runs after WARMUP runs of each function, the functions' samples interleaved; each
 *  run gets a fresh variant of the text (a trailing comment) so no cache can answer. */
async function time(...fns: Array<(variant: number) => unknown>): Promise<Timing[]> {
  for (let i = 0; i < WARMUP; i++) for (const fn of fns) await fn(-1 - i);
  const samples = fns.map(() => ({ cpu: [] as number[], wall: [] as number[] }));
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of fns.entries()) {
      collect();
      const c = cpuNow();
      const w = performance.now();
      await fn(i);
      samples[k]!.wall.push(performance.now() - w);
      samples[k]!.cpu.push(cpuNow() - c);
    }
  }
  return samples.map((s) => ({ cpu: median(s.cpu), wall: median(s.wall) }));
}

const variant = (text: string, n: number) => `${text}// run ${n}\n`;

function analyzer(workspace: AnalysisWorkspace, file: string, text: string, found: { n: number }) {
  return (n: number) => {
    workspace.setFile(file, variant(text, n));
    found.n = workspace.analyze(file).findings.length;
  };
}

async function main(): Promise<void> {
  const workspace = createWorkspace({ roots: ["/bench"], readFile: () => undefined });
  const baselineDir = process.env.BENCH_BASELINE;
  const baseline = baselineDir
    ? ((await import(path.resolve(baselineDir, "index.ts"))) as { createWorkspace: typeof createWorkspace }).createWorkspace({ roots: ["/bench"], readFile: () => undefined })
    : undefined;
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

  const rows: string[][] = [["file", "lines", "analysis ms (CPU / wall)", "findings", "ts.createSourceFile ms", "ratio (CPU)", "µs/line", "eslint-plugin-xstate ms", "eslint ÷ ours"]];
  const before: string[][] = [["file", "lines", "before ms (CPU / wall)", "after ms (CPU / wall)", "after ÷ before (CPU / wall)"]];
  const perLine: Record<string, number[]> = { machine: [], flow: [], "flow-v4": [] };
  for (const kind of ["machine", "flow", "flow-v4"] as const) {
    for (const size of SIZES) {
      const text = kind === "machine" ? machineFile(size) : kind === "flow" ? flowFile(size) : flowFileV4(size);
      const lines = text.split("\n").length;
      const file = `/bench/${kind}-${size}.ts`;
      const found = { n: 0 };
      const ours = analyzer(workspace, file, text, found);
      let timing: Timing;
      if (baseline) {
        const [after, prior] = await time(ours, analyzer(baseline, file, text, { n: 0 }));
        timing = after!;
        before.push([kind, String(lines), `${prior!.cpu.toFixed(1)} / ${prior!.wall.toFixed(1)}`, `${after!.cpu.toFixed(1)} / ${after!.wall.toFixed(1)}`, `${(after!.cpu / prior!.cpu).toFixed(2)} / ${(after!.wall / prior!.wall).toFixed(2)}`]);
      } else [timing] = (await time(ours)) as [Timing];
      const [parse] = (await time((n) => ts.createSourceFile(file, variant(text, n), ts.ScriptTarget.Latest))) as [Timing];
      let peer = "";
      let peerRatio = "";
      if (kind === "machine") {
        const [ms] = (await time((n) => eslint.lintText(variant(text, n), { filePath: `bench/${kind}-${size}.ts` }))) as [Timing];
        peer = ms.cpu.toFixed(1);
        peerRatio = (ms.cpu / timing.cpu).toFixed(1) + "×";
      }
      perLine[kind]!.push((timing.cpu * 1000) / lines);
      rows.push([kind, String(lines), `${timing.cpu.toFixed(1)} / ${timing.wall.toFixed(1)}`, String(found.n), parse.cpu.toFixed(1), (timing.cpu / parse.cpu).toFixed(2), ((timing.cpu * 1000) / lines).toFixed(1), peer || "—", peerRatio || "—"]);
    }
  }
  const print = (table: string[][]) => {
    const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
    for (const r of table) console.log(r.map((cell, c) => cell.padStart(widths[c]!)).join("  "));
    console.log("");
  };
  print(rows);
  for (const kind of ["machine", "flow", "flow-v4"]) {
    const list = perLine[kind]!;
    if (list.length > 1) console.log(`${kind}: time per line at ${SIZES.at(-1)} lines is ${(list.at(-1)! / list[0]!).toFixed(2)}× that at ${SIZES[0]} (target ≤ 1.5×)`);
  }
  if (baseline) {
    console.log(`\nbefore (${baselineDir}) → after (this tree), samples interleaved:`);
    print(before);
  }
  console.log(`(median CPU and wall time of ${RUNS} warm runs each; the analysis includes parsing, both library analyzers, checks, symbols, references, lenses and graphs; the machine has 2 cores shared with other work, so read the ratios)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
