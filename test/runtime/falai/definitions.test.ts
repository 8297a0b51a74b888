// Invalid turn input and invalid definitions fail at once with a typed error and a code; durations and the clock.
import assert from "node:assert/strict";
import { DefinitionError, falai, fakeClock, parseDuration, TurnInputError, tryParseDuration, type TurnInput } from "@falai/agent";
import { scripted } from "./scripted";

const f = falai().fields({ nome: { type: "string" } });
const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "p", prompt: "Oi." }] });

function rejectsWith(code: string) {
  return (e: unknown) => {
    assert.ok(e instanceof TurnInputError, String(e));
    assert.equal(e.code, code);
    assert.ok(e.message.length > 10);
    return true;
  };
}

describe("@falai/agent: invalid turn input", () => {
  const provider = scripted({});
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
  const bad = (x: unknown) => x as TurnInput<Record<string, never>>;

  it("is rejected with a code before any call is spent", async () => {
    await assert.rejects(agent.turn(bad({ message: "oi", id: "m1" })), rejectsWith("missing-session-id"));
    await assert.rejects(agent.turn(bad({ sessionId: "", message: "oi", id: "m1" })), rejectsWith("missing-session-id"));
    await assert.rejects(agent.turn(bad({ sessionId: "s1", message: "oi", id: "m1", wake: "k" })), rejectsWith("message-and-wake"));
    await assert.rejects(agent.turn(bad({ sessionId: "s1" })), rejectsWith("no-message-or-wake"));
    await assert.rejects(agent.turn(bad({ sessionId: "s1", message: "oi" })), rejectsWith("missing-message-id"));
    await assert.rejects(agent.turn(bad({ sessionId: "s1", message: 3, id: "m1" })), rejectsWith("bad-message"));
    await assert.rejects(agent.turn(bad({ sessionId: "s1", wake: "" })), rejectsWith("bad-wake"));
    await assert.rejects(agent.turn(bad({ sessionId: "s1", message: "oi", id: "m1", session: { id: "s2", version: 1, data: {}, runs: [], seen: [] } })), rejectsWith("session-mismatch"));
    await assert.rejects(agent.turn(bad({ sessionId: "s1", message: "oi", id: "m1", session: { id: "s1", version: 1, data: { f: () => 1 }, runs: [], seen: [] } })), rejectsWith("bad-session"));
    assert.throws(() => agent.turnStream(bad({ sessionId: "s1" })), rejectsWith("no-message-or-wake"));
    assert.deepEqual(provider.calls, []);
  });
});

describe("@falai/agent: definitions", () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof DefinitionError, String(e));
      return e.code;
    }
    return "no error";
  };
  const loose = f as unknown as { flow(def: unknown): unknown; agent(o: unknown): unknown };

  it("rejects bad fields, steps, targets, durations, triggers, flows, tools and actions with catalogue codes", () => {
    assert.equal(codeOf(() => falai().fields({ x: { type: "date" } } as never)), "bad-field-type");
    assert.equal(codeOf(() => falai().fields({ x: { type: "enum", values: [] } })), "bad-field-type");
    assert.equal(codeOf(() => loose.flow({ id: "a", steps: [{ id: "p" }, { id: "p" }] })), "duplicate-step");
    assert.equal(codeOf(() => loose.flow({ id: "a", steps: [{ id: "p", else: "nada" }] })), "unknown-step");
    assert.equal(codeOf(() => loose.flow({ id: "a", steps: [{ id: "p", branches: [{ when: "x", goto: "nada" }] }] })), "unknown-step");
    assert.equal(codeOf(() => loose.flow({ id: "a", steps: [{ id: "p", collect: ["idade"] }] })), "unknown-field");
    assert.equal(codeOf(() => loose.flow({ id: "a", steps: [{ id: "p", wait: "2 dias" }] })), "bad-duration");
    assert.equal(codeOf(() => loose.flow({ id: "a", on: [{ silence: "amanhã" }], steps: [{ id: "p" }] })), "bad-duration");
    assert.equal(codeOf(() => loose.flow({ id: "a", on: [{ quando: "x" }], steps: [{ id: "p" }] })), "bad-trigger");
    assert.equal(codeOf(() => loose.flow({ id: "a", steps: [] })), "empty-flow");
    const provider = scripted({});
    assert.equal(codeOf(() => f.agent({ name: "Ana", provider, flows: [flow, flow] })), "duplicate-flow");
    const withDo = f.flow({ id: "d", name: "D", steps: [{ id: "p", do: "crm" }] });
    const withTool = f.flow({ id: "t", name: "T", steps: [{ id: "p", tools: ["busca"] }] });
    assert.equal(codeOf(() => f.agent({ name: "Ana", provider, flows: [withDo] })), "unknown-action");
    assert.equal(codeOf(() => f.agent({ name: "Ana", provider, flows: [withTool] })), "unknown-tool");
    assert.equal(codeOf(() => f.agent({ name: "Ana", provider, flows: [withDo], actions: { crm: () => {} } })), "no error");
    assert.equal(codeOf(() => f.agent({ name: "Ana", provider, flows: [withDo], actions: [f.action({ name: "crm", handler: () => {} })] })), "no error");
    assert.equal(codeOf(() => loose.agent({ name: "Ana", flows: [] })), "bad-option");
  });

  it("the compiler checks step targets, collected fields and durations", () => {
    // Each line below is a compile error (tsc -p tsconfig.json checks this file); at run time they throw too.
    assert.throws(() =>
      f.flow({
        id: "a",
        name: "A",
        steps: [
          // @ts-expect-error not a step of this flow
          { id: "p", wait: "1h", else: "nada" },
        ],
      }),
    );
    // @ts-expect-error not a declared field
    assert.throws(() => f.flow({ id: "a", name: "A", steps: [{ id: "p", collect: ["idade"] }] }));
    // @ts-expect-error not a duration
    assert.throws(() => f.flow({ id: "a", name: "A", steps: [{ id: "p", wait: "dois dias" }] }));
  });
});

describe("@falai/agent: durations and the clock", () => {
  it("parses the documented forms", () => {
    assert.equal(parseDuration("24h"), 86_400_000);
    assert.equal(parseDuration("2d"), 172_800_000);
    assert.equal(parseDuration("90m"), 5_400_000);
    assert.equal(parseDuration("1h30m"), 5_400_000);
    assert.equal(parseDuration("30s"), 30_000);
    assert.equal(parseDuration("500ms"), 500);
    assert.equal(parseDuration(1234), 1234);
    for (const bad of ["", "24", "h", "2 d", "1h 30m", "-1h", "1w", "abc"]) assert.equal(tryParseDuration(bad), undefined, bad);
  });

  it("fakeClock moves only when told to", () => {
    const clock = fakeClock("2026-09-20T10:00:00.000Z");
    clock.advance("24h");
    assert.equal(clock.now().toISOString(), "2026-09-21T10:00:00.000Z");
    clock.advance(500);
    assert.equal(clock.now().toISOString(), "2026-09-21T10:00:00.500Z");
    const a = clock.now();
    a.setFullYear(2000);
    assert.equal(clock.now().toISOString(), "2026-09-21T10:00:00.500Z", "now() returns a fresh Date");
  });
});
