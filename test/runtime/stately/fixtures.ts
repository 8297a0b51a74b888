// Machines the runtime tests share: the seed's two-request machine, and small machines for decisions,
// errors, unnamed requests and idle pauses.
import { z } from "zod";
import { createTextLogic, setupAgent } from "../../../runtime/src/stately/index";
import { machine as seedDocumentMachine } from "../../conformance/programs/stately-machine";

/** The seed's machine, exactly as the conformance program writes it (one copy in the repository). */
export function seedMachine() {
  return seedDocumentMachine;
}

/** Drafts, then a decision (inline agent.decide) approves or asks for a rewrite; errors go to `failed`. */
export function reviewMachine() {
  const agent = setupAgent({
    context: z.object({ draft: z.string(), rounds: z.number(), reason: z.string() }),
    events: { APPROVE: z.object({ note: z.string().optional() }), REWRITE: z.object({}) },
    requests: {
      draft: { model: "writer", prompt: "Write a draft." },
    },
  });
  return agent.createMachine({
    context: { draft: "", rounds: 0, reason: "" },
    initial: "drafting",
    states: {
      drafting: {
        invoke: {
          src: "draft",
          onDone: ({ output, context }) => ({ target: "reviewing", context: { draft: output.result, rounds: context.rounds + 1 } }),
          onError: ({ event }) => ({ target: "failed", context: { reason: String((event.error as Error)?.message ?? event.error) } }),
        },
      },
      reviewing: {
        invoke: { src: agent.decide, input: { name: "review", model: "judge", prompt: "Approve or rewrite?" } },
        on: {
          APPROVE: { target: "approved" },
          REWRITE: { target: "drafting" },
        },
      },
      approved: { type: "final" },
      failed: { type: "final" },
    },
  });
}

/** Two unnamed inline text requests on different models (route by model key / invoke id). */
export function unnamedMachine() {
  const agent = setupAgent({ context: z.object({ a: z.string(), b: z.string() }), requests: {} });
  return agent.createMachine({
    context: { a: "", b: "" },
    initial: "first",
    states: {
      first: {
        invoke: { src: createTextLogic({ model: "fast", prompt: "one" }), onDone: ({ output }) => ({ target: "second", context: { a: output.result } }) },
      },
      second: {
        invoke: { src: createTextLogic({ model: "slow", prompt: "two" }), onDone: ({ output }) => ({ target: "end", context: { b: output.result } }) },
      },
      end: { type: "final", output: ({ context }) => context },
    },
  });
}

/** A request whose declared output is itself `{ result }` (the double wrap). */
export function wrappedOutputMachine() {
  const agent = setupAgent({
    context: z.object({ text: z.string() }),
    requests: { answer: { model: "m", schemas: { output: z.object({ result: z.string() }) }, prompt: "answer" } },
  });
  return agent.createMachine({
    context: { text: "" },
    initial: "asking",
    states: {
      asking: { invoke: { src: "answer", onDone: ({ output }) => ({ target: "done", context: { text: output.result.result } }) } },
      done: { type: "final", output: ({ context }) => context },
    },
  });
}

/** A chat loop: answers, then waits for USER; a second answer, then finishes on BYE. */
export function chatMachine() {
  const agent = setupAgent({
    context: z.object({ replies: z.array(z.string()) }),
    events: { USER: z.object({ text: z.string() }), BYE: z.object({}) },
    requests: { reply: { model: "chat", prompt: "reply" } },
  });
  return agent.createMachine({
    context: { replies: [] as string[] },
    initial: "replying",
    states: {
      replying: { invoke: { src: "reply", onDone: ({ output, context }) => ({ target: "waiting", context: { replies: [...context.replies, output.result] } }) } },
      waiting: { on: { USER: { target: "replying" }, BYE: { target: "bye" } } },
      bye: { type: "final", output: ({ context }) => context },
    },
  });
}
