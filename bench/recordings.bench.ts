// npm run bench:recordings — what answering from a recording costs: `agent-lens run` of an eval file whose
// model calls are replayed from __recordings__/ against the same file answered by hand-written scripts,
// side by side (alternating rounds, warm bundle cache), CPU beside wall, with the ratio (goal ≤ 1.1×):
// - stately: the seed's machine through createAiSdkExecutors (the AI SDK's mock models, recorded once)
//   against createScriptedExecutors with the same answers;
// - falai: two turns through a provider (recorded once) against the testing guide's scripted provider.
// Both files of a pair import the same modules, so only the answering differs. Needs `npm run build` first.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { seedMachineSource } from "../test/support/seed-machine-source";
import { childCpuMs, load, median } from "./measure";

const root = resolve(__dirname, "..");
if (!existsSync(join(root, "dist/cli/run.js"))) throw new Error("build first: npm run build");
const dist = join(mkdtempSync(join(tmpdir(), "agent-lens-bench-rec-")), "dist");
cpSync(join(root, "dist"), dist, { recursive: true });
symlinkSync(join(root, "node_modules"), join(dist, "../node_modules"), "dir");
process.on("exit", () => rmSync(join(dist, ".."), { recursive: true, force: true }));

const fmt = (ms: number) => `${Math.round(ms)} ms`.padStart(7);

interface Sample {
  wallMs: number;
  cpuMs: number;
  /** The test's own duration as node:test measured it (the model calls, answered one way or the other). */
  testMs: number;
}

function run(args: string[], cwd: string, cache: string): Sample {
  const cpu0 = childCpuMs();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(dist, "cli/agent-lens.js"), "run", "--json", ...args], { cwd, encoding: "utf8", env: { ...process.env, AGENT_LENS_CACHE_DIR: cache, AGENT_LENS_DIST: dist, NO_COLOR: "1" } });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`agent-lens run ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  const end = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; durationMs?: number }).find((e) => e.type === "test-end");
  return { wallMs, cpuMs: childCpuMs() - cpu0, testMs: end?.durationMs ?? Number.NaN };
}

const STATELY = (executors: string) => `import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { MockLanguageModelV3 } from "ai/test";
import { setupAgent, runAgent } from "@statelyai/agent";
import { createAiSdkExecutors } from "@statelyai/agent/ai-sdk";
import { createScriptedExecutors } from "@statelyai/agent/testing";

${seedMachineSource("Write a short email about ${input.topic}.")}const model = (text: string) => new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, warnings: [],
  usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } } }) });
const executors = ${executors};
test("drafts and scores", async () => {
  const result = await runAgent(machine, { input: { topic: "saved cards at checkout" }, executors });
  assert.deepEqual(result.status === "done" && result.output, { draft: "Checkout now supports saved cards.", score: 4 });
});
`;
const AI_SDK = `createAiSdkExecutors({ models: { writer: model("Checkout now supports saved cards."), judge: model(JSON.stringify({ result: { score: 4 } })) } })`;
const SCRIPTED = `(void createAiSdkExecutors, createScriptedExecutors({ text: { draftEmail: "Checkout now supports saved cards.", scoreDraft: { score: 4 } } }))`;

const FALAI = (markUnscripted: boolean) => `import { test } from "node:test";
import assert from "node:assert/strict";
import { falai, fakeClock, type AiProvider, type GenerateMessageInput } from "@falai/agent";

const replies: Record<string, Array<Record<string, unknown>>> = {
  understand: [{ flows: {}, mentions: {}, extract: {}, branches: {}, fields: { nome: "Ana" } }],
  speak: [{ message: "Oi! Como você se chama?", nome: null }, { message: "Prazer, Ana!" }],
};
// ${markUnscripted ? "A provider like a vendor's (recorded once, then replayed)." : "The testing guide's scripted provider."}
const provider: AiProvider = {
  name: ${JSON.stringify(markUnscripted ? "vendor-like" : "scripted")},
  capabilities: { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: false, supportsStreamingToolCalls: false, supportsPromptCaching: false },
  async generateMessage(input: GenerateMessageInput) {
    const reply = replies[input.parameters?.schemaName ?? ""]!.shift()!;
    return { message: typeof reply.message === "string" ? reply.message : JSON.stringify(reply), structured: reply as never, metadata: { promptTokens: 100, completionTokens: 10 } };
  },
};
const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
const flow = f.flow({ id: "boas-vindas", name: "Boas-vindas", on: [{ message: [] }], steps: [{ id: "nome", prompt: "Descubra o nome.", collect: ["nome"] }, { id: "fim", prompt: "Agradeça." }] });
test("two turns", async () => {
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
  const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
  const t2 = await agent.turn({ sessionId: "s1", session: t1.session, message: "sou a Ana", id: "m2" });
  assert.equal(t2.session.data.nome, "Ana");
});
`;

function pair(name: string, replayed: string, scripted: string, rounds = 9): void {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-bench-rec-project-"));
  const cache = mkdtempSync(join(tmpdir(), "agent-lens-bench-rec-cache-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "bench", type: "module" }));
    writeFileSync(join(dir, "replayed.eval.ts"), replayed);
    writeFileSync(join(dir, "scripted.eval.ts"), scripted);
    run(["--record", "replayed.eval.ts"], dir, cache); // records once (the mock models / provider answer)
    run(["--replay-only", "replayed.eval.ts"], dir, cache); // and the replay passes
    run(["scripted.eval.ts"], dir, cache);
    const samples = { replayed: [] as Sample[], scripted: [] as Sample[] };
    for (let i = 0; i < rounds; i++) {
      // ABBA: neither side always goes first on a busy machine.
      const order = i % 2 ? (["scripted", "replayed"] as const) : (["replayed", "scripted"] as const);
      for (const kind of order) samples[kind].push(run([`${kind}.eval.ts`], dir, cache));
    }
    const m = (k: keyof typeof samples, f: keyof Sample) => median(samples[k].map((s) => s[f]));
    const ratio = m("replayed", "wallMs") / m("scripted", "wallMs");
    console.log(`  ${name.padEnd(8)} replayed ${fmt(m("replayed", "wallMs"))} (cpu ${fmt(m("replayed", "cpuMs"))}, the test ${fmt(m("replayed", "testMs"))}) | hand-written scripts ${fmt(m("scripted", "wallMs"))} (cpu ${fmt(m("scripted", "cpuMs"))}, the test ${fmt(m("scripted", "testMs"))})`);
    console.log(`  ${"".padEnd(8)} wall ×${ratio.toFixed(2)} (goal ≤ 1.1×: ${ratio <= 1.1 ? "met" : "MISSED"}), cpu ×${(m("replayed", "cpuMs") / m("scripted", "cpuMs")).toFixed(2)}, the test's own time ×${(m("replayed", "testMs") / m("scripted", "testMs")).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}

console.log(`recordings bench: agent-lens run --json, warm cache, median of 9 rounds (ABBA) (node ${process.version}; load ${load()} at the start)`);
pair("stately", STATELY(AI_SDK), STATELY(SCRIPTED));
pair("falai", FALAI(true), FALAI(false));
console.log(`  (load ${load()} at the end)`);
