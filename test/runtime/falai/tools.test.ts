// Tools inside the speak call: which are offered, the gates each call passes, what the model reads back, the data
// a tool writes, the round cap and the wrap-up round.
import assert from "node:assert/strict";
import { falai, fakeClock, type Tool } from "@falai/agent";
import { scripted, spoken, T0 } from "./scripted";

const f = falai().fields({ reserva: { type: "string", description: "Código" } });
const call = (toolName: string, args: Record<string, unknown> = {}) => ({ message: "", toolCalls: [{ toolName, arguments: args }] });
const tool = (id: string, extra: Partial<Tool> = {}): Tool => ({ id, description: `tool ${id}`, parameters: { type: "object", properties: {}, required: [] }, handler: () => ({ value: `${id} ok` }), ...extra });

function agentWith(steps: Parameters<typeof f.flow>[0]["steps"], tools: Tool[], speak: Parameters<typeof scripted>[0]["speak"], extra: Record<string, unknown> = {}) {
  const provider = scripted({ speak: speak ?? [] });
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), tools, flows: [f.flow({ id: "x", name: "X", steps })], ...extra });
  return { agent, provider, go: () => agent.turn({ sessionId: "s1", start: { flow: "x", key: "k" } }) };
}
const toolItems = (h: { provider: ReturnType<typeof scripted> }, i: number) => (h.provider.inputs[i]?.history ?? []).filter((x) => x.role === "tool").map((x) => (x as { content: string }).content);

describe("@falai/agent tools", () => {
  it("a step's tools win over the flow's and the agent's; each round is a call; the result reaches the next round's history", async () => {
    const h = agentWith([{ id: "p", prompt: "Responda.", tools: ["b"] }], [tool("a"), tool("b", { handler: (args) => ({ value: { eco: args.q } }) })], [call("b", { q: 1 }), spoken("Pronto.")]);
    const r = await h.go();
    assert.deepEqual(h.provider.inputs[0]?.tools?.map((t) => t.name), ["b"]);
    assert.deepEqual(h.provider.inputs[1]?.history.map((x) => x.role), ["assistant", "tool"]);
    assert.deepEqual(h.provider.inputs[1]?.history[0], { role: "assistant", content: null, tool_calls: [{ id: "call-1-0", name: "b", arguments: { q: 1 } }] });
    assert.deepEqual(h.provider.inputs[1]?.history[1], { role: "tool", tool_call_id: "call-1-0", name: "b", content: '{"eco":1}' });
    assert.deepEqual([r.llmCalls, r.outcomes[0]?.llmCalls, r.messages[0]?.text], [2, 2, "Pronto."]);
  });

  it("the gates: not offered, validateInput (with correctedInput), checkPermissions, a throw, maxResultSizeChars", async () => {
    const tools = [
      tool("v", { validateInput: (args) => (args.ok ? { valid: true, correctedInput: { ok: 2 } } : { valid: false, error: "falta ok", correctedInput: { ok: 1 } }), handler: (args) => ({ value: args }) }),
      tool("p", { checkPermissions: () => ({ allowed: false }) }),
      tool("t", { handler: () => { throw new Error("quebrou"); } }),
      tool("big", { maxResultSizeChars: 5, handler: () => ({ value: "0123456789" }) }),
    ];
    const speak = [call("nada"), call("v"), call("v", { ok: true }), call("p"), call("t"), spoken("ok")];
    const h = agentWith([{ id: "p1", prompt: "R." }], tools, speak, { maxToolLoops: 5 });
    await h.go();
    assert.deepEqual(toolItems(h, 5), [
      '{"error":"Tool \\"nada\\" is not available."}',
      '{"error":"Validation failed: falta ok","correctedInput":{"ok":1}}',
      '{"ok":2}',
      '{"error":"Permission denied: not allowed"}',
      '{"error":"quebrou"}',
    ]);
    const big = agentWith([{ id: "p1", prompt: "R." }], [tool("big", { maxResultSizeChars: 5, handler: () => ({ value: "0123456789" }) })], [call("big"), spoken("ok")]);
    await big.go();
    assert.deepEqual(toolItems(big, 1), ["01234[truncated: 10 chars total, showing the first 5]"]);
  });

  it("a tool's data lands in the session as given and can complete a collect step", async () => {
    const reservar = tool("reservar", { handler: () => ({ value: { codigo: "R1" }, data: { reserva: "R1" } }) });
    const h = agentWith([{ id: "c", prompt: "Reserve.", collect: ["reserva"] }, { id: "s", say: "Reserva {{data.reserva}}." }], [reservar], [call("reservar"), spoken("Reservado!")]);
    const r = await h.go();
    assert.deepEqual(r.session.data, { reserva: "R1" });
    assert.deepEqual(r.messages.map((m) => m.text), ["Reservado!", "Reserva R1."]);
  });

  it("after maxToolLoops rounds the model is asked once more with no tools and a wrap-up section; 0 offers none", async () => {
    const h = agentWith([{ id: "p", prompt: "R." }], [tool("a")], [call("a"), call("a"), spoken("fim")], { maxToolLoops: 2 });
    const r = await h.go();
    assert.deepEqual(h.provider.inputs.map((i) => i.tools?.length ?? 0), [1, 1, 0]);
    assert.ok(h.provider.inputs[2]?.prompt.includes("Wrap up"));
    assert.equal(r.messages[0]?.text, "fim");
    const none = agentWith([{ id: "p", prompt: "R." }], [tool("a")], [spoken("sem ferramentas")], { maxToolLoops: 0 });
    await none.go();
    assert.equal(none.provider.inputs[0]?.tools, undefined);
  });

  it("consecutive safe calls run together; a destructive one runs alone; patches merge in call order", async () => {
    const log: string[] = [];
    const slow = (id: string, ms: number): Tool => tool(id, { isReadOnly: () => true, handler: async () => { log.push(`${id}+`); await new Promise((r) => setTimeout(r, ms)); log.push(`${id}-`); return { data: { reserva: id } }; } });
    const danger = tool("d", { isDestructive: () => true, isReadOnly: () => true, handler: () => (log.push("d"), { data: { reserva: "d" } }) });
    const h = agentWith([{ id: "p", prompt: "R." }], [slow("a", 20), slow("b", 1), danger], [{ message: "", toolCalls: [{ toolName: "a" }, { toolName: "b" }, { toolName: "d" }] }, spoken("ok")]);
    const r = await h.go();
    assert.deepEqual(log, ["a+", "b+", "b-", "a-", "d"]);
    assert.equal(r.session.data.reserva, "d");
  });
});
