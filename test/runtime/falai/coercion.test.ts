// Field coercion, through turns (the understand envelope's `fields`) and through the pure function.
import assert from "node:assert/strict";
import { coerceField, falai, fakeClock, parseHumanNumber } from "@falai/agent";
import { scripted, understood } from "./scripted";

const f = falai().fields({
  nome: { type: "string" },
  pessoas: { type: "number" },
  taxa: { type: "number" },
  cliente: { type: "boolean" },
  plano: { type: "enum", values: ["básico", "pro"] },
});
const flow = f.flow({ id: "coleta", name: "Coleta", on: [{ message: ["quer contratar"] }], steps: [{ id: "dados", collect: ["nome", "pessoas", "taxa", "cliente", "plano"] }] });

async function collect(fields: Record<string, unknown>) {
  const provider = scripted({ understand: [understood({ fields })], speak: [{ message: "Mais algo?" }] });
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
  return agent.turn({ sessionId: "s1", message: "quero contratar", id: "m1" });
}

describe("@falai/agent: field coercion", () => {
  it('"sim" becomes true for a boolean (and "não" false)', async () => {
    assert.equal((await collect({ cliente: "sim" })).session.data.cliente, true);
    assert.equal((await collect({ cliente: "Não" })).session.data.cliente, false);
  });

  it('"1,5" becomes 1.5 for a number', async () => {
    const r = await collect({ taxa: "1,5" });
    assert.equal(r.session.data.taxa, 1.5);
    const line = r.outcomes.find((o) => o.field === "taxa");
    assert.deepEqual([line?.kind, line?.status, line?.code, line?.value], ["collect", "ok", "collected", 1.5]);
  });

  it('"mil" is dropped with code bad-value', async () => {
    const r = await collect({ pessoas: "mil", nome: "Ana" });
    assert.equal(r.session.data.pessoas, undefined);
    assert.equal(r.session.data.nome, "Ana");
    const dropped = r.outcomes.find((o) => o.field === "pessoas");
    assert.deepEqual([dropped?.kind, dropped?.status, dropped?.code, dropped?.value], ["collect", "dropped", "bad-value", "mil"]);
    assert.equal(typeof dropped?.message, "string");
    assert.equal(dropped?.runId, "coleta#m1", "the line belongs to the run that asks for the field");
  });

  it("an enum value outside the list is dropped with code not-in-enum", async () => {
    const r = await collect({ plano: "enterprise" });
    assert.equal(r.session.data.plano, undefined);
    assert.equal(r.outcomes.find((o) => o.field === "plano")?.code, "not-in-enum");
  });

  it("an enum value matches the list ignoring case and accents", async () => {
    assert.equal((await collect({ plano: "BASICO" })).session.data.plano, "básico");
  });

  it("null means not given: no line, no value", async () => {
    const r = await collect({ nome: null, pessoas: "30" });
    assert.equal(r.session.data.pessoas, 30);
    assert.equal("nome" in r.session.data, false);
    assert.deepEqual(r.outcomes.filter((o) => o.kind === "collect").map((o) => o.field), ["pessoas"]);
  });

  it("the table, rule by rule", () => {
    const num = { type: "number" } as const;
    const bool = { type: "boolean" } as const;
    const str = { type: "string" } as const;
    assert.deepEqual(coerceField(num, "1.234,5"), { ok: true, value: 1234.5 });
    assert.deepEqual(coerceField(num, "1,234.5"), { ok: true, value: 1234.5 });
    assert.deepEqual(coerceField(num, "1.000.000"), { ok: true, value: 1_000_000 });
    assert.deepEqual(coerceField(num, " -2 "), { ok: true, value: -2 });
    assert.deepEqual(coerceField(num, 7), { ok: true, value: 7 });
    assert.equal(coerceField(num, "30 pessoas").ok, false);
    assert.equal(coerceField(num, "1,2,3").ok, false);
    assert.deepEqual(coerceField(bool, "yes"), { ok: true, value: true });
    assert.deepEqual(coerceField(bool, 0), { ok: true, value: false });
    assert.deepEqual(coerceField(bool, "talvez"), { ok: false, code: "bad-value", reason: "not a yes or no" });
    assert.deepEqual(coerceField(str, "  Ana "), { ok: true, value: "Ana" });
    assert.deepEqual(coerceField(str, 42), { ok: true, value: "42" });
    assert.equal(coerceField(str, { a: 1 }).ok, false);
    assert.deepEqual(coerceField(str, ""), { ok: "absent" });
    assert.equal(parseHumanNumber("mil"), undefined);
  });
});
