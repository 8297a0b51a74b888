// Deliberate mistakes, so `agent-lens check examples` has something to show. Every line marked
// `// expect: <code>` is reported with that code, and nothing else in this file is. Where TypeScript's
// own check (with the libraries' types) flags the same line, `@ts-expect-error` says so and keeps
// `tsc --noEmit` over examples/ clean.
import { falai, type AiProvider } from "@falai/agent";

const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  email: { type: "string", ask: "Pergunte o e-mail." },
  // @ts-expect-error TypeScript catches this one too, with the runtime's types
  plano: { type: "enum", ask: "Qual plano interessa?" }, // expect: bad-field-type
  // @ts-expect-error TypeScript catches this one too, with the runtime's types
  pessoas: { type: "integer", ask: "Para quantas pessoas?" }, // expect: bad-field-type
});

export const cadastro = f.flow({
  id: "cadastro",
  name: "Cadastro",
  // @ts-expect-error TypeScript catches this one too, with the runtime's types
  on: [{ message: ["quer se cadastrar"] }, { silence: "1 dia" }], // expect: bad-duration
  steps: [
    { id: "quem", prompt: "Pergunte o nome e o e-mail.", collect: ["nome", "emial"] }, // expect: unknown-field
    // @ts-expect-error TypeScript catches this one too, with the runtime's types
    { id: "espera", wait: "2d", else: "quen" }, // expect: unknown-step
    { id: "orcamento", prompt: "Monte um orçamento.", tools: ["calcular-preco"] }, // expect: unknown-tool
    { id: "registro", prompt: "Confirme o cadastro.", do: ["salvar-crm"] }, // expect: unknown-action
    { id: "quem", prompt: "Despeça-se." }, // expect: duplicate-step
  ],
});

export const qualificacao = f.flow({
  id: "qualificacao",
  name: "Qualificação",
  on: [{ message: ["pergunta sobre planos"] }],
  steps: [
    { id: "pergunta", prompt: "Pergunte o tamanho da equipe.", branches: [{ when: "a equipe é grande", goto: "vendas" }, { goto: "end" }] },
    { id: "pequena", prompt: "Indique o plano básico." }, // expect: unreachable-step
    { id: "vendas", prompt: "Passe para um vendedor." },
  ],
});

export const boasVindas = f.flow({ id: "boas-vindas", name: "Boas-vindas", on: [{ message: [] }], steps: [{ id: "oi", prompt: "Cumprimente." }] });
export const ajuda = f.flow({ id: "ajuda", name: "Ajuda", on: [{ message: [] }], steps: [{ id: "como", prompt: "Ofereça ajuda." }] }); // expect: catch-all-conflict

export const esquecido = f.flow({
  id: "esquecido", // expect: untriggered-flow
  name: "Nunca começa",
  steps: [{ id: "nada", prompt: "Ninguém chega aqui." }],
});

export const outroCadastro = f.flow({
  id: "cadastro", // expect: duplicate-flow
  name: "Cadastro (cópia)",
  on: [{ mention: "um cadastro antigo", extract: ["email"] }],
  steps: [{ id: "antigo", prompt: "Pergunte pelo cadastro antigo." }],
});

export function createAgent(provider: AiProvider) {
  return f.agent({
    name: "Ana",
    provider,
    flows: [cadastro, qualificacao, boasVindas, esquecido],
    tools: [f.tool({ name: "calcular-orcamento", description: "Calcula o preço para N pessoas.", run: () => 0 })],
    actions: { "salvar-cadastro": () => {} },
  });
}
