// npm run bench:analysis — the analysis against the TypeScript parser on generated files of 500, 2,000
// and 10,000 lines (an @statelyai/agent machine and an @falai/agent flow file), and eslint with
// eslint-plugin-xstate's rules on the same machine files as a peer. Prints figures; asserts nothing.
// Targets: analysis ≤ 3× ts.createSourceFile at every size; time per line at 10k ≤ 1.5× that at 500.
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { ts } from "ts-morph";
import { createWorkspace } from "../server/src/analysis";
import { flowFile, machineFile } from "./analysis-generate";

const SIZES = [500, 2000, 10000];
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const WARMUP = 3;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median time of `fn` over RUNS runs after WARMUP runs; each run gets a fresh variant of the text (a
 *  trailing comment) so no cache can answer. The figure is this process's CPU time (user + system),
 *  which a busy machine disturbs far less than wall time; BENCH_CLOCK=wall measures wall time instead. */
const WALL = process.env.BENCH_CLOCK === "wall";
function now(): number {
  if (WALL) return performance.now();
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
// A full collection before each sample, so garbage left by one measurement is not billed to the next.
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as () => void;

async function time(fn: (variant: number) => unknown | Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    collect();
    const t = now();
    await fn(i);
    samples.push(now() - t);
  }
  return median(samples);
}

const variant = (text: string, n: number) => `${text}// run ${n}\n`;

async function main(): Promise<void> {
  const workspace = createWorkspace({ roots: ["/bench"], readFile: () => undefined });
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

  const rows: string[][] = [["file", "lines", "analysis ms", "findings", "ts.createSourceFile ms", "ratio", "µs/line", "eslint-plugin-xstate ms", "eslint ÷ ours"]];
  const perLine: Record<string, number[]> = { machine: [], flow: [] };
  for (const kind of ["machine", "flow"] as const) {
    for (const size of SIZES) {
      const text = kind === "machine" ? machineFile(size) : flowFile(size);
      const lines = text.split("\n").length;
      const file = `/bench/${kind}-${size}.ts`;
      let findings = 0;
      const ours = await time((n) => {
        workspace.setFile(file, variant(text, n));
        findings = workspace.analyze(file).findings.length;
      });
      const parse = await time((n) => ts.createSourceFile(file, variant(text, n), ts.ScriptTarget.Latest));
      let peer = "";
      let peerRatio = "";
      if (kind === "machine") {
        const ms = await time((n) => eslint.lintText(variant(text, n), { filePath: `bench/${kind}-${size}.ts` }));
        peer = ms.toFixed(1);
        peerRatio = (ms / ours).toFixed(1) + "×";
      }
      perLine[kind]!.push((ours * 1000) / lines);
      rows.push([kind, String(lines), ours.toFixed(1), String(findings), parse.toFixed(1), (ours / parse).toFixed(2), ((ours * 1000) / lines).toFixed(1), peer || "—", peerRatio || "—"]);
    }
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padStart(widths[c]!)).join("  "));
  console.log("");
  for (const kind of ["machine", "flow"]) {
    const [small, , large] = perLine[kind]!;
    console.log(`${kind}: time per line at 10k lines is ${(large! / small!).toFixed(2)}× that at 500 (target ≤ 1.5×)`);
  }
  console.log(`(median ${WALL ? "wall" : "CPU"} time of ${RUNS} warm runs each; the analysis includes parsing, both library analyzers, checks, symbols, references, lenses and graphs)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
