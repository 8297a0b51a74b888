// Coercion of the values a model gives, and templates ({{data.x}}, {{context.x}}, {{input.x}}).
import assert from "node:assert/strict";
import { coerceField } from "@falai/agent";
import { renderDeep, renderTemplate } from "../../../runtime/src/falai/template";

describe("@falai/agent coercion", () => {
  const ok = (value: unknown) => ({ ok: true, value });
  it("string: text as is; numbers and booleans stringified; objects are bad-value; empty is absent", () => {
    assert.deepEqual(coerceField({ type: "string" }, " Ana "), ok(" Ana "));
    assert.deepEqual(coerceField({ type: "string" }, 30), ok("30"));
    assert.deepEqual(coerceField({ type: "string" }, { a: 1 }), { ok: false, code: "bad-value" });
    assert.deepEqual(coerceField({ type: "string" }, ""), { ok: "absent" });
    assert.deepEqual(coerceField({ type: "string" }, null), { ok: "absent" });
  });
  it("number: numeric text with one comma as the decimal mark; words and units are bad-value; integer truncates", () => {
    assert.deepEqual(coerceField({ type: "number" }, "1,5"), ok(1.5));
    assert.deepEqual(coerceField({ type: "number" }, "1500,50"), ok(1500.5));
    assert.deepEqual(coerceField({ type: "number" }, "30"), ok(30));
    for (const bad of ["mil", "1.500,50", "30 pessoas", "1,2,3", Infinity]) assert.deepEqual(coerceField({ type: "number" }, bad), { ok: false, code: "bad-value" }, String(bad));
    assert.deepEqual(coerceField({ type: "integer" }, "-2,9"), ok(-2));
  });
  it("boolean: true/sim/yes/1 and false/não/nao/no/0, case-insensitive; anything else is bad-value", () => {
    for (const t of [true, "sim", "YES", " 1 ", "true"]) assert.deepEqual(coerceField({ type: "boolean" }, t), ok(true), String(t));
    for (const v of [false, "não", "Nao", "no", "0"]) assert.deepEqual(coerceField({ type: "boolean" }, v), ok(false), String(v));
    assert.deepEqual(coerceField({ type: "boolean" }, "claro"), { ok: false, code: "bad-value" });
  });
  it("enum: a listed value after type coercion, else not-in-enum", () => {
    assert.deepEqual(coerceField({ type: "string", enum: ["1-10", "11-50"] }, "11-50"), ok("11-50"));
    assert.deepEqual(coerceField({ type: "string", enum: ["1-10", "11-50"] }, "30"), { ok: false, code: "not-in-enum" });
    assert.deepEqual(coerceField({ type: "number", enum: [1, 2] }, "2"), ok(2));
  });
});

describe("@falai/agent templates", () => {
  const scope = { data: { nome: "Ana", vazio: "" }, context: { lead: null, etapa: "proposta" }, input: { n: 3, tags: ["a"] } };
  it("fills data, context and input at any depth", () => {
    assert.equal(renderTemplate("Oi {{data.nome}} ({{context.etapa}}), {{input.n}} itens", scope), "Oi Ana (proposta), 3 itens");
    assert.deepEqual(renderDeep({ a: ["{{data.nome}}", { b: "{{input.tags}}" }], c: 1 }, scope), { a: ["Ana", { b: '["a"]' }], c: 1 });
  });
  it("an unknown path keeps its placeholder; a blank one drops out with the gap it leaves", () => {
    assert.equal(renderTemplate("Oi {{data.apelido}}!", scope), "Oi {{data.apelido}}!");
    assert.equal(renderTemplate("Oi {{data.vazio}}, tudo bem?", scope), "Oi, tudo bem?");
    assert.equal(renderTemplate("Falo com {{context.lead.name}} hoje", scope), "Falo com hoje");
  });
});
