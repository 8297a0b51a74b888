// A support-triage agent: a decision routes the ticket (answer it or escalate it), then a text request
// drafts the answer.
import { z } from "zod";
import { setupAgent } from "@statelyai/agent";

export const agent = setupAgent({
  input: z.object({ ticket: z.string() }),
  context: z.object({ ticket: z.string(), reply: z.string().nullable() }),
  output: z.object({ route: z.string(), reply: z.string().nullable() }),
  requests: {
    draftReply: {
      model: "writer",
      schemas: { input: z.object({ ticket: z.string() }), output: z.string() },
      prompt: ({ input }) => `Answer this support ticket in two sentences:\n${input.ticket}`,
    },
  },
});

export const machine = agent.createMachine({
  context: ({ input }) => ({ ticket: input.ticket, reply: null }),
  initial: "triage",
  states: {
    triage: {
      invoke: {
        src: agent.decide,
        input: ({ context }) => ({
          name: "triage",
          model: "router",
          prompt: `Can this ticket be answered from the docs (ANSWER), or does it need a person (ESCALATE)?\n${context.ticket}`,
        }),
      },
      on: {
        ANSWER: () => ({ target: "answering" }),
        ESCALATE: () => ({ target: "escalated" }),
      },
    },
    answering: {
      invoke: {
        src: "draftReply",
        input: ({ context }) => ({ ticket: context.ticket }),
        onDone: ({ output }) => ({ target: "answered", context: { reply: output.result } }),
      },
    },
    answered: {
      type: "final",
      output: ({ context }) => ({ route: "answer", reply: context.reply }),
    },
    escalated: {
      type: "final",
      output: () => ({ route: "escalate", reply: null }),
    },
  },
});
