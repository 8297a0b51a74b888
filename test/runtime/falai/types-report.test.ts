// DataOf gives the field types (checked by tsc over this file), the prompts carry what the speaker needs, and
// every settled turn is announced to the harness reporter with a JSON-safe TurnReportPayload.
import assert from "node:assert/strict";
import { falai, fakeClock, type DataOf, type TurnInput } from "@falai/agent";
import { REPORTER_KEY, type RuntimeReport, type TurnReportPayload } from "../../../runtime/src/shared/report";
import { scripted, spoken, T0 } from "./scripted";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(ok: T) => ok;

const f = falai().fields({
  nome: { type: "string" },
  pessoas: { type: "integer" },
  cliente: { type: "boolean" },
  plano: { type: "string", enum: ["basico", "pro"] },
});

describe("@falai/agent: types", () => {
  it("DataOf<typeof f> maps each field (enum as the literal union); the session holds it Partial", () => {
    type Data = DataOf<typeof f>;
    expectType<Equal<Data, { readonly nome: string; readonly pessoas: number; readonly cliente: boolean; readonly plano: "basico" | "pro" }>>(true);
    const data: Partial<Data> = { plano: "pro" };
    // @ts-expect-error outside the enum
    const bad: Partial<Data> = { plano: "enterprise" };
    assert.equal(data.plano, "pro");
    assert.equal(bad.plano, "enterprise");
  });

  it("context is required when the toolkit has one; collect names are checked", () => {
    const g = falai<{ lead: string }>().fields({ nome: { type: "string" } });
    // @ts-expect-error a field the toolkit does not declare
    const flow = g.flow({ id: "x", name: "X", steps: [{ id: "s", collect: ["nomee"] }] });
    // As upstream: f.flow returns it (the typo is a type error); building an agent with it throws.
    assert.equal(flow.id, "x");
    assert.throws(() => g.agent({ name: "Ana", provider: scripted({}), flows: [flow] }), /unknown field "nomee"/);
    // @ts-expect-error context is required for falai<Ctx>()
    const missing: TurnInput<{ lead: string }, unknown> = { sessionId: "s1", message: "oi" };
    assert.equal(missing.sessionId, "s1");
  });
});

describe("@falai/agent: prompts", () => {
  it("identity and knowledge ride in the system half; instructions, the flow, the step and the no-message note in the prompt", async () => {
    const g = falai<{ vip: boolean }>().fields({ nome: { type: "string", ask: "Pergunte o nome com calma." } });
    const provider = scripted({ speak: [spoken("Oi")] });
    const agent = g.agent({
      name: "Bia", persona: "Fala pela Loja Azul.", goal: "Vender planos.", knowledgeBase: { planos: { pro: "R$ 49" } }, provider, clock: fakeClock(T0),
      instructions: [{ kind: "never", prompt: "Nunca invente preços." }, { prompt: "Ofereça o gerente.", if: ({ context }) => context.vip }, { prompt: "Some daqui.", if: ({ context }) => !context.vip }, { kind: "must", prompt: "Seja breve.", when: ["irritado", "com pressa"] }],
      flows: [g.flow({ id: "x", name: "Cadastro", description: "Quando chega alguém novo", instructions: [{ prompt: "Use o nome." }], steps: [{ id: "q", collect: ["nome"], instructions: [{ kind: "must", prompt: "Pergunte só o nome." }] }] })],
    });
    await agent.turn({ sessionId: "s1", context: { vip: true }, start: { flow: "x", key: "k" } });
    const input = provider.inputs[0]!;
    assert.match(input.system ?? "", /^You are Bia\.\nFala pela Loja Azul\.\nYour goal: Vender planos\.\n## Knowledge base\n- planos:\n {2}- pro: R\$ 49$/);
    for (const part of ["## Flow: Cadastro", "Quando chega alguém novo", "How to ask: Pergunte o nome com calma.", "- [never] [Always] Nunca invente preços.", "- [should] [Always] Ofereça o gerente.", "- [must] [Always] Seja breve. (apply only when: irritado OR com pressa)", "- [should] [Always] Use o nome.", "- [must] [Always] Pergunte só o nome.", "There is no new message from the customer"]) {
      assert.ok(input.prompt.includes(part), `missing: ${part}`);
    }
    assert.ok(!input.prompt.includes("Some daqui."));
    assert.ok(input.prompt.indexOf("Nunca invente") < input.prompt.indexOf("Use o nome.") && input.prompt.indexOf("Use o nome.") < input.prompt.indexOf("Pergunte só o nome."), "agent, then flow, then step");
  });
});

describe("@falai/agent: report to the harness", () => {
  const g = globalThis as Record<symbol, unknown>;
  afterEach(() => delete g[REPORTER_KEY]);

  it("announces each turn with the payload and the caller's site", async () => {
    const reports: RuntimeReport[] = [];
    g[REPORTER_KEY] = (r: RuntimeReport) => reports.push(r);
    const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "nome", collect: ["nome"] }] });
    const agent = f.agent({ name: "Ana", provider: scripted({ speak: [spoken("Nome?", { nome: "Ana" })] }), clock: fakeClock(T0), flows: [flow] });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1", history: [] });
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.kind, "turn");
    assert.match(reports[0]!.callSite.stack ?? "", /types-report\.test\.ts/);
    const p = reports[0]!.payload as TurnReportPayload;
    assert.deepEqual(p.flowIds, ["oi"]);
    assert.deepEqual(p.input, { kind: "message", sessionId: "s1", message: "oi", id: "m1", historyLength: 0 });
    assert.equal(p.llmCalls, 1);
    assert.deepEqual(p.messages, r.messages);
    assert.deepEqual(p.ended, [{ id: "oi#m1", flowId: "oi", stepId: "nome", reason: "end" }]);
    assert.deepEqual(p.skipped, []);
    assert.deepEqual(p.session, { id: "s1", version: 0, data: { nome: "Ana" }, runs: [] });
    assert.equal(p.now, T0);
    assert.deepEqual(JSON.parse(JSON.stringify(p)), p);
  });

  it("a reporter that throws changes nothing the caller sees", async () => {
    g[REPORTER_KEY] = () => {
      throw new Error("broken reporter");
    };
    const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "p", prompt: "Oi." }] });
    const agent = f.agent({ name: "Ana", provider: scripted({ speak: [spoken("Oi")] }), clock: fakeClock(T0), flows: [flow] });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.equal(r.messages[0]?.text, "Oi");
  });
});
