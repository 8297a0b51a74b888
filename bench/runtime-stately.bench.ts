// runSeam on the seed's two-request machine with scripts, next to a bare XState actor running the
// same machine shape with instant async actors. Prints runs per second and the overhead ratio
// (target: runSeam ≤ 3× the bare actor's time per run).
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

async function measure(name: string, fn: () => Promise<void>, ms: number): Promise<number> {
  for (let i = 0; i < 200; i++) await fn(); // warm up
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await fn();
    runs++;
  }
  const perSecond = runs / ((performance.now() - start) / 1000);
  console.log(`${name.padEnd(34)} ${perSecond.toFixed(0).padStart(8)} runs/s`);
  return perSecond;
}

async function main(): Promise<void> {
  const ms = Number(process.env.BENCH_MS ?? 3000);
  const bareRate = await measure("bare xstate actor (instant async)", runBare, ms);
  const seamRate = await measure("runSeam (scripted, seed machine)", runSeamOnce, ms);
  const ratio = bareRate / seamRate;
  console.log(`overhead: runSeam takes ${ratio.toFixed(2)}× the bare actor's time per run (target ≤ 3×)${ratio <= 3 ? "" : "  ABOVE TARGET"}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
