// A speak reply with toolCalls runs the tool, and the next speak reply answers after it.
import assert from "node:assert/strict";
import { z } from "zod";
import { falai, fakeClock } from "@falai/agent";
import { scripted } from "./scripted";

const T0 = "2026-09-20T10:00:00.000Z";
const f = falai().fields({ pessoas: { type: "number" } });
const flow = f.flow({ id: "venda", name: "Venda", on: [{ message: [] }], steps: [{ id: "preco", prompt: "Dê o preço.", tools: ["orcamento"] }] });

describe("@falai/agent: tool call round trip", () => {
  it("runs the tool with the call's arguments, then the next speak reply answers with the result in history", async () => {
    const ran: unknown[] = [];
    const orcamento = f.tool({
      name: "orcamento",
      description: "Preço para um time",
      parameters: z.object({ pessoas: z.number() }),
      run: (args: { pessoas: number }, ctx) => {
        ran.push([args, ctx.key]);
        return { total: args.pessoas * 10 };
      },
    });
    const provider = scripted({ speak: [{ toolCalls: [{ toolName: "orcamento", arguments: { pessoas: 30 } }] }, { message: "Para 30 pessoas: R$ 300." }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow], tools: [orcamento] });
    const r = await agent.turn({ sessionId: "s1", message: "quanto custa para 30?", id: "m1" });
    assert.deepEqual(ran, [[{ pessoas: 30 }, "venda#m1:preco:1"]]);
    assert.deepEqual(provider.calls, ["speak", "speak"]);
    assert.equal(r.llmCalls, 2);
    assert.deepEqual(r.messages.map((m) => m.text), ["Para 30 pessoas: R$ 300."]);
    const tool = r.outcomes.find((o) => o.kind === "tool");
    assert.deepEqual([tool?.status, tool?.code, tool?.tool, tool?.value], ["ok", "tool-ran", "orcamento", { total: 300 }]);
    const second = provider.inputs[1]!;
    assert.deepEqual(second.history.slice(-2), [
      { role: "assistant", content: JSON.stringify({ toolCall: { toolName: "orcamento", arguments: { pessoas: 30 } } }) },
      { role: "tool", toolName: "orcamento", content: JSON.stringify({ total: 300 }) },
    ]);
    const offered = provider.inputs[0]!.tools![0]!;
    assert.equal(offered.name, "orcamento");
    assert.deepEqual((offered.parameters as { properties: unknown }).properties, { pessoas: { type: "number" } });
  });

  it("invalid arguments reach the model as an error, and a tool registered by name in an object works", async () => {
    const provider = scripted({ speak: [{ toolCalls: [{ toolName: "orcamento", arguments: { pessoas: "trinta" } }] }, { message: "Quantas pessoas, em número?" }] });
    const agent = f.agent({
      name: "Ana", provider, clock: fakeClock(T0), flows: [flow],
      tools: { orcamento: { description: "Preço", parameters: z.object({ pessoas: z.number() }), run: () => assert.fail("must not run") } },
    });
    const r = await agent.turn({ sessionId: "s1", message: "quanto custa?", id: "m1" });
    assert.equal(r.outcomes.find((o) => o.kind === "tool")?.code, "tool-failed");
    assert.match(provider.inputs[1]!.history.at(-1)!.content, /error/);
    assert.deepEqual(r.messages.map((m) => m.text), ["Quantas pessoas, em número?"]);
  });

  it("a call to a tool the step does not offer is answered with an error, not run", async () => {
    const provider = scripted({ speak: [{ toolCalls: [{ toolName: "apagar_tudo", arguments: {} }] }, { message: "Não posso." }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow], tools: [f.tool("orcamento", { run: () => 1 })] });
    const r = await agent.turn({ sessionId: "s1", message: "x", id: "m1" });
    assert.equal(r.outcomes.find((o) => o.kind === "tool")?.code, "unknown-tool");
    assert.equal(r.messages[0]?.text, "Não posso.");
  });

  it("a model that keeps calling tools is deferred with tool-loop", async () => {
    const loop = Array.from({ length: 6 }, () => ({ toolCalls: [{ toolName: "orcamento", arguments: {} }] }));
    const agent = f.agent({ name: "Ana", provider: scripted({ speak: loop }), clock: fakeClock(T0), flows: [flow], tools: [f.tool("orcamento", { run: () => 1 })] });
    const r = await agent.turn({ sessionId: "s1", message: "x", id: "m1" });
    assert.equal(r.llmCalls, 6);
    assert.equal(r.outcomes.find((o) => o.status === "deferred")?.code, "tool-loop");
    assert.match(r.schedule[0]!.key, /:retry:\d+$/);
  });
});

describe("@falai/agent: tool results that are not JSON", () => {
  it("a cyclic result reaches the model as text and the turn goes on", async () => {
    const cyclic: Record<string, unknown> = { total: 1 };
    cyclic.self = cyclic;
    const provider = scripted({ speak: [{ toolCalls: [{ toolName: "orcamento", arguments: {} }] }, { message: "Feito." }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow], tools: [f.tool("orcamento", { run: () => cyclic })] });
    const r = await agent.turn({ sessionId: "s1", message: "x", id: "m1" });
    assert.equal(r.outcomes.find((o) => o.kind === "tool")?.code, "tool-ran");
    assert.equal(provider.inputs[1]!.history.at(-1)!.content, JSON.stringify("[object Object]"));
    assert.equal(r.messages[0]?.text, "Feito.");
  });
});
