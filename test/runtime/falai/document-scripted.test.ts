// The document's own scripted provider module drives turns against our runtime.
import assert from "node:assert/strict";
import { falai, fakeClock, ProviderError } from "@falai/agent";
import { scripted } from "./document-scripted";

describe("@falai/agent: the document's scripted provider module", () => {
  it("counts calls per schema name; a dry speak queue defers the step, a dry understand queue rejects the turn", async () => {
    const f = falai().fields({ nome: { type: "string" } });
    const flows = [
      f.flow({ id: "triagem", name: "Triagem", on: [{ message: ["pede um orçamento"] }], steps: [{ id: "quem", collect: ["nome"] }] }),
      f.flow({ id: "suporte", name: "Suporte", on: [{ message: ["tem um problema"] }], steps: [{ id: "p", prompt: "Ajude." }] }),
    ];
    const provider = scripted({ understand: [{ flows: { triagem: 90 }, mentions: {}, extract: {}, branches: {}, fields: {} }, { flows: {}, mentions: {}, extract: {}, branches: {}, fields: {} }], speak: [{ message: "Qual seu nome?", nome: null }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows });
    const t1 = await agent.turn({ sessionId: "s1", message: "quanto custa?", id: "m1" });
    assert.deepEqual(provider.calls, ["understand", "speak"]);
    assert.equal(t1.llmCalls, 2);
    // An unexpected extra speak call: its queue is dry, and the turn still returns, the step deferred.
    const t2 = await agent.turn({ sessionId: "s1", message: "hmm", id: "m2", session: t1.session });
    assert.deepEqual(provider.calls, ["understand", "speak", "understand", "speak"]);
    assert.deepEqual(t2.outcomes.map((o) => [o.status, o.code]), [["deferred", "provider-unavailable"]]);
    assert.match(t2.schedule[0]?.key ?? "", /:retry:\d+$/);
    // An unexpected understand call: nothing ran, the host replays the input later.
    await assert.rejects(agent.turn({ sessionId: "s1", message: "de novo", id: "m3", session: t1.session }), ProviderError);
  });
});
