// A one-request agent (summarize notes) and a machine of it whose only transition names no state (a typo,
// "reveiw"), for the suites about what a run and an exploration say of such a machine.
import { z } from "zod";
import { setupAgent } from "../../../runtime/src/stately";

export const notesAgent = setupAgent({
  context: z.object({ notes: z.string() }),
  requests: { summarize: { model: "writer", schemas: { input: z.object({ notes: z.string() }), output: z.string() }, prompt: ({ input }) => input.notes } },
});

export function typoMachine() {
  return notesAgent.createMachine({
    context: { notes: "" },
    initial: "summarizing",
    states: {
      summarizing: { invoke: { src: "summarize", input: ({ context }) => ({ notes: context.notes }), onDone: () => ({ target: "reveiw" as "review" }) } },
      review: { type: "final" },
    },
  });
}
