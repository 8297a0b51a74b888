// Definitions the runtime does not understand fail when they are built, with a FlowConfigurationError naming the key;
// nothing is accepted and then ignored. Warnings are for what runs but probably not as meant.
import assert from "node:assert/strict";
import { FlowConfigurationError, falai, validateFlow } from "@falai/agent";
import { scripted } from "./scripted";

const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  plano: { type: "string", enum: ["basico", "pro"] },
  pessoas: { type: "integer" },
  ok: { type: "boolean" },
});
const provider = scripted({});
const notify = f.action({ parameters: { to: { type: "string" }, urgent: { type: "boolean", optional: true }, tags: { type: "array", items: { type: "string" }, optional: true } }, run: () => ({ ok: true }) });

/** Asserts `fn` throws a FlowConfigurationError with this code whose message contains every fragment. */
function rejects(fn: () => unknown, code: string, ...fragments: string[]) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof FlowConfigurationError, `not a FlowConfigurationError: ${String(e)}`);
    assert.equal(e.code, code, e.message);
    for (const part of fragments) assert.ok(e.message.includes(part), `"${part}" not in: ${e.message}`);
    assert.match(e.message, /^\[FlowConfigurationError\] [^:]+: .+\. .+$/);
    return true;
  });
}

const flow = (steps: unknown[], extra: Record<string, unknown> = {}) => ({ id: "x", name: "X", steps, ...extra }) as never;
const build = (flows: unknown[], extra: Record<string, unknown> = {}) => f.agent({ name: "Ana", provider, flows: flows as never, actions: { notify }, ...extra } as never);

describe("@falai/agent definitions: fields", () => {
  it("takes string, number, integer, boolean with enum, label, ask, extract", () => {
    assert.deepEqual(Object.keys(f.fields), ["nome", "plano", "pessoas", "ok"]);
  });
  it("rejects our old enum guess and unknown types, naming the field", () => {
    rejects(() => falai().fields({ plano: { type: "enum", values: ["a"] } } as never), "bad-field-type", 'field "plano"', '"enum"');
    rejects(() => falai().fields({ n: { type: "date" } } as never), "bad-field-type", 'field "n"');
    rejects(() => falai().fields({ n: { type: "string", enum: [] } } as never), "bad-field-type", "enum");
  });
  it("rejects an unknown key on a field and a bad extract", () => {
    rejects(() => falai().fields({ n: { type: "string", values: ["a"] } } as never), "unknown-key", 'field "n"', '"values"');
    rejects(() => falai().fields({ n: { type: "string", extract: "always" } } as never), "bad-option", "extract");
  });
});

describe("@falai/agent definitions: flows (checked when the agent is built)", () => {
  it("f.flow returns the definition unchanged, even one the agent will refuse (upstream: reported when built)", () => {
    const def = { id: "a", name: "A", steps: [{ id: "s", say: "oi" }] };
    assert.equal(f.flow(def), def);
    const typo = { id: "t", name: "T", steps: [{ id: "s", collect: ["nomee"] }], when: "x" } as never;
    assert.equal(f.flow(typo), typo);
    rejects(() => build([typo]), "unknown-key", '"when"');
  });
  it("rejects unknown keys on a flow, a step, a trigger, a branch, naming them", () => {
    rejects(() => build([flow([{ id: "s", say: "oi" }], { when: "x" })]), "unknown-key", 'flow "x"', '"when"');
    rejects(() => build([flow([{ id: "s", say: "oi", goto: "end" }])]), "unknown-key", 'step "s"', '"goto"');
    rejects(() => build([flow([{ id: "s", say: "oi" }], { on: [{ message: [], after: "1h" }] })]), "unknown-key", "trigger #1", '"after"');
    rejects(() => build([flow([{ id: "s", collect: ["nome"], branches: [{ when: "x", goto: "s" }] }])]), "unknown-key", '"goto"');
  });
  it("rejects a step that does nothing or two things", () => {
    rejects(() => build([flow([{ id: "s" }])]), "bad-option", 'step "s"', "does nothing");
    rejects(() => build([flow([{ id: "s", say: "oi", do: "notify" }])]), "bad-option", 'mixes "say" and "do"');
  });
  it("rejects unknown fields, duplicate and reserved step ids, dangling targets", () => {
    rejects(() => build([flow([{ id: "s", collect: ["nomee"] }])]), "unknown-field", '"nomee"', "collect");
    rejects(() => build([flow([{ id: "s", say: "a" }, { id: "s", say: "b" }])]), "duplicate-step", 'step "s"');
    rejects(() => build([flow([{ id: "end", say: "a" }])]), "bad-option", '"end"');
    rejects(() => build([flow([{ id: "s", say: "a", then: "nada" }])]), "unknown-step", '"nada"');
    rejects(() => build([flow([{ id: "s", wait: "1h", else: { step: "s", clear: ["zzz"] } }])]), "unknown-field", '"zzz"');
    rejects(() => build([flow([{ id: "s", say: "a" }], { clearOnStart: ["nada"] })]), "unknown-field", "clearOnStart");
  });
  it("rejects bad durations, bad repeat, triggers that name no kind, all-exclusion phrases", () => {
    rejects(() => build([flow([{ id: "s", wait: "1 dia" }])]), "bad-duration", '"1 dia"');
    rejects(() => build([flow([{ id: "s", say: "a" }], { on: [{ silence: "amanhã" }] })]), "bad-duration", "silence");
    rejects(() => build([flow([{ id: "s", say: "a" }], { on: [{ message: ["x"], repeat: "never" }] })]), "bad-trigger", "repeat");
    rejects(() => build([flow([{ id: "s", say: "a" }], { on: [{ kind: "message", when: "x" }] })]), "bad-trigger", "names no trigger kind");
    rejects(() => build([flow([{ id: "s", say: "a" }], { on: [{ mention: ["!a", "!b"] }] })]), "bad-trigger", '"!"');
  });
  it("rejects a question without collect, a when-branch on a wait, a branch with no test, a backward if with no else", () => {
    rejects(() => build([flow([{ id: "s", prompt: "p", question: "Q?" }])]), "bad-option", "question");
    rejects(() => build([flow([{ id: "w", wait: "1h", else: "end", branches: [{ when: "x", then: "end" }] }])]), "bad-option", '"when" branch');
    rejects(() => build([flow([{ id: "s", collect: ["nome"], branches: [{ then: "end" }] }])]), "bad-option", "neither when nor if");
    rejects(() => build([flow([{ id: "a", say: "a" }, { id: "b", if: { known: ["nome"] }, then: "a" }])]), "bad-option", "jumps back");
  });
  it("rejects malformed conditions: equals type, known list, silenced boolean", () => {
    rejects(() => build([flow([{ id: "s", if: { equals: { pessoas: "3" } } }])]), "bad-option", "pessoas");
    rejects(() => build([flow([{ id: "s", if: { equals: { plano: "gold" } } }])]), "bad-option", '"gold"');
    rejects(() => build([flow([{ id: "s", if: { known: "nome" } }])]), "bad-option", "known");
    rejects(() => build([flow([{ id: "s", if: { silenced: "yes" } }])]), "bad-option", "silenced");
  });
  it("warns about a backward jump without clear and a collect step with nothing to go on", () => {
    const g = falai().fields({ a: { type: "string" }, b: { type: "string", ask: "Pergunte b." } });
    const { warnings } = validateFlow({ id: "x", name: "X", steps: [{ id: "s", collect: ["a"] }, { id: "t", collect: ["b"], then: "s" }] }, { fields: g.fields });
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.ok(warnings.some((w) => w.includes('jumps back to "s" without clear')));
    assert.ok(warnings.some((w) => w.includes('collects "a" with no prompt and no ask')));
  });
});

describe("@falai/agent definitions: the root toolkit", () => {
  it("falai() itself has agent, flow, action, event, condition and fromSpec (upstream's root), with no fields", () => {
    const root = falai();
    assert.deepEqual(Object.keys(root).sort(), ["action", "agent", "condition", "event", "fields", "flow", "fromSpec"]);
    const agent = root.agent({ name: "Ana", provider, flows: [root.flow({ id: "a", name: "A", steps: [{ id: "s", say: "oi" }] })] });
    assert.deepEqual(agent.options.fields, {});
    assert.deepEqual(root.fromSpec({ id: "b", name: "B", steps: [{ id: "s", kind: "say", say: "oi" }] }).steps, [{ id: "s", say: "oi" }]);
  });
});

describe("@falai/agent definitions: the agent checks every name", () => {
  it("names an instruction's unknown condition as upstream does: the flow, then instructions[i].if", () => {
    rejects(() => build([flow([{ id: "s", say: "a" }], { instructions: [{ prompt: "Seja breve.", if: { vip: true } }] })]), "unknown-condition", 'flow "x": unknown condition "vip" in instructions[0].if');
    rejects(() => build([], { instructions: [{ prompt: "Seja breve.", if: { vip: true } }] }), "unknown-condition", 'agent: unknown condition "vip" in instructions[0].if');
  });
  it("rejects unknown actions, events, conditions and tools", () => {
    rejects(() => build([flow([{ id: "s", do: "enviar" }])]), "unknown-action", 'unknown action "enviar"');
    rejects(() => build([flow([{ id: "s", say: "a" }], { on: [{ event: "nada" }] })]), "unknown-event", '"nada"');
    rejects(() => build([flow([{ id: "s", wait: { event: "nada" } }])]), "unknown-event", "in wait");
    rejects(() => build([flow([{ id: "s", if: { vip: true } }])]), "unknown-condition", '"vip"');
    rejects(() => build([flow([{ id: "s", prompt: "p", tools: ["faq"] }])]), "unknown-tool", '"faq"');
  });
  it("checks `with` strictly against the action's parameters", () => {
    rejects(() => build([flow([{ id: "s", do: "notify", with: {} }])]), "bad-parameter", 'needs parameter "to"');
    rejects(() => build([flow([{ id: "s", do: "notify", with: { to: "a", cc: "b" } }])]), "bad-parameter", 'no parameter "cc"');
    rejects(() => build([flow([{ id: "s", do: "notify", with: { to: 3 } }])]), "bad-parameter", 'parameter "to" of action "notify" must be a string, got number (3)');
    rejects(() => build([flow([{ id: "s", do: "notify", with: { to: "a", tags: "x" } }])]), "bad-parameter", "must be a list of string, got string");
    assert.ok(build([flow([{ id: "s", do: "notify", with: { to: "{{data.nome}}", urgent: true } }])]));
  });
  it("rejects duplicate flows, a tool whose parameters are no JSON Schema object, a shadowed condition, compaction", () => {
    const a = flow([{ id: "s", say: "a" }]);
    rejects(() => build([a, a]), "duplicate-flow", 'flow "x" is declared twice');
    rejects(() => build([], { tools: [{ id: "t", parameters: { cidade: { type: "string" } }, handler: () => ({}) }] }), "bad-option", "JSON Schema object");
    rejects(() => build([], { conditions: { known: f.condition(() => true) } }), "bad-option", "shadows a built-in");
    rejects(() => build([], { compaction: { maxTokens: 10 } }), "unknown-key", "compaction");
  });
  it("rejects unknown agent options and a clock that is not a function", () => {
    rejects(() => build([], { model: "x" }), "unknown-key", '"model"');
    rejects(() => build([], { clock: { now: () => new Date() } }), "bad-option", "clock");
    rejects(() => build([], { idle: { prompt: "p", tools: ["faq"] } }), "unknown-tool", "idle");
  });
  it("f.action takes { parameters, run } only (no name, no handler)", () => {
    rejects(() => f.action({ name: "crm", parameters: {}, run: () => ({ ok: true }) } as never), "unknown-key", '"name"');
    rejects(() => f.action({ parameters: {} } as never), "bad-option", "run");
  });
});
