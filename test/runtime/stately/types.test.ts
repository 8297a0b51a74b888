// Types of setupAgent's requests map (checked by `npm run typecheck`, which covers test/): a prompt / messages /
// system function sees its own request's input type, so a typo in `input.<field>` is a type error; the invoke's
// input and onDone's output stay typed; `src: "agent.decide"` types beside named requests.
import assert from "node:assert/strict";
import { z } from "zod";
import { setupAgent } from "../../../runtime/src/stately/index";

describe("@statelyai/agent: types of the requests map", () => {
  it("prompt, messages and system functions get the request's input type from its own schemas", () => {
    const agent = setupAgent({
      context: z.object({ topic: z.string(), draft: z.string() }),
      events: { APPROVE: {} },
      requests: {
        draftEmail: {
          model: "writer",
          schemas: { input: z.object({ topic: z.string() }), output: z.string() },
          prompt: ({ input }) => `Write about ${input.topic}.`,
          system: ({ input }) => `Topic length ${input.topic.length}.`,
        },
        typo: {
          model: "writer",
          schemas: { input: z.object({ topic: z.string() }) },
          // @ts-expect-error `topci` is not in the request's input schema
          prompt: ({ input }) => `Write about ${input.topci}.`,
        },
        counted: {
          model: "judge",
          schemas: { input: z.object({ n: z.number() }), output: z.object({ score: z.number() }) },
          // @ts-expect-error `m` is not in the request's input schema
          messages: ({ input }) => [{ role: "user", content: `Score ${input.m}` }],
        },
        plain: { model: "writer", prompt: "Say hi." },
      },
    });
    const machine = agent.createMachine({
      context: { topic: "cards", draft: "" },
      initial: "drafting",
      states: {
        drafting: {
          invoke: {
            src: "draftEmail",
            input: ({ context }) => ({ topic: context.topic }),
            onDone: ({ output }) => ({ target: "deciding", context: { draft: output.result } }),
          },
        },
        deciding: { invoke: { src: "agent.decide", input: { model: "judge" } }, on: { APPROVE: () => ({ target: "done" }) } },
        done: { type: "final" },
      },
    });
    // @ts-expect-error the invoke input of draftEmail is { topic: string }
    assert.throws(() => agent.request("draftEmail", { topci: "x" }), /does not match its input schema/);
    assert.equal(agent.request("draftEmail", { topic: "cards" }).prompt, "Write about cards.");
    assert.ok(machine);
  });
});
