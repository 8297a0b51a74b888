// @falai/agent runtime: turns per second on the document's end-to-end flow with a scripted provider,
// and the session size (JSON bytes) over 1,000 turns on one session — it must plateau under the caps
// (SEEN_CAP message ids, DONE_RUNS_CAP finished runs, one live run per flow).
// Run: npx tsx bench/runtime-falai.bench.ts
import { performance } from "node:perf_hooks";
import {
  falai, fakeClock, MemoryScheduler, MemoryStore, SEEN_CAP, DONE_RUNS_CAP,
  type AiProvider, type DataOf, type GenerateMessageInput, type GenerateMessageOutput, type TurnKind,
} from "../runtime/src/falai/index";

const T0 = "2026-09-20T10:00:00.000Z";
const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome de um jeito leve." },
  empresa: { type: "string", ask: "Pergunte de qual empresa a pessoa fala." },
});
type Data = DataOf<typeof f>;
const triagem = f.flow({
  id: "triagem",
  name: "Triagem",
  on: [{ message: ["quer saber como funciona", "pede um orçamento"] }],
  steps: [
    { id: "quem", prompt: "Descubra quem é e de onde fala.", collect: ["nome", "empresa"] },
    { id: "tchau", prompt: "Agradeça e diga que um vendedor continua daqui." },
  ],
});
const retomar = f.flow({
  id: "retomar",
  name: "Retomar quem sumiu",
  on: [{ silence: "24h" }],
  steps: [
    { id: "p1", prompt: "Retome a conversa de forma leve e pergunte se ainda faz sentido." },
    { id: "w1", wait: "2d", else: "end" },
    { id: "p2", prompt: "Última tentativa, curta e sem pressão." },
  ],
});

/** Answers every call from a fixed script (never runs dry), like the document's provider. */
function looping(understand: (n: number) => Record<string, unknown>): AiProvider & { calls: number } {
  const p = {
    name: "scripted",
    calls: 0,
    capabilities: { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false },
    generateMessage: <_C, T>(input: GenerateMessageInput): Promise<GenerateMessageOutput<T>> => {
      const n = ++p.calls;
      const reply = input.parameters?.schemaName === "understand" ? understand(n) : { message: `resposta ${n}`, empresa: null };
      return Promise.resolve({ message: JSON.stringify(reply), structured: reply as T });
    },
  };
  return p;
}

async function endToEnd(sessions: number): Promise<{ turns: number; ms: number }> {
  const clock = fakeClock(T0);
  const provider = looping(() => ({ flows: {}, mentions: {}, extract: {}, branches: {}, fields: { nome: "Ana" } }));
  const agent = f.agent({ name: "Ana", provider, clock, flows: [triagem, retomar] });
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
  const t0 = performance.now();
  for (let i = 0; i < sessions; i++) {
    await runTurn({ sessionId: `s${i}`, message: "oi, sou a Ana, quero saber como funciona", id: "m1" });
    turns++;
  }
  clock.advance("24h");
  for (const due of scheduler.take(clock.now())) {
    await runTurn({ sessionId: due.sessionId, wake: due.key });
    turns++;
  }
  return { turns, ms: performance.now() - t0 };
}

async function sessionGrowth(total: number): Promise<Array<[number, number]>> {
  const clock = fakeClock(T0);
  // Every message gives both fields: triagem passes `quem`, says goodbye, and is done; the next message starts it again.
  const provider = looping(() => ({ flows: { triagem: 90 }, mentions: {}, extract: {}, branches: {}, fields: { nome: "Ana", empresa: "Acme" } }));
  const agent = f.agent({ name: "Ana", provider, clock, flows: [triagem, retomar] });
  const scheduler = new MemoryScheduler();
  let session = undefined as Awaited<ReturnType<typeof agent.turn>>["session"] | undefined;
  const sizes: Array<[number, number]> = [];
  for (let i = 1; i <= total; i++) {
    clock.advance("1h");
    const wake = i % 10 === 0 ? scheduler.take(clock.now())[0] : undefined;
    const r = wake
      ? await agent.turn({ sessionId: "s1", wake: wake.key, session })
      : await agent.turn({ sessionId: "s1", message: `mensagem ${i}`, id: `m${i}`, session });
    if (r.changed) {
      session = r.session;
      r.schedule.forEach((e) => scheduler.add(e));
    }
    if ([10, 100, 250, 500, 750, 1000].includes(i)) sizes.push([i, Buffer.byteLength(JSON.stringify(session))]);
  }
  return sizes;
}

async function main() {
  await endToEnd(200); // warm-up
  const runs = [];
  for (let k = 0; k < 5; k++) runs.push(await endToEnd(2_000));
  const best = runs.reduce((a, b) => (a.turns / a.ms > b.turns / b.ms ? a : b));
  const median = runs.map((r) => (r.turns / r.ms) * 1000).sort((a, b) => a - b)[2]!;
  console.log(`end-to-end flow (document's triage + silence wake, store + scheduler, scripted provider):`);
  console.log(`  ${best.turns} turns per run; median ${Math.round(median)} turns/s, best ${Math.round((best.turns / best.ms) * 1000)} turns/s (${((best.ms * 1000) / best.turns).toFixed(1)} µs/turn)`);

  const sizes = await sessionGrowth(1_000);
  console.log(`session size (JSON bytes) on one session, caps: ${SEEN_CAP} message ids, ${DONE_RUNS_CAP} finished runs:`);
  for (const [turn, bytes] of sizes) console.log(`  after ${String(turn).padStart(4)} turns: ${bytes} bytes`);
  const [, at500] = sizes.find(([t]) => t === 500)!;
  const [, at1000] = sizes.find(([t]) => t === 1000)!;
  console.log(`  growth from 500 to 1000 turns: ${(at1000 / at500).toFixed(3)}x`);
}

void main();
