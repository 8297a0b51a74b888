// lintAgentMachine / assertAgentMachine: the library's three codes and severities, { disable, throw,
// warnings }, and clean machines staying clean.
import assert from "node:assert/strict";
import { z } from "zod";
import { AgentError, createTextLogic, setupAgent } from "../../../runtime/src/stately/index";
import { AgentLintError, assertAgentMachine, lintAgentMachine } from "../../../runtime/src/stately/testing";
import { createAsyncLogic } from "xstate";
import { chatMachine, reviewMachine, seedMachine } from "./fixtures";

const isCode = (code: string) => (error: unknown) => error instanceof AgentError && error.code === code;
const codes = (machine: Parameters<typeof lintAgentMachine>[0]) => lintAgentMachine(machine).map((d) => `${d.severity} ${d.code} ${d.path}`);

/** A decision in a state with no events to deliver, an inline non-request actor, and no onError anywhere. */
function faultyMachine() {
  const agent = setupAgent({ context: z.object({}), requests: { ask: { model: "m", prompt: "?" } } });
  return agent.createMachine({
    id: "faulty",
    context: {},
    initial: "deciding",
    states: {
      deciding: { invoke: { src: agent.decide, input: { model: "judge" } } },
      fetching: { invoke: { src: createAsyncLogic({ run: async () => 1 }), onError: { target: "deciding" } } },
      inline: { invoke: { src: createTextLogic({ model: "m", prompt: "x" }), onError: { target: "deciding" } } },
    },
  });
}

describe("lintAgentMachine", () => {
  it("the seed machine has no errors, only a warning per invoke without onError", () => {
    assert.deepEqual(codes(seedMachine()), ["warning invoke-without-on-error drafting", "warning invoke-without-on-error scoring"]);
    assert.doesNotThrow(() => assertAgentMachine(seedMachine()));
    assert.doesNotThrow(() => lintAgentMachine(seedMachine(), { throw: true }));
  });

  it("a machine whose states handle errors and events lints clean", () => {
    // reviewMachine: drafting has onError; reviewing decides and handles APPROVE / REWRITE
    assert.deepEqual(codes(reviewMachine()), ["warning invoke-without-on-error reviewing"]);
    const handled = lintAgentMachine(reviewMachine(), { disable: ["invoke-without-on-error"] });
    assert.deepEqual(handled, []);
  });

  it("finds undeliverable decisions (error), by-value actor logic (warning) and missing error paths (warning)", () => {
    const found = lintAgentMachine(faultyMachine());
    assert.deepEqual(found.map((d) => `${d.severity} ${d.code} ${d.path}`), [
      "error decide-without-events deciding",
      "warning invoke-without-on-error deciding",
      "warning direct-object-src fetching",
    ]);
    assert.ok(found.every((d) => d.message.length > 20));
  });

  it("an ancestor's events deliver a decision; an ancestor's error handler covers its children", () => {
    const agent = setupAgent({ context: z.object({}), events: { GO: {} }, requests: {} });
    const machine = agent.createMachine({
      context: {},
      initial: "outer",
      on: { "xstate.error.actor": { target: ".failed" } },
      states: {
        outer: {
          on: { GO: { target: "failed" } },
          initial: "deciding",
          states: { deciding: { invoke: { src: "agent.decide", input: { model: "judge" } } } },
        },
        failed: { type: "final" },
      },
    } as never);
    assert.deepEqual(lintAgentMachine(machine), []);
  });

  it("throw: errors fail, warnings only with warnings: true; findings ride on AgentLintError", () => {
    assert.throws(() => assertAgentMachine(faultyMachine()), (error: unknown) => {
      assert.ok(error instanceof AgentLintError);
      assert.equal(error.code, "lint-failed");
      assert.deepEqual(error.diagnostics.map((d) => d.code), ["decide-without-events"]);
      assert.match(error.message, /"faulty".*\n.*decide-without-events at deciding/);
      return true;
    });
    assert.doesNotThrow(() => assertAgentMachine(faultyMachine(), { disable: ["decide-without-events"] }));
    assert.throws(() => assertAgentMachine(seedMachine(), { warnings: true }), (error: unknown) => error instanceof AgentLintError && error.diagnostics.length === 2);
    assert.throws(() => lintAgentMachine(faultyMachine(), { throw: true, warnings: true }), (error: unknown) => error instanceof AgentLintError && error.diagnostics.length === 3);
  });

  it("chatMachine's wait state and reply invoke: only the missing onError is reported", () => {
    assert.deepEqual(codes(chatMachine()), ["warning invoke-without-on-error replying"]);
  });

  it("wrong arguments are coded errors", () => {
    assert.throws(() => lintAgentMachine({} as never), isCode("not-an-agent-machine"));
    assert.throws(() => lintAgentMachine(seedMachine(), { disable: ["no-such-code" as never] }), isCode("invalid-options"));
    assert.throws(() => lintAgentMachine(seedMachine(), { throw: "yes" as never }), isCode("invalid-options"));
  });
});
