// @falai/agent runtime: turns per second on the testing document's end-to-end flow with a scripted provider (CPU
// time beside wall time), and the session size (JSON bytes) over 1,000 turns on one session — it must plateau under
// the caps (INPUTS_CAP message ids, ALWAYS_CLAIMS_CAP claims per flow, RUN_OUTCOMES_CAP lines per run, live runs only).
// The silence flow repeats (`always`) and wakes every tenth turn, so its claims fill up to the cap by turn 1,000.
// Run: npx tsx bench/runtime-falai.bench.ts   (the machine is shared: read the ratios, not the absolute figures)
import { performance } from "node:perf_hooks";
import {
  falai, fakeClock, MemoryScheduler, MemoryStore, INPUTS_CAP, ALWAYS_CLAIMS_CAP, RUN_OUTCOMES_CAP,
  type AiProvider, type DataOf, type GenerateMessageInput, type GenerateMessageOutput, type Session, type TurnKind,
} from "../runtime/src/falai/index";

const T0 = "2026-09-20T10:00:00.000Z";
const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome de um jeito leve." },
  empresa: { type: "string", ask: "Pergunte de qual empresa a pessoa fala." },
});
type Data = DataOf<typeof f>;
const triagem = (repeat: "once" | "always") => f.flow({
  id: "triagem",
  name: "Triagem",
  on: [{ message: ["quer saber como funciona", "pede um orçamento"], repeat }],
  steps: [
    { id: "quem", prompt: "Descubra quem é e de onde fala.", collect: ["nome", "empresa"] },
    { id: "tchau", prompt: "Agradeça e diga que um vendedor continua daqui." },
  ],
});
const retomar = f.flow({
  id: "retomar",
  name: "Retomar quem sumiu",
  on: [{ silence: "24h", repeat: "always" }],
  steps: [
    { id: "p1", prompt: "Retome a conversa de forma leve e pergunte se ainda faz sentido." },
    { id: "w1", wait: "2d", else: "end" },
    { id: "p2", prompt: "Última tentativa, curta e sem pressão." },
  ],
});

/** Answers every call from a fixed script (never runs dry), like the document's provider. */
function looping(understand: () => Record<string, unknown>): AiProvider {
  return {
    name: "scripted",
    capabilities: { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false },
    generateMessage: <_C, T>(input: GenerateMessageInput): Promise<GenerateMessageOutput<T>> => {
      const reply = input.parameters?.schemaName === "understand" ? understand() : { message: "resposta", empresa: null };
      return Promise.resolve({ message: JSON.stringify(reply), structured: reply as T });
    },
  };
}

async function endToEnd(sessions: number): Promise<{ turns: number; ms: number; cpuMs: number }> {
  const clock = fakeClock(T0);
  const agent = f.agent({ name: "Ana", provider: looping(() => ({ flows: {}, mentions: {}, extract: {}, branches: {}, fields: { nome: "Ana" } })), clock, flows: [triagem("once"), retomar] });
  const store = new MemoryStore<Data>();
  const scheduler = new MemoryScheduler();
  async function runTurn(input: TurnKind & { sessionId: string }) {
    const session = await store.load(input.sessionId);
    const r = await agent.turn({ ...input, session: session ?? undefined, history: [] });
    if (r.changed) {
      await store.save(r.session, session?.version ?? 0);
      for (const entry of r.schedule) scheduler.add(entry);
    }
    return r;
  }
  let turns = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < sessions; i++) {
    await runTurn({ sessionId: `s${i}`, message: "oi, sou a Ana, quero saber como funciona", id: "m1" });
    turns++;
  }
  clock.advance("24h");
  for (const due of scheduler.due(clock.now())) {
    await runTurn({ sessionId: /^silence:retomar:(.+):\d+$/.exec(due.key)![1]!, wake: due.key });
    turns++;
  }
  const cpu = process.cpuUsage(cpu0);
  return { turns, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function sessionGrowth(total: number): Promise<Array<[number, number]>> {
  const clock = fakeClock(T0);
  // Every message gives both fields and starts triagem again (repeat: always): it skips `quem`, says goodbye, ends.
  const provider = looping(() => ({ flows: { triagem: 90 }, mentions: {}, extract: {}, branches: {}, fields: { nome: "Ana", empresa: "Acme" } }));
  const agent = f.agent({ name: "Ana", provider, clock, flows: [triagem("always"), retomar] });
  const scheduler = new MemoryScheduler();
  let session: Session<Data> | undefined;
  const sizes: Array<[number, number]> = [];
  for (let i = 1; i <= total; i++) {
    clock.advance("25h");
    const wake = i % 10 === 0 ? scheduler.due(clock.now())[0] : undefined;
    const r = wake
      ? await agent.turn({ sessionId: "s1", wake: wake.key, session })
      : await agent.turn({ sessionId: "s1", message: `mensagem ${i}`, id: `m${i}`, session });
    if (r.changed) {
      session = { ...r.session, version: r.session.version + 1 };
      r.schedule.forEach((e) => scheduler.add(e));
    }
    if ([10, 100, 500, 1000, 1500, 2000].includes(i)) sizes.push([i, Buffer.byteLength(JSON.stringify(session))]);
  }
  return sizes;
}

async function main() {
  await endToEnd(200); // warm-up
  const runs = [];
  for (let k = 0; k < 5; k++) runs.push(await endToEnd(2_000));
  const byRate = [...runs].sort((a, b) => a.turns / a.ms - b.turns / b.ms);
  const median = byRate[2]!;
  const best = byRate[4]!;
  console.log("end-to-end flow (document's triage + silence wake, store + scheduler, scripted provider; 2 shared cores):");
  console.log(`  ${median.turns} turns per run; median ${Math.round((median.turns / median.ms) * 1000)} turns/s wall, ${Math.round((median.turns / median.cpuMs) * 1000)} turns/s CPU (${((median.ms * 1000) / median.turns).toFixed(1)} µs wall, ${((median.cpuMs * 1000) / median.turns).toFixed(1)} µs CPU per turn); best ${Math.round((best.turns / best.ms) * 1000)} turns/s wall`);

  const sizes = await sessionGrowth(2_000);
  console.log(`session size (JSON bytes) on one session, caps: ${INPUTS_CAP} message ids, ${ALWAYS_CLAIMS_CAP} always-claims per flow, ${RUN_OUTCOMES_CAP} lines per run:`);
  for (const [turn, bytes] of sizes) console.log(`  after ${String(turn).padStart(4)} turns: ${bytes} bytes`);
  const [, at1000] = sizes.find(([t]) => t === 1000)!;
  const [, at2000] = sizes.find(([t]) => t === 2000)!;
  console.log(`  growth from 1000 to 2000 turns: ${(at2000 / at1000).toFixed(3)}x`);
}

void main();
