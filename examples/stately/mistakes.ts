// Deliberate mistakes, so `agent-lens check examples` has something to show. Each planted line carries
// an `expect:` comment naming the code it must produce (the CLI test reads them).
import { z } from "zod";
import { setupAgent, createTextLogic } from "@statelyai/agent";

const agent = setupAgent({
  context: z.object({ notes: z.string() }),
  requests: {
    summarize: {
      model: "writer",
      schemas: { input: z.object({ notes: z.string() }), output: z.string() },
      prompt: ({ input }) => `Summarize:\n${input.notes}`,
    },
  },
});

// A typo in a target: "reveiw" is not a state (the quick fix offers "review").
export const typoMachine = agent.createMachine({
  context: { notes: "" },
  initial: "summarizing",
  states: {
    summarizing: {
      invoke: {
        src: "summarize",
        input: ({ context }) => ({ notes: context.notes }),
        onDone: ({ output }) => ({ target: "reveiw", context: { notes: output.result } }), // expect: unknown-target
      },
    },
    review: { type: "final" },
  },
});

// A state nothing leads to.
export const orphanMachine = agent.createMachine({
  context: { notes: "" },
  initial: "summarizing",
  states: {
    summarizing: {
      invoke: { src: "summarize", input: ({ context }) => ({ notes: context.notes }), onDone: () => ({ target: "done" }) },
    },
    archived: { type: "final" }, // expect: unreachable-state
    done: { type: "final" },
  },
});

// An inline request without a name: it runs under its invoke id ("0.(machine).titling"), a hint says so.
// mistakes.test.ts scripts this machine by its model key, which then answers both requests in call order.
export const inlineMachine = agent.createMachine({
  context: { notes: "" },
  initial: "summarizing",
  states: {
    summarizing: {
      invoke: { src: "summarize", input: ({ context }) => ({ notes: context.notes }), onDone: { target: "titling" } },
    },
    titling: {
      invoke: {
        src: createTextLogic({ model: "writer", prompt: "Suggest a title." }), // expect-hint: unnamed-request
        onDone: { target: "done" },
      },
    },
    done: { type: "final" },
  },
});
