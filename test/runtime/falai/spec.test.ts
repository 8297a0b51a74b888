// Flows as JSON: fromSpec drops nulls and `kind` (checking it agrees with the body), toSpec derives `kind` and
// refuses function predicates, validateFlow checks a spec against registries, flowSpecSchema describes one.
import assert from "node:assert/strict";
import { FlowConfigurationError, falai, flowSpecSchema, fromSpec, toSpec, validateFlow, type FlowSpec } from "@falai/agent";

const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." }, ok: { type: "boolean" } });
const actions = { notify: f.action({ parameters: { message: { type: "string" } }, run: () => ({ ok: true }) }) };
const spec: FlowSpec = {
  id: "x", name: "X", description: null as never, on: [{ mention: ["cita um concorrente"], extract: { trecho: { type: "string" } }, repeat: "once" }],
  steps: [{ id: "q", kind: "collect", collect: ["nome"], prompt: null as never }, { id: "a", kind: "do", do: "notify", with: { message: "{{data.nome}}: {{input.trecho}}" } }, { id: "g", kind: "if", if: { known: ["nome"] }, else: "end" }],
};

describe("@falai/agent flow specs", () => {
  it("fromSpec drops nulls and kinds; toSpec writes the kinds back; the round trip is the spec without nulls", () => {
    const flow = fromSpec(spec);
    assert.equal("description" in flow, false);
    assert.deepEqual(flow.steps.map((s) => Object.keys(s)), [["id", "collect"], ["id", "do", "with"], ["id", "if", "else"]]);
    const back = toSpec(flow);
    assert.deepEqual(back.steps.map((s) => s.kind), ["collect", "do", "if"]);
    assert.deepEqual(back, JSON.parse(JSON.stringify(spec, (_k, v) => (v === null ? undefined : v))));
  });

  it("fromSpec refuses a kind that disagrees with the body; toSpec refuses a function predicate", () => {
    assert.throws(() => fromSpec({ id: "x", name: "X", steps: [{ id: "s", kind: "do", say: "oi" } as never] }), (e: unknown) => e instanceof FlowConfigurationError && /has kind "do", but its body is a "say" step/.test(e.message));
    assert.throws(() => toSpec(f.flow({ id: "x", name: "X", steps: [{ id: "s", if: () => true }] })), /is a function, which cannot be stored as JSON/);
  });

  it("the function-predicate message starts with upstream's wording: place, key, then what is wrong", () => {
    assert.throws(() => toSpec(f.flow({ id: "x", name: "X", on: [{ message: [], if: () => true }], steps: [{ id: "s", say: "oi" }] })), (e: unknown) => e instanceof Error && e.message.includes('flow "x", trigger #1 if: is a function'));
    assert.throws(() => toSpec(f.flow({ id: "x", name: "X", steps: [{ id: "s", if: () => true }] })), (e: unknown) => e instanceof Error && e.message.includes('flow "x", step "s" if: is a function'));
  });

  it("a collect step stays a collect step through fromSpec and toSpec, even with an empty list", () => {
    const collectSpec: FlowSpec = { id: "c", name: "C", steps: [{ id: "s", kind: "collect", collect: [], prompt: "Pergunte." }] };
    assert.deepEqual(toSpec(fromSpec(collectSpec)), collectSpec);
  });

  it("flowSpecSchema is strict: every object closed with every property required, optional ones nullable", () => {
    const strict = (s: Record<string, any>): boolean => {
      if (Array.isArray(s.anyOf) && !s.anyOf.every(strict)) return false;
      if (s.items && !strict(s.items)) return false;
      const isObject = s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));
      if (!isObject) return true;
      const keys = Object.keys(s.properties ?? {});
      return s.additionalProperties === false && keys.every((k) => (s.required ?? []).includes(k)) && Object.values(s.properties ?? {}).every((p) => strict(p as Record<string, any>));
    };
    const optional = { send: f.action({ parameters: { to: { type: "string" }, urgent: { type: "boolean", optional: true } }, run: () => ({ ok: true }) }) };
    const schema = flowSpecSchema({ fields: f.fields, actions: optional, conditions: { vip: f.condition(() => true) } });
    assert.ok(strict(schema));
    assert.deepEqual(schema.properties?.description, { type: ["string", "null"] });
    const doStep = schema.properties?.steps?.items?.anyOf?.find((v) => v.properties?.do);
    assert.deepEqual(doStep?.properties?.with?.properties?.urgent, { type: ["boolean", "null"] });
    assert.deepEqual(doStep?.properties?.with?.required, ["to", "urgent"]);
    assert.deepEqual(schema.properties?.onEnd?.enum, ["end", "stay", "reset", null]);
  });

  it("validateFlow checks a spec's names against the registries it is given", () => {
    assert.deepEqual(validateFlow(spec, { fields: f.fields, actions }).warnings, []);
    assert.throws(() => validateFlow({ ...spec, steps: [{ id: "s", kind: "do", do: "enviar" }] }, { fields: f.fields, actions }), /unknown action "enviar"/);
    assert.throws(() => validateFlow({ ...spec, steps: [{ id: "s", kind: "say", say: "x", then: { flow: "outro" } }] }, { fields: f.fields, actions, flows: [{ id: "x" }] }), /names flow "outro", which this agent does not have/);
  });

  it("the agent takes a spec through f.fromSpec and refuses one that names an unknown action", () => {
    const provider = { name: "p", capabilities: { supportsTools: false, supportsNativeJsonSchema: true, supportsStreaming: false, supportsStreamingToolCalls: false, supportsPromptCaching: false }, generateMessage: () => Promise.reject(new Error("unused")) };
    assert.ok(f.agent({ name: "Ana", provider, actions, flows: [f.fromSpec(spec)] }));
    assert.throws(() => f.agent({ name: "Ana", provider, actions: {}, flows: [f.fromSpec(spec)] }), /unknown action "notify"/);
  });

  it("flowSpecSchema is closed and names only this agent's fields and actions", () => {
    const schema = flowSpecSchema({ fields: f.fields, actions });
    assert.equal(schema.additionalProperties, false);
    const variants = schema.properties?.steps?.items?.anyOf ?? [];
    const kinds = variants.map((v) => (v.properties?.kind?.enum as string[])[0]);
    assert.deepEqual(kinds, ["prompt", "say", "wait", "if", "collect", "do"]);
    const doStep = variants.find((v) => v.properties?.do);
    assert.deepEqual(doStep?.properties?.do?.enum, ["notify"]);
    assert.deepEqual(schema.properties?.collect?.items?.enum, ["nome", "ok"]);
    assert.deepEqual(schema.properties?.collect?.type, ["array", "null"]);
  });
});
