// Each flow check on @falai/agent v4 definitions: a case that fires (code, exact range) and near misses
// that must not.
import assert from "node:assert/strict";
import { analyzeSource, applyEdits, slice } from "./support/project";

const HEAD = `import { falai } from "@falai/agent";
const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  empresa: { type: "string", ask: "Pergunte a empresa." },
});
`;

/** Findings of `body` appended to a file with the standard field set. */
function check(body: string) {
  const r = analyzeSource(HEAD + body);
  return { ...r, at: (code: string) => r.findings.filter((f) => f.code === code).map((f) => slice(r.text, f.range)) };
}

const flow = (steps: string, on = `[{ message: ["oi"] }]`, id = "t") => `f.flow({ id: "${id}", name: "T", on: ${on}, steps: [${steps}] });\n`;
/** An agent running one flow, with extra options (registries). */
const agentWith = (options: string, steps: string, on?: string) => `const t = ${flow(steps, on)}export const agent = f.agent({ name: "A", provider: undefined as never, flows: [t]${options} });\n`;

describe("falai checks", () => {
  describe("unknown-field", () => {
    it("fires on a collect of an undeclared field, with the nearest name and a declaration as fixes", () => {
      const r = check(flow(`{ id: "a", collect: ["nome", "empressa"] }`));
      assert.deepEqual(r.at("unknown-field"), ['"empressa"']);
      const [finding] = r.findings;
      assert.equal(finding!.severity, "error");
      assert.match(finding!.message, /Did you mean 'empresa'/);
      const [rename, declare] = finding!.fixes!;
      assert.equal(rename!.preferred, true);
      assert.match(applyEdits(r.text, rename!.edits), /collect: \["nome", "empresa"\]/);
      const declared = applyEdits(r.text, declare!.edits);
      assert.match(declared, /  empresa: \{ type: "string", ask: "Pergunte a empresa." \},\n  empressa: \{ type: "string", ask: "…" \},\n\}\);/);
      assert.deepEqual(analyzeSource(declared).findings, [], "the declaration fix leaves a clean file");
    });

    it("fires in every place a flow names a field: ask keys, clear, clearOnStart, equals and known", () => {
      const r = check(`f.flow({ id: "t", name: "T", on: [{ message: ["oi"] }], clearOnStart: ["nom"], steps: [
  { id: "a", collect: ["nome"], ask: { empresaa: "Pergunte a empresa." } },
  { id: "b", if: { equals: { confirmado: true } }, else: { step: "a", clear: ["nomee"] } },
  { id: "c", if: { known: ["empres"] }, then: "end" },
] });
`);
      const found = r.findings.filter((f) => f.code === "unknown-field").sort((a, b) => a.range.start - b.range.start);
      assert.deepEqual(found.map((f) => slice(r.text, f.range)), ['"nom"', "empresaa", "confirmado", '"nomee"', '"empres"']);
    });

    it("suggests for every use of a misspelled name, and for each name its own", () => {
      const r = check(flow(`{ id: "a", collect: ["empressa", "nom"] }, { id: "b", collect: ["empressa"], ask: { nom: "Quem?" } }`));
      const found = r.findings.filter((f) => f.code === "unknown-field").sort((a, b) => a.range.start - b.range.start);
      assert.deepEqual(found.map((f) => [slice(r.text, f.range), f.fixes?.[0]?.edits[0]?.newText]), [['"empressa"', "empresa"], ['"nom"', "nome"], ['"empressa"', "empresa"], ["nom", "nome"]]);
    });

    it("does not fire for declared fields, a mention's extract (run input), or an open field set", () => {
      assert.deepEqual(check(flow(`{ id: "a", collect: ["nome", "empresa"], ask: { nome: "Quem?" } }`)).findings, []);
      assert.deepEqual(check(flow(`{ id: "a", do: "avisar" }`, `[{ mention: ["um concorrente"], extract: { trecho: { type: "string" } } }]`)).findings, []);
      const open = analyzeSource(`import { falai } from "@falai/agent";\nimport { extra } from "./extra";\nconst f = falai().fields({ ...extra, nome: { type: "string" } });\nf.flow({ id: "t", name: "T", on: [{ message: [] }], steps: [{ id: "a", collect: ["cidade"] }] });\n`);
      assert.deepEqual(open.findings, []);
    });

    it("fires in an agent-level instruction's `if` (equals / known), and its idle speaker's, with the nearest name", () => {
      const r = check(`const t = ${flow(`{ id: "a", collect: ["nome"] }`)}export const agent = f.agent({ name: "A", provider: undefined as never, flows: [t],
  instructions: [{ prompt: "Chame pelo nome.", if: { known: ["nomes"] } }, { prompt: "Ok.", if: { equals: { empresa: "x" } } }],
  idle: { instructions: [{ prompt: "Oi.", if: { known: ["empresaa"] } }] } });
`);
      assert.deepEqual(r.at("unknown-field"), ['"nomes"', '"empresaa"']);
      assert.match(r.findings[0]!.message, /an instruction of this agent.*Did you mean 'nome'\?$/);
      assert.equal(r.findings[0]!.fixes?.[0]?.title, "Change to 'nome'");
      // a builder whose field set cannot be read is not judged
      const open = analyzeSource(`import { falai } from "@falai/agent";\nimport { extra } from "./extra";\nconst f = falai().fields({ ...extra });\nexport const agent = f.agent({ name: "A", provider: undefined as never, flows: [], instructions: [{ prompt: "x", if: { known: ["cidade"] } }] });\n`);
      assert.deepEqual(open.findings, []);
    });

    it("declaration fix keeps a single-line object's style", () => {
      const r = analyzeSource(`import { falai } from "@falai/agent";\nconst f = falai().fields({ nome: { type: "string" } });\nf.flow({ id: "t", name: "T", on: [{ message: [] }], steps: [{ id: "a", collect: ["idade"] }] });\n`);
      const declare = r.findings[0]!.fixes!.find((x) => x.title.startsWith("Declare"))!;
      assert.match(applyEdits(r.text, declare.edits), /fields\(\{ nome: \{ type: "string" \}, idade: \{ type: "string", ask: "…" \} \}\)/);
    });
  });

  describe("unknown-step", () => {
    it("fires on then, else, onFail, a branch's then and { step } naming no step, suggesting the nearest", () => {
      const r = check(flow(`{ id: "pergunta", collect: ["nome"], branches: [{ when: "quer falar", then: "pergunt" }] }, { id: "w", wait: "1h", else: "fim" }, { id: "d", do: "avisar", onFail: { step: "perguntaa", clear: ["nome"] } }, { id: "s", say: "Oi", then: "stpe" }`));
      assert.deepEqual(r.at("unknown-step"), ['"pergunt"', '"fim"', '"perguntaa"', '"stpe"']);
      const fix = r.findings.find((f) => slice(r.text, f.range) === '"pergunt"')!.fixes![0]!;
      assert.match(applyEdits(r.text, fix.edits), /then: "pergunta"/);
    });

    it("does not fire for \"end\", an existing step, or a jump to a flow", () => {
      const r = check(flow(`{ id: "a", collect: ["nome"], branches: [{ when: "y", then: "b" }, { if: { known: ["nome"] }, then: { flow: "outro" } }] }, { id: "b", wait: "1h", else: "end" }, { id: "c", if: { silenced: true }, then: { step: "a" }, else: "end" }`));
      assert.deepEqual(r.at("unknown-step"), []);
    });
  });

  describe("duplicate-step", () => {
    it("fires on the second step with an id", () => {
      const r = check(flow(`{ id: "a", prompt: "x" }, { id: "b", prompt: "y" }, { id: "a", prompt: "z" }`));
      assert.deepEqual(r.at("duplicate-step"), ['"a"']);
      assert.equal(r.findings[0]!.range.startLine, 5);
      assert.ok(r.findings[0]!.range.start > r.text.indexOf('id: "b"'));
    });

    it("does not fire for the same step id in two flows", () => {
      assert.deepEqual(check(flow(`{ id: "a", prompt: "x" }`) + flow(`{ id: "a", prompt: "x" }`, `[{ silence: "1h" }]`, "u")).findings, []);
    });
  });

  describe("duplicate-flow", () => {
    it("fires on a second module-level flow with the same id in a file", () => {
      const r = check(flow(`{ id: "a", prompt: "x" }`) + flow(`{ id: "a", prompt: "x" }`, `[{ silence: "1h" }]`));
      assert.deepEqual(r.at("duplicate-flow"), ['"t"']);
      assert.equal(r.findings[0]!.range.startLine, 6);
    });

    it("fires when an agent includes the same flow twice", () => {
      const r = check(`const t = ${flow(`{ id: "a", prompt: "x" }`)}f.agent({ name: "A", provider: undefined as never, flows: [t, t] });\n`);
      assert.deepEqual(r.at("duplicate-flow"), ["t"]);
      assert.ok(r.findings[0]!.range.start > r.text.indexOf("[t, t]") + 2);
    });

    it("does not fire for distinct ids, or for variants of one flow built inside tests", () => {
      assert.deepEqual(check(flow(`{ id: "a", prompt: "x" }`) + flow(`{ id: "a", prompt: "x" }`, `[{ silence: "1h" }]`, "u")).findings, []);
      const variants = check(`declare function test(name: string, fn: () => void): void;\ntest("one", () => { ${flow(`{ id: "a", prompt: "x" }`)} });\ntest("two", () => { ${flow(`{ id: "a", prompt: "y" }`)} });\n`);
      assert.deepEqual(variants.findings, []);
    });

    const abFlows = (agents: string) => `const welcomeA = ${flow(`{ id: "a", say: "Oi" }`, `[{ message: [] }]`, "welcome")}const welcomeB = ${flow(`{ id: "a", say: "Olá" }`, `[{ message: [] }]`, "welcome")}${agents}`;

    it("does not fire on module-level variants of one flow that different agents run (an A/B eval)", () => {
      const r = check(abFlows(`const agentA = f.agent({ name: "A", provider: undefined as never, flows: [welcomeA] });\nconst agentB = f.agent({ name: "B", provider: undefined as never, flows: [welcomeB] });\n`));
      assert.deepEqual(r.findings, []);
    });

    it("fires exactly once when one agent runs both module-level flows with the same id", () => {
      const r = check(abFlows(`const agentA = f.agent({ name: "A", provider: undefined as never, flows: [welcomeA] });\nconst both = f.agent({ name: "B", provider: undefined as never, flows: [welcomeA, welcomeB] });\n`));
      assert.deepEqual(r.findings.map((f) => [f.code, slice(r.text, f.range)]), [["duplicate-flow", '"welcome"']]);
      assert.equal(r.findings[0]!.range.startLine, 6, "at welcomeB's id");
    });
  });

  describe("bad-duration", () => {
    it("fires in every duration slot: silence, after, cooldown, wait, upTo", () => {
      const r = check(flow(`{ id: "a", prompt: "x" }, { id: "w", wait: "2 dias", else: "end" }, { id: "v", wait: -5 }, { id: "e", wait: { event: "pago", upTo: "1 semana" } }`, `[{ silence: "24hrs" }, { event: "pago", after: "1 hora" }, { message: ["oi"], repeat: { cooldown: "7 dias" } }]`));
      assert.deepEqual(r.at("bad-duration"), ['"24hrs"', '"1 hora"', '"7 dias"', '"2 dias"', "-5", '"1 semana"']);
    });

    it("fires on a fake clock advanced by a bad duration", () => {
      const r = analyzeSource(`import { fakeClock } from "@falai/agent";\nconst clock = fakeClock("2026-09-20T10:00:00.000Z");\nclock.advance("1 day");\nclock.advance("1d");\n`);
      assert.deepEqual(r.findings.map((f) => [f.code, slice(r.text, f.range)]), [["bad-duration", '"1 day"']]);
    });

    it("does not fire for good durations, milliseconds or expressions", () => {
      const r = check(`const D = someDuration();\n` + flow(`{ id: "a", prompt: "x" }, { id: "w", wait: "30s", else: "end" }, { id: "v", wait: 90000 }, { id: "u", wait: D }, { id: "e", wait: { event: "x", upTo: "7d" } }`, `[{ silence: "24h" }, { event: "x", after: "5m" }]`));
      assert.deepEqual(r.at("bad-duration"), []);
    });
  });

  describe("unreachable-step", () => {
    it("fires on the step after a then that jumps away, when nothing else leads to it", () => {
      const r = check(flow(`{ id: "a", prompt: "x", then: "c" }, { id: "b", prompt: "y" }, { id: "c", prompt: "z" }`));
      assert.deepEqual(r.at("unreachable-step"), ['"b"']);
      assert.equal(r.findings[0]!.severity, "warning");
    });

    it("fires on the step after an if step whose then and else both jump away", () => {
      const r = check(flow(`{ id: "a", collect: ["nome"] }, { id: "ok", if: { known: ["nome"] }, then: "fim", else: { step: "a", clear: ["nome"] } }, { id: "orfao", say: "Nunca." }, { id: "fim", say: "Tchau." }`));
      assert.deepEqual(r.at("unreachable-step"), ['"orfao"']);
    });

    it("does not fire when a branch, an else, an onFail or plain order reaches the step", () => {
      // 05-branches shape: `sem-humanos` is only reached through a branch's then; `resolve` by order
      assert.deepEqual(check(flow(`{ id: "dados", collect: ["nome"], branches: [{ when: "humano", then: { flow: "humano" } }, { if: () => true, then: "sem-humanos" }] }, { id: "resolve", prompt: "r", then: "end" }, { id: "sem-humanos", say: "s", then: "dados" }`)).at("unreachable-step"), []);
      // a timed wait's else and branches, an event wait's else, a do step's onFail
      assert.deepEqual(check(flow(`{ id: "w", wait: "1h", else: "end", branches: [{ if: () => true, then: "b" }], then: "e" }, { id: "b", prompt: "y" }, { id: "e", wait: { event: "pago" }, else: "c", then: "d" }, { id: "c", prompt: "c", then: "end" }, { id: "d", do: "x", onFail: "f", then: "end" }, { id: "f", say: "falhou" }`)).at("unreachable-step"), []);
      // an if step with only a then falls through when false
      assert.deepEqual(check(flow(`{ id: "a", if: { silenced: true }, then: "c", else: "b" }, { id: "b", prompt: "y" }, { id: "c", prompt: "z" }`)).at("unreachable-step"), []);
      // a jump we cannot read may go anywhere
      assert.deepEqual(check(`declare const next: string;\n` + flow(`{ id: "a", prompt: "x", then: next }, { id: "b", prompt: "y" }`)).at("unreachable-step"), []);
      // a typo'd jump counts as reaching its likely target (one finding, not two)
      assert.deepEqual(check(flow(`{ id: "a", prompt: "x", then: "cc" }, { id: "b", prompt: "y" }, { id: "c", prompt: "z" }`)).findings.map((f) => f.code), ["unknown-step", "unreachable-step"]);
    });
  });

  describe("untriggered-flow", () => {
    const agentRunning = (flows: string, extra = "") => check(`${flows}const agent = f.agent({ name: "A", provider: undefined as never, flows: [x, y] });\n${extra}await agent.turn({ sessionId: "s", message: "oi", id: "m1" });\n`);

    it("fires on a flow without on, or with an empty on, that nothing in the workspace can start", () => {
      const r = agentRunning(`const x = f.flow({ id: "x", name: "X", steps: [{ id: "a", prompt: "p" }] });\nconst y = f.flow({ id: "y", name: "Y", on: [], steps: [{ id: "a", prompt: "p" }] });\n`);
      assert.deepEqual(r.at("untriggered-flow"), ['"x"', '"y"']);
    });

    it("does not fire when a start, a then: { flow } or anything unseen may start it", () => {
      const flows = `const x = f.flow({ id: "x", name: "X", on: [{ message: ["oi"] }], steps: [{ id: "a", prompt: "p", then: { flow: "y" } }] });\nconst y = f.flow({ id: "y", name: "Y", steps: [{ id: "a", prompt: "p" }] });\n`;
      assert.deepEqual(agentRunning(flows).at("untriggered-flow"), [], "then: { flow }");
      const started = `const x = f.flow({ id: "x", name: "X", on: [{ message: [] }], steps: [{ id: "a", prompt: "p" }] });\nconst y = f.flow({ id: "y", name: "Y", steps: [{ id: "a", prompt: "p" }] });\n`;
      assert.deepEqual(agentRunning(started, `await agent.turn({ sessionId: "s", start: { flow: "y", key: "k" } });\n`).at("untriggered-flow"), [], "turn({ start })");
      assert.deepEqual(agentRunning(started, `declare const input: never;\nawait agent.turn(input);\n`).at("untriggered-flow"), [], "an input we cannot read may start it");
      const templated = `const x = f.flow({ id: "x", name: "X", on: [{ message: [] }], steps: [{ id: "a", wait: "1d", else: { flow: "{{input.flowId}}" } }] });\nconst y = f.flow({ id: "y", name: "Y", steps: [{ id: "a", prompt: "p" }] });\n`;
      assert.deepEqual(agentRunning(templated).at("untriggered-flow"), [], "a templated { flow } may name it");
      // exported flows and agents may be started from any file; a flow in no agent of this file too
      assert.deepEqual(check(`export const y = f.flow({ id: "y", name: "Y", steps: [{ id: "a", prompt: "p" }] });\n`).findings, []);
      assert.deepEqual(check(`const y = f.flow({ id: "y", name: "Y", steps: [{ id: "a", prompt: "p" }] });\nexport const agent = f.agent({ name: "A", provider: undefined as never, flows: [y] });\n`).findings, []);
      assert.deepEqual(check(`const y = f.flow({ id: "y", name: "Y", steps: [{ id: "a", prompt: "p" }] });\nconst agent = f.agent({ name: "A", provider: undefined as never, flows: [y] });\nrun(agent);\n`).findings, [], "the agent is handed to code we cannot see");
    });

    it("does not fire for message, silence, mention, event or dynamic triggers", () => {
      const r = check(`declare const triggers: never[];\n` + flow(`{ id: "a", prompt: "p" }`, `[{ mention: ["concorrente"] }]`) + flow(`{ id: "a", prompt: "p" }`, `triggers`, "u") + flow(`{ id: "a", prompt: "p" }`, `[{ silence: "1h" }]`, "v") + flow(`{ id: "a", prompt: "p" }`, `[{ event: "pago" }]`, "w"));
      assert.deepEqual(r.findings, []);
    });
  });

  describe("catch-all-conflict", () => {
    it("fires on a catch-all that comes after an ungated catch-all repeating always", () => {
      const r = check(`const x = ${flow(`{ id: "a", prompt: "p" }`, `[{ message: [], repeat: "always" }]`, "x")}const y = ${flow(`{ id: "a", prompt: "p" }`, `[{ message: [] }]`, "y")}f.agent({ name: "A", provider: undefined as never, flows: [x, y] });\n`);
      assert.deepEqual(r.at("catch-all-conflict"), ["message"]);
      assert.equal(r.findings[0]!.range.startLine, 6);
    });

    it("does not fire for catch-alls that take turns (repeat once) or are gated by if", () => {
      const once = check(`const x = ${flow(`{ id: "a", prompt: "p" }`, `[{ message: [] }]`, "x")}const y = ${flow(`{ id: "a", prompt: "p" }`, `[{ message: [] }]`, "y")}f.agent({ name: "A", provider: undefined as never, flows: [x, y] });\n`);
      assert.deepEqual(once.findings, []);
      const gated = check(`const x = ${flow(`{ id: "a", prompt: "p" }`, `[{ message: [], repeat: "always", if: { silenced: false } }]`, "x")}const y = ${flow(`{ id: "a", prompt: "p" }`, `[{ message: [] }]`, "y")}f.agent({ name: "A", provider: undefined as never, flows: [x, y] });\n`);
      assert.deepEqual(gated.findings, []);
    });

    /** Two catch-alls in one agent: `x` (repeat always, no if) with `steps`, then `y`. */
    const pair = (steps: string, options = "") =>
      `const x = ${flow(steps, `[{ message: [], repeat: "always" }]`, "x")}const y = ${flow(`{ id: "fb", say: "..." }`, `[{ message: [] }]`, "y")}f.agent({ name: "A", provider: undefined as never, flows: [x, y]${options} });\n`;

    it("fires after a catch-all repeating always whose run ends in its turn (say and if steps)", () => {
      const r = check(pair(`{ id: "oi", say: "Oi!" }, { id: "c", if: { known: ["nome"] }, then: "tchau", else: "end" }, { id: "tchau", say: "Tchau!" }`));
      assert.deepEqual(r.findings.map((f) => f.code), ["catch-all-conflict"]);
      assert.match(r.findings[0]!.message, /Flow 'y' .* 'x' comes first/);
    });

    it("does not fire when the earlier catch-all's run can still be live on the next message (already-running: the next catch-all starts)", () => {
      // parked on a wait: the runtime starts y on the second message
      assert.deepEqual(check(pair(`{ id: "oi", say: "Oi!" }, { id: "pausa", wait: "1d" }`)).findings, []);
      // asking for fields: a collect, or an ask
      assert.deepEqual(check(pair(`{ id: "q", collect: ["nome"] }, { id: "ok", say: "Obrigado!" }`)).findings, []);
      assert.deepEqual(check(pair(`{ id: "q", prompt: "Cumprimente.", ask: { nome: "Quem é?" } }`)).findings, []);
      // waiting for an event; an action that may defer; a second talk step waiting for the next message; onEnd keeping the run
      assert.deepEqual(check(pair(`{ id: "e", wait: { event: "pago" } }`, `, events: { pago: f.event() }`)).at("catch-all-conflict"), []);
      assert.deepEqual(check(pair(`{ id: "d", do: "avisar" }`, `, actions: { avisar: f.action({ parameters: {}, run: () => ({ ok: true }) }) }`)).at("catch-all-conflict"), []);
      assert.deepEqual(check(pair(`{ id: "p1", prompt: "a" }, { id: "p2", prompt: "b" }`)).findings, []);
      assert.deepEqual(check(pair(`{ id: "p", prompt: "a" }`).replace(`id: "x", name: "T",`, `id: "x", name: "T", onEnd: "stay",`)).findings, []);
      // steps that cannot be read
      assert.deepEqual(check(`declare const more: never[];\n` + pair(`{ id: "oi", say: "Oi!" }, ...more`)).at("catch-all-conflict"), []);
      // a collect that cannot be read may still ask for fields
      assert.deepEqual(check(`declare function camposDe(x: string): string[];\n` + pair(`{ id: "q", prompt: "Cumprimente.", collect: camposDe("x") }`)).at("catch-all-conflict"), []);
    });
  });

  describe("unknown-tool / unknown-action", () => {
    const tool = `{ id: "orcamento", description: "Calcula", parameters: { type: "object", properties: {} }, handler: () => ({ value: 1 }) }`;

    it("fires on a step's tool and a do step's action the agent does not register", () => {
      const r = check(agentWith(`, tools: [${tool}], actions: { notificar: f.action({ parameters: {}, run: () => ({ ok: true }) }) }`, `{ id: "a", prompt: "p", tools: ["orcamentos"] }, { id: "b", do: "avisar" }`));
      assert.deepEqual(r.at("unknown-tool"), ['"orcamentos"']);
      assert.deepEqual(r.at("unknown-action"), ['"avisar"']);
      assert.match(r.findings.find((f) => f.code === "unknown-tool")!.message, /Did you mean 'orcamento'/);
    });

    it("fires on a flow's tools and the idle speaker's tools", () => {
      const r = check(`const t = f.flow({ id: "t", name: "T", on: [{ message: ["oi"] }], tools: ["orcamentoo"], steps: [{ id: "a", prompt: "p" }] });\nf.agent({ name: "A", provider: undefined as never, flows: [t], tools: [${tool}], idle: { prompt: "Oi", tools: ["orcamento", "frete"] } });\n`);
      assert.deepEqual(r.at("unknown-tool"), ['"orcamentoo"', '"frete"']);
    });

    it("fires when the agent has no actions key, even if an f.action was defined but not passed", () => {
      const r = check(`const notificar = f.action({ parameters: {}, run: () => ({ ok: true }) });\n` + agentWith(``, `{ id: "a", do: "notificar" }`));
      assert.deepEqual(r.at("unknown-action"), ['"notificar"']);
    });

    it("does not fire for registered names: tool objects by id (consts too), actions by key (shorthand, consts, spreads)", () => {
      const consts = `const orcamento = ${tool};\nconst notificar = f.action({ parameters: {}, run: () => ({ ok: true }) });\nconst registries = { actions: { notificar } };\n`;
      assert.deepEqual(check(consts + agentWith(`, tools: [orcamento], ...registries`, `{ id: "a", prompt: "p", tools: ["orcamento"] }, { id: "b", do: "notificar" }`)).findings, []);
    });

    it("does not fire when the registrations are not statically known, or the flow is in no agent", () => {
      assert.deepEqual(check(agentWith(`, actions: makeActions()`, `{ id: "a", do: "notificar" }`)).findings, []);
      assert.deepEqual(check(agentWith(`, actions: { ...common, x: f.action({ parameters: {}, run: () => ({ ok: true }) }) }`, `{ id: "a", do: "notificar" }`)).findings, []);
      assert.deepEqual(check(agentWith(`, ...options`, `{ id: "a", do: "notificar" }`)).findings, [], "a spread we cannot read may carry actions");
      assert.deepEqual(check(agentWith(`, tools: [makeTool()]`, `{ id: "a", prompt: "p", tools: ["x"] }`)).findings, []);
      assert.deepEqual(check(flow(`{ id: "a", do: "notificar", tools: ["x"] }`)).findings, []);
    });
  });

  describe("unknown-event", () => {
    const events = `, events: { pago: f.event(), reuniao_marcada: f.event<{ quando: string }>() }`;

    it("fires on an event trigger, a wait for an event, and turn({ event }) naming no registered event", () => {
      const r = check(agentWith(events, `{ id: "a", prompt: "p" }, { id: "w", wait: { event: "reuniao_marcadaa", upTo: "7d" }, else: "end" }`, `[{ event: "pagoo", after: "1h" }]`) + `await agent.turn({ sessionId: "s", event: "pagamento", payload: {}, key: "k" });\n`);
      assert.deepEqual(r.at("unknown-event"), ['"pagoo"', '"reuniao_marcadaa"', '"pagamento"']);
      assert.match(r.findings[0]!.message, /Did you mean 'pago'/);
    });

    it("does not fire for registered events, or when the agent's events cannot be read", () => {
      assert.deepEqual(check(agentWith(events, `{ id: "w", wait: { event: "reuniao_marcada" } }`, `[{ event: "pago" }]`) + `await agent.turn({ sessionId: "s", event: "pago", key: "k" });\n`).findings, []);
      assert.deepEqual(check(agentWith(`, events: loadEvents()`, `{ id: "a", prompt: "p" }`, `[{ event: "pago" }]`)).findings, []);
    });
  });

  describe("unknown-condition", () => {
    const conditions = `, conditions: { naEtapa: f.condition((ctx, etapa: string) => etapa === "x") }`;

    it("fires on a JSON predicate naming no registered condition, anywhere a predicate goes", () => {
      const r = check(`const t = f.flow({ id: "t", name: "T", on: [{ message: ["oi"], if: { naEtap: "x" } }], while: { tagsAny: ["vip"] }, instructions: [{ prompt: "Seja breve.", if: { horario: true } }], steps: [
  { id: "a", collect: ["nome"], branches: [{ if: { naEtapa: "y", vip: true }, then: "end" }] },
  { id: "b", if: { equals: { nome: "Ana" }, known: ["nome"], silenced: false, dono: "ia" } },
] });
f.agent({ name: "A", provider: undefined as never, flows: [t]${conditions} });
`);
      assert.deepEqual(r.at("unknown-condition"), ["naEtap", "tagsAny", "horario", "vip", "dono"]);
      assert.match(r.findings[0]!.message, /Did you mean 'naEtapa'/);
    });

    it("does not fire for the built-ins, function predicates, or when the conditions cannot be read", () => {
      assert.deepEqual(check(agentWith(conditions, `{ id: "a", if: { naEtapa: "x", equals: { nome: "Ana" }, known: ["empresa"], silenced: true } }, { id: "b", if: ({ data }) => !!data }`, `[{ message: ["oi"], if: () => true }]`)).findings, []);
      assert.deepEqual(check(agentWith(`, conditions: makeConditions()`, `{ id: "a", if: { naEtapa: "x" } }`)).findings, []);
    });
  });

  describe("unknown-flow", () => {
    it("fires on then: { flow } and turn({ start: { flow } }) naming a flow the agent does not have", () => {
      const r = check(`const t = ${flow(`{ id: "a", collect: ["nome"], branches: [{ when: "humano", then: { flow: "humnao" } }] }`)}const humano = f.flow({ id: "humano", name: "H", steps: [{ id: "s", say: "Já chamo." }] });\nconst agent = f.agent({ name: "A", provider: undefined as never, flows: [t, humano] });\nawait agent.turn({ sessionId: "s", start: { flow: "boas-vindas", key: "k" } });\n`);
      assert.deepEqual(r.at("unknown-flow"), ['"humnao"', '"boas-vindas"']);
      assert.match(applyEdits(r.text, r.findings[0]!.fixes![0]!.edits), /then: \{ flow: "humano" \}/);
    });

    it("does not fire for templates, known flows, or agents whose flows cannot be read", () => {
      assert.deepEqual(check(agentWith(``, `{ id: "a", wait: "1d", else: { flow: "{{input.flowId}}" } }, { id: "b", prompt: "p", then: { flow: "t" } }`) + `await agent.turn({ sessionId: "s", start: { flow: "t", key: "k" } });\n`).findings, []);
      assert.deepEqual(check(`declare const more: never[];\n` + `const t = ${flow(`{ id: "a", prompt: "p", then: { flow: "outro" } }`)}f.agent({ name: "A", provider: undefined as never, flows: [t, ...more] });\n`).findings, []);
    });
  });

  describe("bad-field-type", () => {
    it("fires on a type outside string, number, integer and boolean (with the nearest; enum → string)", () => {
      const r = analyzeSource(`import { falai } from "@falai/agent";\nconst f = falai().fields({\n  idade: { type: "numbr" },\n  plano: { type: "enum", enum: ["basico", "pro"] },\n});\n`);
      assert.deepEqual(r.findings.map((f) => [f.code, slice(r.text, f.range)]), [["bad-field-type", '"numbr"'], ["bad-field-type", '"enum"']]);
      assert.match(applyEdits(r.text, r.findings[0]!.fixes![0]!.edits), /idade: \{ type: "number" \}/);
      assert.match(applyEdits(r.text, r.findings[1]!.fixes![0]!.edits), /plano: \{ type: "string", enum: \["basico", "pro"\] \}/);
    });

    it("does not fire for the four types, with or without an enum", () => {
      const r = analyzeSource(`import { falai } from "@falai/agent";\nconst f = falai().fields({\n  a: { type: "string", enum: ["x", "y"] }, b: { type: "number" }, c: { type: "integer" }, d: { type: "boolean", extract: "asked" },\n});\n`);
      assert.deepEqual(r.findings, []);
    });
  });
});
