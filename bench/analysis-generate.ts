// Generated inputs for the analysis benchmark: an @statelyai/agent machine file and an @falai/agent flow
// file of about N lines each, written the way the seed documents write them, and the seeded random numbers
// the benchmarks and the randomized tests draw from.

/** A deterministic PRNG (mulberry32): the same seed gives the same sequence, so runs are comparable. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A setupAgent config and one agent.createMachine with ~N lines: groups of a compound state with an
 *  invoke (v6 function onDone with a ternary), a review state with events and a delay, a final state. */
export function machineFile(lines: number): string {
  const groups = Math.max(1, Math.round((lines - 12) / 24));
  const out: string[] = [
    "/* eslint-plugin-xstate-include */",
    'import { z } from "zod";',
    'import { setupAgent } from "@statelyai/agent";',
    "",
    "const agent = setupAgent({",
    "  requests: {",
  ];
  for (let i = 0; i < groups; i++) {
    out.push(`    request${i}: { model: "${i % 2 ? "judge" : "writer"}", schemas: { input: z.object({ text: z.string() }), output: z.string() }, prompt: ({ input }) => \`Step ${i}: \${input.text}\` },`);
  }
  out.push("  },", "});", "", "export const machine = agent.createMachine({", '  id: "big",', '  initial: "group0",', "  states: {");
  for (let i = 0; i < groups; i++) {
    const next = i + 1 < groups ? `group${i + 1}` : "finished";
    out.push(
      `    group${i}: {`,
      '      initial: "working",',
      "      states: {",
      "        working: {",
      "          invoke: {",
      `            src: "request${i}",`,
      "            input: ({ context }) => ({ text: context.text }),",
      `            onDone: ({ output }) => (output.result ? { target: "review", context: { text: output.result } } : { target: "#big.${next}" }),`,
      '            onError: "failed",',
      "          },",
      "        },",
      "        review: {",
      `          on: { APPROVE: "#big.${next}", REJECT: "working" },`,
      '          after: { 60000: "failed" },',
      "        },",
      "        failed: {",
      '          type: "final",',
      "        },",
      "      },",
      `      onDone: "${next}",`,
      "    },",
      "",
      "",
      "",
    );
  }
  out.push('    finished: { type: "final" },', "  },", "});", "");
  return out.join("\n");
}

/** The import and a `fields({...})` with one string field per flow (`campo<i>`). */
function fieldsPreamble(flows: number): string[] {
  const out: string[] = ['import { falai } from "@falai/agent";', "", "const f = falai().fields({"];
  for (let i = 0; i < flows; i++) out.push(`  campo${i}: { type: "string", ask: "Pergunte o campo ${i}." },`);
  out.push("});", "");
  return out;
}

/** The first lines of flow `fluxo<i>`, up to its `steps: [`. */
function flowHead(i: number, on: string): string[] {
  return [`export const fluxo${i} = f.flow({`, `  id: "fluxo${i}",`, `  name: "Fluxo ${i}",`, `  on: ${on},`, "  steps: ["];
}

/** falai().fields with a flow per ~24 lines: message/silence triggers, collect, wait + else, prompts. */
export function flowFile(lines: number): string {
  const flows = Math.max(1, Math.round((lines - 12) / 24));
  const out = fieldsPreamble(flows);
  for (let i = 0; i < flows; i++) {
    out.push(
      ...flowHead(i, i === 0 ? "[{ message: [] }]" : `[{ message: ["quer falar do assunto ${i}"] }, { silence: "${(i % 23) + 1}h" }]`),
      "    {",
      `      id: "pergunta",`,
      `      prompt: "Descubra o que a pessoa precisa sobre o assunto ${i}.",`,
      `      collect: ["campo${i}"],`,
      "    },",
      "    {",
      `      id: "espera",`,
      '      wait: "2d",',
      '      else: "resposta",',
      "    },",
      "    {",
      `      id: "resposta",`,
      `      prompt: "Responda sobre o assunto ${i} e agradeça.",`,
      "    },",
      "  ],",
      "});",
      "",
      "",
      "",
    );
  }
  out.push(`export const agente = f.agent({ name: "Ana", flows: [${Array.from({ length: flows }, (_, i) => `fluxo${i}`).join(", ")}] });`, "");
  return out.join("\n");
}

/** The same size of flow file using more of @falai/agent v4 (`flow-v4` in the benchmark): message / silence / event triggers
 *  with an `if` naming a condition, collect with a branch, a timed wait with `else`, a do step with
 *  `onFail`, an if step jumping back with `clear`, a say step, and an agent registering the actions,
 *  events and conditions the flows name. */
export function flowFileV4(lines: number): string {
  const flows = Math.max(1, Math.round((lines - 16) / 24));
  const out = fieldsPreamble(flows);
  for (let i = 0; i < flows; i++) {
    out.push(
      ...flowHead(i, i === 0 ? "[{ message: [] }]" : `[{ message: ["quer falar do assunto ${i}"], if: { ativo: true } }, { silence: "${(i % 23) + 1}h" }, { event: "etapa", after: "1h" }]`),
      `    { id: "pergunta", prompt: "Descubra o que a pessoa precisa sobre o assunto ${i}.", collect: ["campo${i}"], branches: [{ when: "quer um humano", then: { flow: "fluxo0" } }] },`,
      `    { id: "espera", wait: "2d", else: "resposta" },`,
      `    { id: "registra", do: "registrar", with: { texto: "{{data.campo${i}}}" }, onFail: "resposta" },`,
      `    { id: "confere", if: { known: ["campo${i}"] }, else: { step: "pergunta", clear: ["campo${i}"] } },`,
      `    { id: "resposta", prompt: "Responda sobre o assunto ${i} e agradeça." },`,
      `    { id: "tchau", say: "Obrigada!", then: "end" },`,
      "  ],",
      "});",
      ...Array<string>(10).fill(""),
    );
  }
  out.push(
    "export const agente = f.agent({",
    '  name: "Ana",',
    `  flows: [${Array.from({ length: flows }, (_, i) => `fluxo${i}`).join(", ")}],`,
    '  actions: { registrar: f.action({ parameters: { texto: { type: "string" } }, run: () => ({ ok: true }) }) },',
    "  events: { etapa: f.event() },",
    "  conditions: { ativo: f.condition(() => true) },",
    "});",
    "",
  );
  return out.join("\n");
}

/** A flat machine of `states` states (`s0` … `sN`, ~140 characters each, as a machine written by hand
 *  or generated from a spec), each with three transitions and a delay; with `unknown`, one more target
 *  in every state names no state — in turn a letter typed too many (`s12x`: one edit from `s12`), a
 *  name in the wrong case (`S12`) and a name near none (`lost12`: the guess must look at every
 *  candidate to be sure there is none), the three kinds a rename or a paste leaves behind. */
export function scalingMachine(states: number, unknown: boolean): string {
  const out = ['import { setupAgent } from "@statelyai/agent";', "", 'const agent = setupAgent({ requests: { ask: { model: "writer", prompt: () => "Ask." } } });', "", "export const machine = agent.createMachine({", '  initial: "s0",', "  states: {"];
  for (let i = 0; i < states; i++) {
    const next = i + 1 < states ? `s${i + 1}` : "done";
    const typo = !unknown ? "" : i % 3 === 0 ? `, RETRY: "s${i}x"` : i % 3 === 1 ? `, RETRY: "S${i}"` : `, RETRY: "lost${i}"`;
    out.push(`    s${i}: {`, `      on: { NEXT: "${next}", BACK: { target: "s${i ? i - 1 : 0}" }${typo} },`, `      after: { 60000: "done" },`, "    },");
  }
  out.push('    done: { type: "final" },', "  },", "});", "");
  return out.join("\n");
}

/** A small agent file of a generated workspace: a stately agent and machine (even i) or a falai flow file (odd i). */
export function agentWorkspaceFile(i: number): string {
  if (i % 2 === 0) {
    return [
      'import { setupAgent } from "@statelyai/agent";',
      "",
      `export const agent${i} = setupAgent({`,
      "  requests: {",
      `    ask${i}: { model: "writer", prompt: () => "Ask ${i}" },`,
      `    check${i}: { model: "judge", prompt: () => "Check ${i}" },`,
      "  },",
      "});",
      "",
      `export const machine${i} = agent${i}.createMachine({`,
      '  initial: "asking",',
      "  states: {",
      `    asking: { invoke: { src: "ask${i}", onDone: { target: "checking" }, onError: { target: "failed" } } },`,
      `    checking: { invoke: { src: "check${i}", onDone: { target: "done" }, onError: { target: "asking" } } },`,
      '    failed: { type: "final" },',
      '    done: { type: "final" },',
      "  },",
      "});",
      "",
    ].join("\n");
  }
  return [
    'import { falai } from "@falai/agent";',
    "",
    "const f = falai().fields({",
    '  nome: { type: "string", ask: "Pergunte o nome." },',
    '  empresa: { type: "string", ask: "Pergunte a empresa." },',
    "});",
    "",
    `export const flow${i} = f.flow({`,
    `  id: "flow${i}",`,
    '  on: [{ message: ["quer saber como funciona"] }],',
    "  steps: [",
    '    { id: "quem", prompt: "Descubra quem é.", collect: ["nome", "empresa"] },',
    '    { id: "w1", wait: "2d", else: "end" },',
    '    { id: "tchau", prompt: "Agradeça." },',
    "  ],",
    "});",
    "",
    `export const retomar${i} = f.flow({ id: "retomar${i}", on: [{ silence: "24h" }], steps: [{ id: "p1", prompt: "Retome." }] });`,
    "",
  ].join("\n");
}

/** A machine file of about `lines` lines: 20 requests and enough states, each with targets to edit. */
export function lspMachineFile(lines: number): { text: string; states: number } {
  const requests = 20;
  const head: string[] = ['import { z } from "zod";', 'import { setupAgent } from "@statelyai/agent";', "", "export const agent = setupAgent({", "  requests: {"];
  for (let r = 0; r < requests; r++) {
    head.push(`    req${r}: {`, `      model: "model${r % 4}",`, "      schemas: { input: z.object({ topic: z.string() }), output: z.string() },", `      prompt: ({ input }) => \`Step ${r} about \${input.topic}.\`,`, "    },");
  }
  head.push("  },", "});", "", "export const machine = agent.createMachine({", '  initial: "s0",', "  states: {");
  const perState = 12;
  const states = Math.max(2, Math.floor((lines - head.length - 4) / perState));
  const body: string[] = [];
  for (let i = 0; i < states; i++) {
    const next = i + 1 < states ? `s${i + 1}` : "done";
    body.push(
      `    s${i}: {`,
      "      invoke: {",
      `        src: "req${i % requests}",`,
      "        input: ({ context }) => ({ topic: context.topic }),",
      `        onDone: ({ output }) => ({ target: "${next}", context: { last: output.result } }),`,
      '        onError: { target: "failed" },',
      "      },",
      "      on: {",
      `        NEXT: { target: "${next}" },`,
      `        BACK: { target: "s${Math.max(0, i - 1)}" },`,
      "      },",
      "    },",
    );
  }
  body.push('    failed: { type: "final" },', '    done: { type: "final" },', "  },", "});", "");
  return { text: [...head, ...body].join("\n"), states };
}
