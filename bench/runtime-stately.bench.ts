// runSeam on the seed's two-request machine with scripts, next to a bare XState actor running the
// same machine shape with instant async actors. Prints runs per second, wall and CPU time per run and
// the overhead ratios (target: runSeam ≤ 1.5× the bare actor's time per run).
import { z } from "zod";
import { createActor, createAsyncLogic, setup, toPromise } from "xstate";
import { runSeam } from "../runtime/src/stately/testing";
import { seedMachine } from "../test/runtime/stately/fixtures";

const input = { topic: "saved cards at checkout" };
const scripts = { draftEmail: ["Checkout now supports saved cards."], scoreDraft: [{ score: 4 }] };

type Context = { topic: string; draft: string; score: number | null };

const bare = setup({
  schemas: {
    context: z.object({ topic: z.string(), draft: z.string(), score: z.number().nullable() }),
    input: z.object({ topic: z.string() }),
  },
  actors: {
    draftEmail: createAsyncLogic({ run: async () => ({ result: "Checkout now supports saved cards.", messages: [] }) }),
    scoreDraft: createAsyncLogic({ run: async () => ({ result: { score: 4 }, messages: [] }) }),
  },
}).createMachine({
  context: ({ input }) => ({ topic: input.topic, draft: "", score: null }),
  initial: "drafting",
  states: {
    drafting: { invoke: { src: "draftEmail", input: ({ context }: { context: Context }) => ({ topic: context.topic }), onDone: ({ output }) => ({ target: "scoring", context: { draft: output.result } }) } },
    scoring: { invoke: { src: "scoreDraft", input: ({ context }: { context: Context }) => ({ draft: context.draft }), onDone: ({ output }) => ({ target: "done", context: { score: output.result.score } }) } },
    done: { type: "final", output: ({ context }) => ({ draft: context.draft, score: context.score }) },
  },
});

async function runBare(): Promise<void> {
  const actor = createActor(bare, { input });
  actor.start();
  await toPromise(actor);
}

const machine = seedMachine();
async function runSeamOnce(): Promise<void> {
  const run = await runSeam(machine, { input, scripts, seam: { request: "scoreDraft" } });
  if (run.result.status !== "done") throw new Error("seam run did not finish");
}

interface Tally {
  runs: number;
  wallMs: number;
  cpuUs: number;
}

/** Runs `fn` for about `ms`, adding its runs, wall time and process CPU time to `tally`. */
async function measure(fn: () => Promise<void>, ms: number, tally: Tally): Promise<void> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let runs = 0;
  while (performance.now() - start < ms) {
    await fn();
    runs++;
  }
  const used = process.cpuUsage(cpu);
  tally.runs += runs;
  tally.wallMs += performance.now() - start;
  tally.cpuUs += used.user + used.system;
}

function line(name: string, t: Tally): string {
  const wallUs = (t.wallMs * 1000) / t.runs;
  const cpuUs = t.cpuUs / t.runs;
  return `${name.padEnd(34)} ${(t.runs / (t.wallMs / 1000)).toFixed(0).padStart(7)} runs/s   ${wallUs.toFixed(0).padStart(5)} µs wall / run   ${cpuUs.toFixed(0).padStart(5)} µs CPU / run`;
}

async function main(): Promise<void> {
  const ms = Number(process.env.BENCH_MS ?? 3000);
  const rounds = 6;
  for (let i = 0; i < 300; i++) {
    await runBare();
    await runSeamOnce();
  }
  // Side by side: the two alternate in short rounds, so load from other processes hits both alike.
  const bareTally: Tally = { runs: 0, wallMs: 0, cpuUs: 0 };
  const seamTally: Tally = { runs: 0, wallMs: 0, cpuUs: 0 };
  for (let r = 0; r < rounds; r++) {
    await measure(runBare, ms / rounds, bareTally);
    await measure(runSeamOnce, ms / rounds, seamTally);
  }
  console.log(line("bare xstate actor (instant async)", bareTally));
  console.log(line("runSeam (scripted, seed machine)", seamTally));
  const wallRatio = (seamTally.wallMs / seamTally.runs) / (bareTally.wallMs / bareTally.runs);
  const cpuRatio = (seamTally.cpuUs / seamTally.runs) / (bareTally.cpuUs / bareTally.runs);
  const target = 1.5;
  console.log(
    `overhead: runSeam takes ${wallRatio.toFixed(2)}× the bare actor's wall time and ${cpuRatio.toFixed(2)}× its CPU time per run ` +
      `(target ≤ ${target}×)${wallRatio <= target ? "" : "  ABOVE TARGET"}  [2 shared cores: compare the ratios, not the absolute figures]`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
