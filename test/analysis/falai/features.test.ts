// The language features over the names @falai/agent v4 definitions use: steps in `then` / `else` /
// `onFail` / branches, flows in `then: { flow }` and `turn({ start })`, events, conditions and actions —
// completion, definition, references, rename and hover, through the pure feature functions on a real
// workspace analysis.
import assert from "node:assert/strict";
import { completionsAt, definitionAt, hoverAt, referencesAt, renameEdits } from "../../../server/src/analysis/features";
import { applyEdits, memoryWorkspace, slice } from "./support/project";

const FILE = "/w/agent.ts";
const TEXT = `import { falai } from "@falai/agent";
const f = falai().fields({ nome: { type: "string", ask: "Nome?" }, ok: { type: "boolean" } });
const vendas = f.flow({
  id: "vendas",
  name: "Vendas",
  on: [{ message: ["quer comprar"], if: { naEtapa: "vendas" } }, { event: "pago" }],
  steps: [
    { id: "quem", collect: ["nome"], branches: [{ when: "quer humano", then: { flow: "humano" } }] },
    { id: "espera", wait: { event: "pago", upTo: "7d" }, else: "quem" },
    { id: "avisa", do: "notificar", onFail: "quem" },
    { id: "confere", if: { equals: { ok: true }, naEtapa: "fim" }, then: "end", else: { step: "quem", clear: ["nome"] } },
  ],
});
const humano = f.flow({ id: "humano", name: "Humano", steps: [{ id: "aviso", say: "Já chamo." }] });
export const agent = f.agent({
  name: "Ana",
  provider: undefined as never,
  flows: [vendas, humano],
  actions: { notificar: f.action({ description: "Avisa o time.", parameters: {}, run: () => ({ ok: true }) }) },
  events: { pago: f.event({ direction: "inbound" }) },
  conditions: { naEtapa: f.condition((ctx, etapa: string) => etapa === "vendas") },
});
await agent.turn({ sessionId: "s", start: { flow: "humano", key: "k" } });
await agent.turn({ sessionId: "s", event: "pago", key: "e1" });
`;

/** Offset of the `nth` occurrence of `needle`, plus `delta`. */
const at = (needle: string, delta = 0, nth = 0) => {
  let i = -1;
  for (let n = 0; n <= nth; n++) i = TEXT.indexOf(needle, i + 1);
  assert.ok(i >= 0, needle);
  return i + delta;
};

describe("falai language features on v4 names", () => {
  const ws = memoryWorkspace({ [FILE]: TEXT });
  const analysis = ws.analyze(FILE);
  const index = ws.workspace;

  it("the file is clean", () => assert.deepEqual(analysis.findings, []));

  it("completion: step ids (and end) in else / onFail / { step }; flows in { flow } and start; events, conditions, actions", () => {
    const labels = (offset: number) => completionsAt(analysis, offset, TEXT).map((c) => c.label);
    assert.deepEqual(labels(at('else: "quem"', 8)), ["quem", "espera", "avisa", "confere", "end"]);
    assert.deepEqual(labels(at('onFail: "quem"', 10)), ["quem", "espera", "avisa", "confere", "end"]);
    assert.deepEqual(labels(at('step: "quem"', 8)), ["quem", "espera", "avisa", "confere", "end"]);
    assert.deepEqual(labels(at('flow: "humano" }', 8)), ["vendas", "humano"]);
    assert.deepEqual(labels(at('start: { flow: "humano"', 17)), ["vendas", "humano"]);
    assert.deepEqual(labels(at('event: "pago" }', 9)), ["pago"]);
    assert.deepEqual(labels(at('do: "notificar"', 6)), ["notificar"]);
    assert.deepEqual(labels(at("naEtapa:", 2)), ["naEtapa"]);
    assert.deepEqual(labels(at('clear: ["nome"]', 10)), ["nome", "ok"]);
    assert.deepEqual(labels(at('upTo: "7d"', 7)), ["24h", "1h", "30m", "2d", "7d", "30s", "5m"], "durations in upTo");
  });

  it("definition: a jump to its step, a { flow } and a start to the flow, names to their registrations", () => {
    const def = (offset: number) => definitionAt(index, analysis, offset).map((s) => `${s.kind}:${s.name}:${slice(TEXT, s.nameRange)}`);
    assert.deepEqual(def(at('else: "quem"', 9)), ["step:quem:quem"]);
    assert.deepEqual(def(at('flow: "humano" }', 9)), ["flow:humano:humano"]);
    assert.deepEqual(def(at('start: { flow: "humano"', 18)), ["flow:humano:humano"]);
    assert.deepEqual(def(at('do: "notificar"', 7)), ["action:notificar:notificar"]);
    assert.deepEqual(def(at('event: "pago", key')), []);
    assert.deepEqual(def(at('event: "pago", key', 9)), ["event:pago:pago"]);
    assert.deepEqual(def(at("naEtapa: \"fim\"", 2)), ["condition:naEtapa:naEtapa"]);
  });

  it("references: every place an event, a condition and a step are named", () => {
    const refs = (offset: number) => referencesAt(index, analysis, offset, true).map((l) => `${l.range.startLine + 1}:${slice(TEXT, l.range)}`);
    assert.deepEqual(refs(at("pago: f.event", 1)), ["6:pago", "9:pago", "20:pago", "24:pago"]);
    assert.deepEqual(refs(at("naEtapa: f.condition", 1)), ["6:naEtapa", "11:naEtapa", "21:naEtapa"]);
    assert.deepEqual(refs(at('id: "quem"', 5)), ["8:quem", "9:quem", "10:quem", "11:quem"]);
  });

  it("rename: an event, a condition, an action and a step, with every reference", () => {
    const rename = (offset: number, name: string) => applyEdits(TEXT, renameEdits(index, analysis, offset, name, () => TEXT)!.edits);
    const event = rename(at("pago: f.event", 1), "pagamento");
    assert.equal((event.match(/pagamento/g) ?? []).length, 4);
    assert.ok(!/"pago"/.test(event));
    assert.deepEqual(memoryWorkspace({ [FILE]: event }).analyze(FILE).findings, [], "the renamed file is clean");
    const condition = rename(at("naEtapa: \"fim\"", 2), "etapa-atual");
    assert.match(condition, /"etapa-atual": f\.condition/);
    assert.match(condition, /if: \{ "etapa-atual": "vendas" \}/);
    assert.deepEqual(memoryWorkspace({ [FILE]: condition }).analyze(FILE).findings, []);
    const action = rename(at('do: "notificar"', 7), "avisar");
    assert.match(action, /do: "avisar"/);
    assert.match(action, /actions: \{ avisar: f\.action/);
    const step = rename(at('else: "quem"', 9), "quem-fala");
    assert.equal((step.match(/quem-fala/g) ?? []).length, 4);
    assert.deepEqual(memoryWorkspace({ [FILE]: step }).analyze(FILE).findings, []);
  });

  it("hover: a step through a jump, an event, a condition and an action", () => {
    const hover = (offset: number) => hoverAt(index, analysis, offset)!.markdown;
    assert.match(hover(at('onFail: "quem"', 9)), /\(step\) quem[\s\S]*Collects: `nome`/);
    assert.match(hover(at("pago: f.event", 1)), /\(event\) pago[\s\S]*Event `pago`/);
    assert.match(hover(at("naEtapa: f.condition", 1)), /\(condition\) naEtapa/);
    assert.match(hover(at('do: "notificar"', 7)), /\(action\) notificar — Avisa o time\.[\s\S]*Avisa o time\./);
    assert.match(hover(at('id: "avisa"', 5)), /Runs action `notificar`; on failure goes to `quem`/);
  });
});
