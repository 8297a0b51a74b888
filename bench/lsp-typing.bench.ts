// Typing code in big files, through the real language server over stdio (debounce 0); printed, not
// asserted (issue 30):
//  - structural edits (a letter typed into an event name, then deleted: outside any string or comment, so
//    that state's member is parsed again and the file analyzed again) in the 10,000-line machine of bench:lsp: the server's CPU per edit beside
//    a parse of the same text (ts.createSourceFile in this process, warm, median), edit → diagnostics;
//  - the server's memory: settled (the file open, 5 s idle), the most while typing (VmRSS after every edit,
//    and VmHWM), and 5 s after the last edit;
//  - the same keystrokes in a 5,000-state machine with an unknown target in every state.
// Run: npm run bench:lsp (after bench/lsp.bench.ts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { ts } from "ts-morph";
import { TextDocument } from "vscode-languageserver-textdocument";
import { SERVER_NODE_FLAGS } from "../shared/protocol/lsp";
import { TestClient } from "../test/lsp/support/client";
import { lspMachineFile, scalingMachine } from "./analysis-generate";
import { load, percentile, processCpuMs } from "./measure";

// The parse beside the server's CPU runs under the server's Node flags (a larger young generation).
if (!SERVER_NODE_FLAGS.every((flag) => process.execArgv.includes(flag))) {
  const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}


/** Median CPU of parsing `text` here (warm, under the server's Node flags, the tree dropped at once). */
function parseCpu(text: string, runs = 21): number {
  const samples: number[] = [];
  for (let i = -5; i < runs; i++) {
    const c = process.cpuUsage();
    ts.createSourceFile("/bench/typing.ts", `${text}// ${i}\n`, ts.ScriptTarget.Latest);
    const u = process.cpuUsage(c);
    if (i >= 0) samples.push((u.user + u.system) / 1000);
  }
  return percentile(samples, 50);
}

interface Typing {
  lines: number;
  parse: number;
  cpu: number;
  p50: number;
  p95: number;
  settled: number;
  typingMax: number;
  hwm: number;
  after: number;
}

/** `edits` keystrokes (a letter typed at the end of an event name, then deleted) after 10 not measured. */
async function typing(text: string, edits: number): Promise<Typing> {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-bench-typing-"));
  try {
    const file = join(dir, "machine.ts");
    writeFileSync(file, text);
    const client = await TestClient.start({ folders: [dir], settings: { diagnostics: { debounceMs: 0 } } });
    const pid = client.process.pid!;
    await client.waitForReady();
    const uri = client.open(file, text);
    await client.waitForDiagnostics(uri);
    await pause(5000);
    const settled = status(pid, "VmRSS");
    let doc = TextDocument.create(uri, "typescript", 1, text);
    const keys = [...text.matchAll(/ (NEXT|BACK): /g)].map((m) => m.index! + 1 + m[1]!.length);
    let typed: number | undefined;
    let k = 0;
    const times: number[] = [];
    let typingMax = 0;
    let cpu = 0;
    for (let i = 0; i < edits + 10; i++) {
      const at = typed ?? keys[(k = (k + 7919) % keys.length)]!;
      const range = typed !== undefined ? { start: doc.positionAt(at), end: doc.positionAt(at + 1) } : { start: doc.positionAt(at), end: doc.positionAt(at) };
      const replacement = typed !== undefined ? "" : "Q";
      typed = typed !== undefined ? undefined : at;
      doc = TextDocument.update(doc, [{ range, text: replacement }], doc.version + 1);
      const c0 = processCpuMs(pid);
      const t0 = performance.now();
      const version = client.change(uri, [{ range, text: replacement }]);
      await client.waitForDiagnostics(uri, () => true, version);
      if (i >= 10) {
        times.push(performance.now() - t0);
        cpu += processCpuMs(pid) - c0;
        typingMax = Math.max(typingMax, status(pid, "VmRSS"));
      }
    }
    const hwm = status(pid, "VmHWM");
    await pause(5000);
    const after = status(pid, "VmRSS");
    await client.stop();
    return { lines: text.split("\n").length, parse: parseCpu(text), cpu: cpu / edits, p50: percentile(times, 50), p95: percentile(times, 95), settled, typingMax, hwm, after };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(title: string, r: Typing, targets: { cpuPerParse?: number; cpuMs?: number }): void {
  console.log(`${title} (${r.lines} lines):`);
  const ratio = r.cpu / r.parse;
  console.log(`  server CPU per keystroke ${r.cpu.toFixed(1)} ms; a parse of the file here ${r.parse.toFixed(1)} ms CPU: ${ratio.toFixed(2)}×${targets.cpuPerParse ? ` (target ≤ ${targets.cpuPerParse}×)` : ""}${targets.cpuMs ? ` (target ≤ ${targets.cpuMs} ms)` : ""}`);
  console.log(`  edit → diagnostics p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
  console.log(`  server RSS: settled ${r.settled.toFixed(0)} MB; while typing at most ${r.typingMax.toFixed(0)} MB (VmHWM ${r.hwm.toFixed(0)} MB; target ≤ 400 MB); 5 s after the last edit ${r.after.toFixed(0)} MB = ${((r.after / r.settled) * 100).toFixed(0)}% of settled (target ≤ 120%)`);
}

async function main(): Promise<void> {
  console.log(`agent-lens language server, typing code (stdio, debounce 0); load average ${load()} on ${cpus().length} cores\n`);
  const lines = Number(process.env.BENCH_TYPING_LINES ?? 10000);
  report("structural edits, machine of bench:lsp", await typing(lspMachineFile(lines).text, Number(process.env.BENCH_TYPING_EDITS ?? 100)), { cpuPerParse: 2 });
  const states = Number(process.env.BENCH_TYPING_STATES ?? 5000);
  if (states) report(`structural edits, ${states}-state machine with an unknown target in every state`, await typing(scalingMachine(states, true), Number(process.env.BENCH_TYPING_EDITS ?? 40)), { cpuMs: 150 });
  console.log(`\n(load average at the end ${load()}; 2 cores shared with other work: read CPU, not wall)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
