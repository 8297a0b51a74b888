// What the provider tests share: a small real agent (one field, a prompt step that may call a tool, a collect step)
// built with the runtime itself, an environment variable set for one suite, and a check that a secret appears
// nowhere in a value however deeply it is inspected.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { falai, fakeClock, type AiProvider, type Tool } from "@falai/agent";

export const KEY = "placeholder-credential-4f2c9e1a7b3d5e6f8a9b0c1d2e3f4a5b";
const T0 = "2026-09-20T10:00:00.000Z";

const f = falai().fields({ pessoas: { type: "number", ask: "Pergunte para quantas pessoas." }, orcamento: { type: "number" } });

const orcamento: Tool = {
  id: "orcamento",
  description: "Calcula o orçamento para o número de pessoas",
  parameters: { type: "object", properties: { pessoas: { type: "number" } }, required: ["pessoas"] },
  handler: (args) => ({ value: { total: Number(args.pessoas) * 500 }, data: { orcamento: Number(args.pessoas) * 500 } }),
};

/** An agent whose `start` turn goes straight to one speak call (no understand call): `prompt` calls tools, `collect` asks. */
export function agentFor(provider: AiProvider) {
  const flows = [
    f.flow({ id: "orc", name: "Orçamento", steps: [{ id: "calc", prompt: "Calcule o orçamento para 3 pessoas e diga o total.", tools: ["orcamento"] }] }),
    f.flow({ id: "quantos", name: "Quantos", steps: [{ id: "q", collect: ["pessoas"] }] }),
  ];
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), tools: [orcamento], flows });
  return {
    agent,
    start: (flow: "orc" | "quantos") => agent.turn({ sessionId: "s1", start: { flow, key: "k1" } }),
    stream: (flow: "orc" | "quantos") => agent.turnStream({ sessionId: "s1", start: { flow, key: "k1" } }),
  };
}

/** Sets environment variables for the enclosing `describe` and puts the old values back after it. */
export function useEnv(vars: () => Record<string, string | undefined>): void {
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const [k, v] of Object.entries(vars())) {
      saved[k] = process.env[k];
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

/** The secret is in none of: the value's message, its inspection (causes and nested fields), its JSON. */
export function assertNoSecret(value: unknown, secret = KEY): void {
  const texts = [inspect(value, { depth: 30, showHidden: true, getters: true }), value instanceof Error ? value.message : ""];
  try {
    texts.push(JSON.stringify(value) ?? "");
  } catch {
    // circular: the inspection covers it
  }
  for (const t of texts) assert.equal(t.includes(secret), false, `the key leaked into: ${t.slice(0, 400)}`);
}

/** The rejection of `p`, which must reject. */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await p;
  } catch (error) {
    return error as Error & Record<string, any>;
  }
  assert.fail("expected a rejection");
}
