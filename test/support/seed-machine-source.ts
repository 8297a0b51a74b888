// The seed's two-request machine (drafts an email, then scores it) as eval-file source text, for suites and
// benches that write eval files into scratch projects: `draftPrompt` is the draft request's prompt template
// (source text inside a template literal: `${input.topic}` reads the request's input). Declares `agent` and
// `machine`; the file imports z, setupAgent and runAgent itself.
export function seedMachineSource(draftPrompt: string): string {
  return `const agent = setupAgent({
  input: z.object({ topic: z.string() }),
  context: z.object({ topic: z.string(), draft: z.string(), score: z.number().nullable() }),
  output: z.object({ draft: z.string(), score: z.number().nullable() }),
  requests: {
    draftEmail: { model: "writer", schemas: { input: z.object({ topic: z.string() }), output: z.string() }, prompt: ({ input }) => \`${draftPrompt}\` },
    scoreDraft: { model: "judge", schemas: { input: z.object({ draft: z.string() }), output: z.object({ score: z.number() }) }, prompt: ({ input }) => \`Score this email from 1 to 5:\\n\${input.draft}\` },
  },
});
const machine = agent.createMachine({
  context: ({ input }) => ({ topic: input.topic, draft: "", score: null }),
  initial: "drafting",
  states: {
    drafting: { invoke: { src: "draftEmail", input: ({ context }) => ({ topic: context.topic }), onDone: ({ output }) => ({ target: "scoring", context: { draft: output.result } }) } },
    scoring: { invoke: { src: "scoreDraft", input: ({ context }) => ({ draft: context.draft }), onDone: ({ output }) => ({ target: "done", context: { score: output.result.score } }) } },
    done: { type: "final", output: ({ context }) => ({ draft: context.draft, score: context.score }) },
  },
});
`;
}
