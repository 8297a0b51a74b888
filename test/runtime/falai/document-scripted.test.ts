// The document's own scripted provider module drives turns against our runtime.
import assert from "node:assert/strict";
import { falai, fakeClock } from "@falai/agent";
import { scripted } from "./document-scripted";

describe("@falai/agent: the document's scripted provider module", () => {
  it("counts calls per schema name and fails loudly when a queue runs dry", async () => {
    const f = falai().fields({ nome: { type: "string" } });
    const flow = f.flow({ id: "triagem", name: "Triagem", on: [{ message: ["pede um orçamento"] }], steps: [{ id: "quem", collect: ["nome"] }] });
    const provider = scripted({ understand: [{ flows: { triagem: 90 }, mentions: {}, extract: {}, branches: {}, fields: {} }], speak: [{ message: "Qual seu nome?", nome: null }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
    const t1 = await agent.turn({ sessionId: "s1", message: "quanto custa?", id: "m1" });
    assert.deepEqual(provider.calls, ["understand", "speak"]);
    assert.equal(t1.llmCalls, 2);
    // An unexpected extra call: understand's queue is dry, speak's too — the turn still returns, deferred.
    const t2 = await agent.turn({ sessionId: "s1", message: "hmm", id: "m2", session: t1.session });
    assert.deepEqual(provider.calls, ["understand", "speak", "understand", "speak"]);
    assert.equal(t2.outcomes.find((o) => o.kind === "understand")?.code, "provider-unavailable");
    assert.equal(t2.outcomes.find((o) => o.kind === "speak")?.code, "provider-unavailable");
  });
});
