// runAgent, executors and requests: statuses, resume, validation, budgets, errors with codes.
import assert from "node:assert/strict";
import { z } from "zod";
import { AgentDecisionExhaustedError, AgentError, createDecisionLogic, executeAgentRequest, runAgent, setupAgent } from "../../../runtime/src/stately/index";
import { chatMachine, reviewMachine, seedMachine } from "./fixtures";

const isCode = (code: string) => (error: unknown) => error instanceof AgentError && error.code === code;
const input = { topic: "t" };

describe("runAgent", () => {
  it("idle when waiting for an event; resumes from the snapshot with an event", async () => {
    let n = 0;
    const executors = { generateText: async () => ({ result: `reply ${++n}`, usage: { inputTokens: 3, outputTokens: 2 } }) };
    const first = await runAgent(chatMachine(), { executors });
    assert.equal(first.status, "idle");
    assert.equal(first.snapshot.value, "waiting");
    assert.deepEqual(first.usage, { inputTokens: 3, outputTokens: 2, totalTokens: 5, modelCalls: 1 });
    const persisted = JSON.parse(JSON.stringify(first.snapshot));
    const second = await runAgent(chatMachine(), { executors, snapshot: persisted, event: { type: "USER", text: "hi" } });
    assert.equal(second.status, "idle");
    assert.deepEqual(second.snapshot.context.replies, ["reply 1", "reply 2"]);
    const third = await runAgent(chatMachine(), { executors, snapshot: second.snapshot, event: { type: "BYE" } });
    assert.equal(third.status, "done");
    assert.deepEqual(third.status === "done" && third.output, { replies: ["reply 1", "reply 2"] });
  });

  it("rejects an event the idle state does not accept", async () => {
    const first = await runAgent(chatMachine(), { executors: { generateText: async () => ({ result: "r" }) } });
    await assert.rejects(runAgent(chatMachine(), { executors: {}, snapshot: first.snapshot, event: { type: "NOPE" } as never }), isCode("illegal-resume-event"));
  });

  it("invalid machine input rejects with invalid-machine-input before any call", async () => {
    let calls = 0;
    await assert.rejects(
      runAgent(seedMachine(), { input: { topic: 42 } as never, executors: { generateText: async () => { calls++; return { result: "x" }; } } }),
      (error: unknown) => isCode("invalid-machine-input")(error) && /topic/.test((error as Error).message),
    );
    assert.equal(calls, 0);
  });

  it("an invalid executor result settles error with invalid-executor-result (never rejects)", async () => {
    const result = await runAgent(seedMachine(), { input, executors: { generateText: async () => ({ text: "raw" }) as never } });
    assert.equal(result.status, "error");
    assert.ok(isCode("invalid-executor-result")(result.status === "error" && result.error));
    const extra = await runAgent(seedMachine(), { input, executors: { generateText: async () => ({ result: "x", extra: 1 }) as never } });
    assert.ok(isCode("invalid-executor-result")(extra.status === "error" && extra.error));
  });

  it("a result that breaks the output schema settles invalid-request-output", async () => {
    const result = await runAgent(seedMachine(), { input, executors: { generateText: async (r) => ({ result: r.name === "draftEmail" ? "d" : { score: "high" } }) } });
    assert.equal(result.status, "error");
    assert.ok(isCode("invalid-request-output")(result.status === "error" && result.error));
    assert.equal(result.snapshot.value, "scoring");
  });

  it("an unhandled executor failure settles error with the thrown error", async () => {
    const boom = new Error("rate limited");
    const result = await runAgent(seedMachine(), { input, executors: { generateText: async () => { throw boom; } } });
    assert.equal(result.status, "error");
    assert.equal(result.status === "error" && result.error, boom);
  });

  it("a missing executor is an actor error with missing-executor", async () => {
    const result = await runAgent(seedMachine(), { input, executors: {} });
    assert.ok(isCode("missing-executor")(result.status === "error" && result.error));
  });

  it("maxModelCalls ends the run with max-model-calls-exceeded, even under onError", async () => {
    const result = await runAgent(reviewMachine(), {
      maxModelCalls: 3,
      executors: { generateText: async () => ({ result: "d" }), decide: async () => ({ event: { type: "REWRITE" } }) },
    });
    assert.equal(result.status, "error");
    assert.ok(isCode("max-model-calls-exceeded")(result.status === "error" && result.error));
    assert.equal(result.usage.modelCalls, 3);
  });

  it("a decision the state does not accept is retried, then an actor error listing every attempt (decision-exhausted)", async () => {
    const seen: number[] = [];
    const result = await runAgent(reviewMachine(), {
      executors: { generateText: async () => ({ result: "d" }), decide: async (request) => { seen.push(request.attempts.length); return { event: { type: "SHIP" } }; } },
    });
    assert.equal(result.status, "error");
    const error = (result as { error: { attempts?: Array<{ failure: string; event?: { type: string } }> } }).error;
    assert.ok(isCode("decision-exhausted")(error));
    assert.ok(error instanceof AgentDecisionExhaustedError);
    assert.deepEqual(seen, [0, 1, 2], "three attempts, each seeing the failed ones before it");
    assert.deepEqual(error.attempts?.map((a) => [a.failure, a.event?.type]), [["unknown-event", "SHIP"], ["unknown-event", "SHIP"], ["unknown-event", "SHIP"]]);
    assert.equal(result.usage.modelCalls, 4, "the draft and three decision attempts");
  });

  it("a choice a guard refuses is asked again and the next acceptable one is taken (upstream's decision retries)", async () => {
    const agent = setupAgent({ context: z.object({ trust: z.number() }), events: { PUBLISH: {}, BLOCK: {} } });
    const machine = agent.createMachine({
      context: { trust: 20 },
      initial: "reviewing",
      states: {
        reviewing: {
          invoke: { src: agent.decide, input: { model: "fast", name: "moderate" } },
          on: { PUBLISH: ({ context }) => (context.trust >= 50 ? { target: "published" } : undefined), BLOCK: () => ({ target: "blocked" }) },
        },
        published: { type: "final" },
        blocked: { type: "final" },
      },
    });
    const attempts: unknown[] = [];
    const choices = [{ type: "PUBLISH" }, { type: "BLOCK" }];
    const result = await runAgent(machine, { executors: { decide: async (request) => { attempts.push(request.attempts.map((a) => [a.failure, a.event?.type])); return { event: choices.shift()! }; } } });
    assert.equal(result.status, "done");
    assert.equal(result.snapshot.value, "blocked");
    assert.deepEqual(attempts, [[], [["rejected", "PUBLISH"]]]);
  });

  it("decisions check payloads against the event schema", async () => {
    const result = await runAgent(reviewMachine(), {
      executors: { generateText: async () => ({ result: "d" }), decide: async () => ({ event: { type: "APPROVE", note: 5 } }) },
    });
    const error = (result as { error: { attempts?: Array<{ failure: string }> } }).error;
    assert.ok(isCode("decision-exhausted")(error));
    assert.deepEqual(error.attempts?.map((a) => a.failure), ["invalid-payload", "invalid-payload", "invalid-payload"]);
  });

  it("an aborted signal settles error with aborted", async () => {
    const controller = new AbortController();
    const pending = runAgent(seedMachine(), {
      input,
      signal: controller.signal,
      executors: { generateText: () => new Promise(() => {}) },
    });
    setTimeout(() => controller.abort(), 10);
    const result = await pending;
    assert.ok(isCode("aborted")(result.status === "error" && result.error));
  });

  it("createDecisionLogic with a name routes decide by that name; allowedEvents narrows the options", async () => {
    const agent = setupAgent({ context: z.object({}), requests: {} });
    const machine = agent.createMachine({
      context: {},
      initial: "choosing",
      states: {
        choosing: {
          invoke: { src: createDecisionLogic({ name: "route", model: "m", prompt: "go?", allowedEvents: ["GO"] }) },
          on: { GO: { target: "gone" }, STAY: { target: "choosing" } },
        },
        gone: { type: "final" },
      },
    });
    const seen: Array<[string, string[]]> = [];
    const result = await runAgent(machine, { executors: { decide: async (r) => { seen.push([r.name, r.events.map((o) => o.type)]); return { event: { type: "GO" } }; } } });
    assert.equal(result.status, "done");
    assert.deepEqual(seen, [["route", ["GO"]]]);
  });
});

describe("executeAgentRequest", () => {
  const agent = setupAgent({
    context: z.object({}),
    requests: {
      scoreDraft: { model: "judge", schemas: { input: z.object({ draft: z.string() }), output: z.object({ score: z.number() }) }, prompt: ({ input }) => `Score: ${input.draft}` },
    },
  });

  it("runs one named request with its input and returns the validated result", async () => {
    const request = agent.request("scoreDraft", { draft: "hello" });
    assert.equal(request.name, "scoreDraft");
    assert.equal(request.model, "judge");
    assert.equal(request.prompt, "Score: hello");
    assert.equal(request.structured, true);
    const result = await executeAgentRequest(request, { generateText: async () => ({ result: { score: 5 } }) });
    assert.deepEqual(result, { score: 5 });
  });

  it("invalid input, unknown names and invalid results throw coded errors", async () => {
    assert.throws(() => agent.request("scoreDraft", { draft: 1 } as never), isCode("invalid-request-input"));
    assert.throws(() => agent.request("nope" as never, {} as never), isCode("unknown-request"));
    await assert.rejects(executeAgentRequest(agent.request("scoreDraft", { draft: "x" }), { generateText: async () => ({ result: "five" }) }), isCode("invalid-request-output"));
    await assert.rejects(executeAgentRequest(agent.request("scoreDraft", { draft: "x" }), { generateText: async () => "five" as never }), isCode("invalid-executor-result"));
  });
});


describe("provideExecutors", () => {
  it("gives a machine its executors so a plain createActor runs its requests (upstream's name)", async () => {
    const { createActor, toPromise } = await import("xstate");
    const { provideExecutors } = await import("../../../runtime/src/stately/index");
    const { createScriptedExecutors } = await import("../../../runtime/src/stately/testing");
    const agent = setupAgent({ context: z.object({ outcome: z.string() }), output: z.object({ outcome: z.string() }), events: { FLAG: z.object({ reason: z.string() }) } });
    const machine = agent.createMachine({
      context: { outcome: "" },
      output: ({ context }) => ({ outcome: context.outcome }),
      initial: "reviewing",
      states: {
        reviewing: { invoke: { src: agent.decide, input: { model: "fast" } }, on: { FLAG: ({ event }) => ({ target: "done", context: { outcome: event.reason } }) } },
        done: { type: "final" },
      },
    });
    const provided = provideExecutors(machine, createScriptedExecutors({ decisions: { "*": { type: "FLAG", reason: "Borderline." } } }));
    const actor = createActor(provided, {});
    actor.start();
    assert.deepEqual(await toPromise(actor), { outcome: "Borderline." });
    const bare = createActor(machine, {});
    const failed = new Promise((resolve) => bare.subscribe({ error: resolve }));
    bare.start();
    assert.match(String(await failed), /provideExecutors/, "the machine itself still needs runAgent or provideExecutors");
    assert.throws(() => provideExecutors({} as never, {}), (e: unknown) => e instanceof AgentError && e.code === "not-an-agent-machine");
  });
});
