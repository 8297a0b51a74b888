// Language server benchmark (printed, not asserted): through a real stdio connection with debounce 0,
//  - edit → publishDiagnostics latency on generated 2,000- and 10,000-line machine files (BENCH_LSP_LINES),
//    200 random edits each, with the server's CPU time per edit (retargets: patched in place), then 100
//    structural edits (a letter typed into an event name and deleted: its member re-parsed, the file analyzed again);
//  - completion latency (idle, and right after an edit as when typing);
//  - cold indexing of a generated workspace of 1,000 agent files;
//  - the server's peak RSS (VmHWM).
// Run: npm run bench:lsp
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { TextDocument, type Position } from "vscode-languageserver-textdocument";
import { TestClient } from "../test/lsp/support/client";
import { agentWorkspaceFile, lspMachineFile as machineFile, seededRandom as rng } from "./analysis-generate";
import { percentile } from "./measure";

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function peakRssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system) the process has used, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15 of the whole line)
  } catch {
    return NaN;
  }
}

async function editLatency(lines: number, withCompletion: boolean): Promise<{ edit: number[]; editCpu: number; structural: number[]; structuralCpu: number; editRss: number; completionIdle: number[]; completionTyping: number[]; completionTypingDefault: number[]; rss: number; lines: number }> {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-bench-edit-"));
  try {
    const { text, states } = machineFile(lines);
    const file = join(dir, "big-machine.ts");
    writeFileSync(file, text);
    const client = await TestClient.start({ folders: [dir], settings: { diagnostics: { debounceMs: 0 } } });
    await client.waitForReady();
    const uri = client.open(file, text);
    await client.waitForDiagnostics(uri);
    let doc = TextDocument.create(uri, "typescript", 1, text);
    const random = rng(42);

    /** Sends one change and waits for its diagnostics: the milliseconds between, when measured. */
    const applyEdit = async (range: { start: Position; end: Position }, replacement: string, measure: boolean): Promise<number> => {
      doc = TextDocument.update(doc, [{ range, text: replacement }], doc.version + 1);
      const t0 = performance.now();
      const version = client.change(uri, [{ range, text: replacement }]);
      await client.waitForDiagnostics(uri, () => true, version);
      return measure ? performance.now() - t0 : 0;
    };
    /** 10 edits not measured (JIT, caches), then `runs` measured: their times and the server's CPU per edit. */
    const measureEdits = async (edit: (measure: boolean) => Promise<number>, runs: number): Promise<{ times: number[]; cpu: number }> => {
      for (let i = 0; i < 10; i++) await edit(false);
      const times: number[] = [];
      const cpuBefore = cpuMs(client.process.pid);
      for (let i = 0; i < runs; i++) times.push(await edit(true));
      return { times, cpu: (cpuMs(client.process.pid) - cpuBefore) / runs };
    };

    const targets = () => [...doc.getText().matchAll(/target: "([a-z0-9]+)"/g)];
    let typo: number | undefined; // offset of the target a previous edit misspelled (the next edit fixes it)
    const edit = async (measure: boolean): Promise<number> => {
      const all = targets();
      const m = typo !== undefined ? all.find((t) => t.index === typo)! : all[Math.floor(random() * all.length)];
      const start = m.index! + 'target: "'.length;
      // Mostly retargeting to another state; one edit in five misspells a target (an unknown-target
      // finding with a nearest-name fix appears) and the next edit corrects it, as when typing.
      const misspell = typo === undefined && random() < 0.2;
      typo = misspell ? m.index : undefined;
      const replacement = misspell ? `s${Math.floor(random() * states)}x` : `s${Math.floor(random() * states)}`;
      return applyEdit({ start: doc.positionAt(start), end: doc.positionAt(start + m[1].length) }, replacement, measure);
    };
    const { times: editTimes, cpu: editCpu } = await measureEdits(edit, 200);
    const editRss = peakRssMb(client.process.pid); // before the structural edits, which raise it

    // Structural edits: a letter typed at the end of an event name (`NEXT:` → `NEXTQ:`), then deleted by
    // the next edit. Outside any string or comment, so the state's member is parsed again (spliced into the
    // tree) and the file analyzed again: what most keystrokes cost (typing code), where a retarget above
    // is the incremental best case.
    let typed: number | undefined; // offset of the letter the previous edit typed (the next one deletes it)
    const pick = rng(7); // its own sequence: the completion figures below see the same edits as before
    const structuralEdit = async (measure: boolean): Promise<number> => {
      if (typed !== undefined) {
        const range = { start: doc.positionAt(typed), end: doc.positionAt(typed + 1) };
        typed = undefined;
        return applyEdit(range, "", measure);
      }
      const keys = [...doc.getText().matchAll(/ (NEXT|BACK): \{/g)];
      const m = keys[Math.floor(pick() * keys.length)]!;
      typed = m.index! + 1 + m[1]!.length;
      return applyEdit({ start: doc.positionAt(typed), end: doc.positionAt(typed) }, "Q", measure);
    };
    const { times: structural, cpu: structuralCpu } = await measureEdits(structuralEdit, 100);
    if (!withCompletion) {
      const rss = peakRssMb(client.process.pid);
      await client.stop();
      return { edit: editTimes, editCpu, structural, structuralCpu, editRss, completionIdle: [], completionTyping: [], completionTypingDefault: [], rss, lines: text.split("\n").length };
    }

    const completionAt = async (): Promise<number> => {
      const all = targets();
      const m = all[Math.floor(random() * all.length)];
      const position = doc.positionAt(m.index! + 'target: "'.length + 1);
      const t0 = performance.now();
      const items = await client.request<unknown[]>("textDocument/completion", { textDocument: { uri }, position });
      const ms = performance.now() - t0;
      if (!items.length) throw new Error("completion returned nothing inside a target");
      return ms;
    };
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await completionAt());
    // Typing: an edit, then completion at once. With debounce 0 that edit's diagnostics run comes first;
    // with the default 150 ms the completion comes first and is answered from the previous analysis.
    const typingRun = async (): Promise<number[]> => {
    const typing: number[] = [];
    for (let i = 0; i < 100; i++) {
      const all = targets();
      const m = all[Math.floor(random() * all.length)];
      const start = m.index! + 'target: "'.length;
      const range = { start: doc.positionAt(start), end: doc.positionAt(start + m[1].length) };
      const replacement = `s${Math.floor(random() * states)}`;
      doc = TextDocument.update(doc, [{ range, text: replacement }], doc.version + 1);
      client.change(uri, [{ range, text: replacement }]);
      const position = doc.positionAt(start + 1);
      const t0 = performance.now();
      await client.request("textDocument/completion", { textDocument: { uri }, position });
      typing.push(performance.now() - t0);
      await client.waitForDiagnostics(uri, () => true, doc.version);
    }
    return typing;
    };
    const typing = await typingRun();
    client.setSettings({ diagnostics: { debounceMs: 150 } });
    client.notifyServer("workspace/didChangeConfiguration", { settings: null });
    await new Promise((r) => setTimeout(r, 500));
    const typingDefault = await typingRun();
    const rss = peakRssMb(client.process.pid);
    await client.stop();
    return { edit: editTimes, editCpu, structural, structuralCpu, editRss, completionIdle: idle, completionTyping: typing, completionTypingDefault: typingDefault, rss, lines: text.split("\n").length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function coldIndex(files: number): Promise<{ ms: number; fromSpawn: number; cpu: number; definitions: number; indexed: number; rss: number }> {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-bench-index-"));
  try {
    for (let i = 0; i < files; i++) {
      const sub = join(dir, "agents", `group${Math.floor(i / 100)}`);
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, `agent${i}.ts`), agentWorkspaceFile(i));
    }
    const t0 = performance.now();
    const client = await TestClient.start({ folders: [dir], settings: { diagnostics: { debounceMs: 0 } } });
    const t1 = performance.now();
    const cpu0 = cpuMs(client.process.pid);
    const ready = await client.waitFor("indexing done", () => client.statuses.find((s) => s.state === "ready"), 120_000);
    const t2 = performance.now();
    const cpu = cpuMs(client.process.pid) - cpu0;
    const progressEnded = client.progress.some((p) => p.value.kind === "end");
    if (!progressEnded) throw new Error("indexing progress never ended");
    const rss = peakRssMb(client.process.pid);
    await client.stop();
    return { ms: t2 - t1, fromSpawn: t2 - t0, cpu, definitions: ready.definitions, indexed: ready.files, rss };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`agent-lens language server benchmark (stdio, debounce 0); load average ${load} on ${cpus().length} cores\n`);
  const sizes = (process.env.BENCH_LSP_LINES ?? "2000,10000").split(",").map(Number);
  // Issue 16's targets: edit → diagnostics p95 ≤ 15 ms at 2k lines, ≤ 30 ms at 10k (debounce 0).
  const target = (lines: number) => (lines <= 2500 ? 15 : 30);
  let e: Awaited<ReturnType<typeof editLatency>> | undefined;
  let peakEditing = 0;
  for (const size of sizes) {
    const r = await editLatency(size, size === sizes[0]);
    e ??= r;
    peakEditing = Math.max(peakEditing, r.rss);
    console.log(`edit → publishDiagnostics, ${r.lines}-line machine, ${r.edit.length} random edits (retargets; one in five misspells and the next fixes it):`);
    console.log(`  p50 ${fmt(percentile(r.edit, 50))}   p95 ${fmt(percentile(r.edit, 95))}   max ${fmt(Math.max(...r.edit))}   (target p95 ≤ ${target(r.lines)} ms: ${(percentile(r.edit, 95) / target(r.lines)).toFixed(2)}× of budget)`);
    console.log(`  server CPU time per edit: ${fmt(r.editCpu)} (wall-clock figures above include waiting for a core on a loaded machine); server peak RSS ${r.editRss.toFixed(0)} MB`);
    console.log(`edit → publishDiagnostics, same file, ${r.structural.length} structural edits (a letter typed at the end of an event name, then deleted: the member re-parsed, the file analyzed again; issue 16 sets no target for these):`);
    console.log(`  p50 ${fmt(percentile(r.structural, 50))}   p95 ${fmt(percentile(r.structural, 95))}   max ${fmt(Math.max(...r.structural))}   server CPU time per edit: ${fmt(r.structuralCpu)}; server peak RSS ${r.rss.toFixed(0)} MB`);
  }
  if (!e) return;
  console.log(`completion (idle), ${e.completionIdle.length} requests, ${e.lines}-line machine:`);
  console.log(`  p50 ${fmt(percentile(e.completionIdle, 50))}   p95 ${fmt(percentile(e.completionIdle, 95))}   (target p95 ≤ 30 ms: ${(percentile(e.completionIdle, 95) / 30).toFixed(2)}×)`);
  console.log(`completion right after an edit (debounce 0), ${e.completionTyping.length} requests:`);
  console.log(`  p50 ${fmt(percentile(e.completionTyping, 50))}   p95 ${fmt(percentile(e.completionTyping, 95))}   (target p95 ≤ 30 ms: ${(percentile(e.completionTyping, 95) / 30).toFixed(2)}×)`);
  console.log(`completion right after an edit with the default debounce (150 ms), ${e.completionTypingDefault.length} requests:`);
  console.log(`  p50 ${fmt(percentile(e.completionTypingDefault, 50))}   p95 ${fmt(percentile(e.completionTypingDefault, 95))}   (target p95 ≤ 30 ms: ${(percentile(e.completionTypingDefault, 95) / 30).toFixed(2)}×)`);
  console.log(`  server peak RSS during editing: ${peakEditing.toFixed(0)} MB`);

  const files = Number(process.env.AGENT_LENS_BENCH_FILES ?? 1000);
  const c = await coldIndex(files);
  console.log(`\ncold indexing, ${files} agent files (initialized → status ready):`);
  console.log(`  ${fmt(c.ms)} (${(c.ms / 5000).toFixed(2)}× of the 5 s budget); ${fmt(c.fromSpawn)} from process spawn; ${c.indexed} files, ${c.definitions} definitions`);
  console.log(`  server CPU time while indexing: ${fmt(c.cpu)}`);
  console.log(`  server peak RSS (VmHWM): ${c.rss.toFixed(0)} MB (target ≤ 400 MB: ${(c.rss / 400).toFixed(2)}×)`);
  console.log(`\npeak RSS over all runs: ${Math.max(peakEditing, c.rss).toFixed(0)} MB`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
