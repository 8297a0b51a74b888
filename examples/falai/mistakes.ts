// Deliberate mistakes, so `agent-lens check examples` has something to show. Every line marked
// `// expect: <code>` is reported with that code, and nothing else in this file is. Where TypeScript's
// own check (with the libraries' types) flags the same line, `@ts-expect-error` says so and keeps
// `tsc --noEmit` over examples/ clean.
import { falai, type AiProvider } from "@falai/agent";

const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  email: { type: "string", ask: "Pergunte o e-mail." },
  // @ts-expect-error TypeScript catches this one too, with the runtime's types
  plano: { type: "enum", enum: ["basico", "pro"], ask: "Qual plano interessa?" }, // expect: bad-field-type
  pessoas: { type: "integer", ask: "Para quantas pessoas?" },
});

const cadastro = f.flow({
  id: "cadastro",
  name: "Cadastro",
  on: [{ message: ["quer se cadastrar"] }, { silence: "1 dia" }], // expect: bad-duration
  steps: [
    { id: "quem", prompt: "Pergunte o nome e o e-mail.", collect: ["nome", "emial"] }, // expect: unknown-field
    { id: "espera", wait: "2d", else: "quen" }, // expect: unknown-step
    { id: "orcamento", prompt: "Monte um orçamento.", collect: ["pessoas"], tools: ["calcular-preco"] }, // expect: unknown-tool
    { id: "registro", do: "salvar-crm", with: { email: "{{data.email}}" } }, // expect: unknown-action
    { id: "pagamento", wait: { event: "pagamento-aprovado", upTo: "7d" } }, // expect: unknown-event
    { id: "vip", if: { ehVip: true }, then: "end", else: "quem" }, // expect: unknown-condition
    { id: "quem", prompt: "Despeça-se." }, // expect: duplicate-step
  ],
});

const qualificacao = f.flow({
  id: "qualificacao",
  name: "Qualificação",
  on: [{ message: ["pergunta sobre planos"] }],
  steps: [
    { id: "pergunta", collect: ["plano"], branches: [{ when: "a equipe é grande", then: "vendas" }], then: "end" },
    { id: "pequena", prompt: "Indique o plano básico." }, // expect: unreachable-step
    { id: "vendas", prompt: "Passe para um vendedor.", then: { flow: "humnao" } }, // expect: unknown-flow
  ],
});

const boasVindas = f.flow({ id: "boas-vindas", name: "Boas-vindas", on: [{ message: [], repeat: "always" }], steps: [{ id: "oi", prompt: "Cumprimente." }] });
const ajuda = f.flow({ id: "ajuda", name: "Ajuda", on: [{ message: [] }], steps: [{ id: "como", prompt: "Ofereça ajuda." }] }); // expect: catch-all-conflict

const humano = f.flow({ id: "humano", name: "Passar para um humano", steps: [{ id: "aviso", say: "Já chamo alguém da equipe." }] });

const esquecido = f.flow({
  id: "esquecido", // expect: untriggered-flow
  name: "Nunca começa",
  steps: [{ id: "nada", prompt: "Ninguém chega aqui." }],
});

const outroCadastro = f.flow({
  id: "cadastro", // expect: duplicate-flow
  name: "Cadastro (cópia)",
  on: [{ mention: ["um cadastro antigo"], extract: { email: { type: "string" } } }],
  steps: [{ id: "antigo", prompt: "Pergunte pelo cadastro antigo." }],
});

declare const provider: AiProvider;

// Used nowhere else, so nothing outside this file can start its flows by hand.
const agent = f.agent({
  name: "Ana",
  provider,
  flows: [cadastro, qualificacao, boasVindas, ajuda, humano, esquecido],
  tools: [{ id: "calcular-orcamento", description: "Calcula o preço para N pessoas.", handler: () => ({ value: 0 }) }],
  actions: { "salvar-cadastro": f.action({ parameters: { email: { type: "string" } }, run: () => ({ ok: true }) }) },
  events: { "pagamento-confirmado": f.event() },
  conditions: { ehCliente: f.condition(() => true) },
});
