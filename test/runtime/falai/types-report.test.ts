// DataOf gives the field types (checked by tsc over this file), and every settled turn is announced to
// the harness reporter with a JSON-safe TurnReportPayload.
import assert from "node:assert/strict";
import { falai, fakeClock, type DataOf } from "@falai/agent";
import { REPORTER_KEY, type RuntimeReport, type TurnReportPayload } from "../../../runtime/src/shared/report";
import { scripted } from "./scripted";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(ok: T) => ok;

const f = falai().fields({
  nome: { type: "string" },
  pessoas: { type: "number" },
  cliente: { type: "boolean" },
  plano: { type: "enum", values: ["basico", "pro"] },
});

describe("@falai/agent: types", () => {
  it("DataOf<typeof f> maps string, number, boolean and enum fields, each optional", () => {
    type Data = DataOf<typeof f>;
    expectType<Equal<Data, { nome?: string; pessoas?: number; cliente?: boolean; plano?: "basico" | "pro" }>>(true);
    const agent = f.agent({ name: "Ana", provider: scripted({}), flows: [] });
    expectType<Equal<DataOf<typeof agent>, Data>>(true);
    const data: Data = { plano: "pro" };
    // @ts-expect-error outside the enum
    data.plano = "enterprise";
    assert.equal(data.plano, "enterprise");
  });
});

describe("@falai/agent: report to the harness", () => {
  const g = globalThis as Record<symbol, unknown>;
  afterEach(() => delete g[REPORTER_KEY]);

  it("announces each turn with the payload and the caller's site", async () => {
    const reports: RuntimeReport[] = [];
    g[REPORTER_KEY] = (r: RuntimeReport) => reports.push(r);
    const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "nome", collect: ["nome"] }] });
    const agent = f.agent({ name: "Ana", provider: scripted({ speak: [{ message: "Nome?", nome: "Ana" }] }), clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1", history: [] });
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.kind, "turn");
    assert.match(reports[0]!.callSite.stack ?? "", /types-report\.test\.ts/);
    const p = reports[0]!.payload as TurnReportPayload;
    assert.deepEqual(p.flowIds, ["oi"]);
    assert.deepEqual(p.input, { sessionId: "s1", message: "oi", id: "m1", historyLength: 0 });
    assert.equal(p.llmCalls, 1);
    assert.equal(p.changed, true);
    assert.deepEqual(p.messages, r.messages);
    assert.deepEqual(p.session, { id: "s1", version: 1, data: { nome: "Ana" }, runs: r.session.runs });
    assert.equal(p.now, "2026-09-20T10:00:00.000Z");
    assert.deepEqual(JSON.parse(JSON.stringify(p)), p);
  });

  it("a reporter that throws changes nothing the caller sees", async () => {
    g[REPORTER_KEY] = () => {
      throw new Error("broken reporter");
    };
    const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "p", prompt: "Oi." }] });
    const agent = f.agent({ name: "Ana", provider: scripted({ speak: [{ message: "Oi" }] }), clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.equal(r.messages[0]?.text, "Oi");
  });
});
