// A small sales-triage agent, from the @falai/agent testing document: a flow that asks who the customer
// is and where they are from, and a flow that nudges them after a day of silence.
import { falai, fakeClock, type AiProvider, type DataOf } from "@falai/agent";

export const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome de um jeito leve." },
  empresa: { type: "string", ask: "Pergunte de qual empresa a pessoa fala." },
});
export type Data = DataOf<typeof f>;

export const triagem = f.flow({
  id: "triagem",
  name: "Triagem",
  on: [{ message: ["quer saber como funciona", "pede um orçamento"] }],
  steps: [
    { id: "quem", prompt: "Descubra quem é e de onde fala.", collect: ["nome", "empresa"] },
    { id: "tchau", prompt: "Agradeça e diga que um vendedor continua daqui." },
  ],
});

export const retomar = f.flow({
  id: "retomar",
  name: "Retomar quem sumiu",
  on: [{ silence: "24h" }],
  steps: [
    { id: "p1", prompt: "Retome a conversa de forma leve e pergunte se ainda faz sentido." },
    { id: "w1", wait: "2d", else: "end" },
    { id: "p2", prompt: "Última tentativa, curta e sem pressão." },
  ],
});

/** The agent, with the provider and clock the caller chooses (a scripted provider and a fake clock in tests). */
export function createTriageAgent(provider: AiProvider, clock?: ReturnType<typeof fakeClock>) {
  return f.agent({ name: "Ana", provider, clock, flows: [triagem, retomar] });
}
