// Names written as plain strings in evals: an executor's `case` labels and `request.name` comparisons,
// expected call lists, createScriptedExecutors / simulateAgent keys — tied to the machine's requests when
// the analysis can prove it, offered as uncertain places (rename asks) when it cannot, and nothing at all
// for code that has nothing to do with request names. Rename and hover read them.
import assert from "node:assert/strict";
import type { AgentReference, AnalysisWorkspace, FileAnalysis } from "../../server/src/analysis/api";
import { hoverAt, renameEdits } from "../../server/src/analysis/features/index";
import { ROOT, workspaceOf } from "./helpers";

const AGENT = `import { setupAgent } from "@statelyai/agent";
const agent = setupAgent({ requests: { draftEmail: { model: "writer", prompt: "p" }, scoreDraft: { model: "judge", prompt: "q" } } });
export const machine = agent.createMachine({ initial: "drafting", states: {
  drafting: { invoke: { src: "draftEmail", onDone: "scoring" } },
  scoring: { invoke: { src: "scoreDraft", onDone: "done" } },
  done: { type: "final" } } });
`;
/** A second machine that also has a `draftEmail` request. */
const OTHER = `import { setupAgent } from "@statelyai/agent";
const agent = setupAgent({ requests: { draftEmail: { model: "writer", prompt: "p" }, summarize: { model: "writer", prompt: "s" } } });
export const other = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draftEmail", onDone: "b" } }, b: { invoke: { src: "summarize", onDone: "c" } }, c: { type: "final" } } });
`;
const IMPORTS = `import assert from "node:assert/strict";\nimport { runAgent } from "@statelyai/agent";\nimport { runSeam, createScriptedExecutors, simulateAgent } from "@statelyai/agent/testing";\nimport { machine } from "./agent";\n`;
const AGENT_FILE = `${ROOT}/agent.ts`;
const DRAFT = `${AGENT_FILE}#request:agent.draftEmail`;

function analyze(evalBody: string, extra: Record<string, string> = {}): { ws: AnalysisWorkspace; a: FileAnalysis; text: string } {
  const text = IMPORTS + evalBody;
  const ws = workspaceOf({ "agent.ts": AGENT, "agent.test.ts": text, ...extra });
  ws.analyze(AGENT_FILE);
  return { ws, a: ws.analyze(`${ROOT}/agent.test.ts`), text };
}

/** `line-text: "name" -> target` for every name-use / script-key reference of the file. */
function named(a: FileAnalysis, text: string, roles: Array<AgentReference["role"]> = ["name-use"]): string[] {
  return a.references
    .filter((r) => roles.includes(r.role) && r.file === a.file)
    .map((r) => {
      const line = text.split("\n")[r.range.startLine]!.trim();
      const tie = r.targetId ? r.targetId.replace(/^.*#/, "") : r.uncertain ? `uncertain(${r.uncertain.ids.map((id) => id.replace(/^.*#/, "")).join(",")})` : "nothing";
      return `${line.slice(0, 40)} | ${r.text} -> ${tie}`;
    });
}

describe("name uses: request names in executors and expected call lists", () => {
  it("ties case labels and the calls array of plain executors (request.name) to the machine's requests", () => {
    const { a, text } = analyze(`const calls: string[] = [];
await runAgent(machine, { input: {}, executors: {
  generateText: async (request) => {
    calls.push(request.name ?? "");
    switch (request.name) {
      case "draftEmail": return { result: "x" };
      case "scoreDraft": return { result: { score: 4 } };
      case "draftEmial": return { result: "typo" };
      default: throw new Error("no");
    }
  },
} });
assert.deepEqual(calls, ["draftEmail", "scoreDraft"]);
`);
    assert.deepEqual(named(a, text), [
      'case "draftEmail": return { result: "x"  | draftEmail -> request:agent.draftEmail',
      'case "scoreDraft": return { result: { sc | scoreDraft -> request:agent.scoreDraft',
      'case "draftEmial": return { result: "typ | draftEmial -> nothing',
      'assert.deepEqual(calls, ["draftEmail", " | draftEmail -> request:agent.draftEmail',
      'assert.deepEqual(calls, ["draftEmail", " | scoreDraft -> request:agent.scoreDraft',
    ]);
    const label = a.references.find((r) => r.text === "draftEmial")!;
    assert.deepEqual(label.candidates?.map((c) => c.insertText), ["draftEmail", "scoreDraft"]);
    assert.deepEqual(a.findings, [], "no finding: a dead case label is not an error the runtime would report");
  });

  it("reads destructured names, comparisons, executors behind consts, function declarations and a factory", () => {
    const { a, text } = analyze(`async function decideIt({ name }: { name?: string }) { if (name === "scoreDraft") return { event: { type: "X" } }; throw new Error(); }
const executors = { generateText: async (req: { name?: string }) => (req.name !== "draftEmail" ? { result: 1 } : { result: "d" }), decide: decideIt };
await runAgent(machine, { input: {}, executors });
function makeExecutors() { return { generateText: async ({ name: n }: { name?: string }) => { switch (n) { case "scoreDraft": return { result: 2 }; } return { result: 0 }; } }; }
await runAgent(machine, { input: {}, executors: makeExecutors() });
`);
    assert.deepEqual(named(a, text).map((l) => l.split(" | ")[1]), ["scoreDraft -> request:agent.scoreDraft", "draftEmail -> request:agent.draftEmail", "scoreDraft -> request:agent.scoreDraft"]);
  });

  it("ties run.calls / scripted.calls mapped to names, createScriptedExecutors keys and simulateAgent script keys", () => {
    const { a, text } = analyze(`const run = await runSeam(machine, { scripts: { draftEmail: ["d"], scoreDraft: [{ score: 4 }] }, seam: { request: "scoreDraft" } });
assert.deepEqual(run.calls.map((c) => c.name), ["draftEmail", "scoreDraft"]);
const scripted = createScriptedExecutors({ text: { draftEmail: ["d"], "*": ["any"] }, decisions: { scoreDraft: "GO" } });
await runAgent(machine, { input: {}, executors: scripted });
assert.deepEqual(scripted.calls.map(({ name }) => name), ["draftEmail"]);
const sim = await simulateAgent(machine, { input: {}, script: { text: { draftEmail: ["d"], scoreDraft: ["s"] } } });
`);
    assert.deepEqual(named(a, text).map((l) => l.split(" | ")[1]), ["draftEmail -> request:agent.draftEmail", "scoreDraft -> request:agent.scoreDraft", "draftEmail -> request:agent.draftEmail"]);
    const keys = a.references.filter((r) => r.role === "script-key").map((r) => `${r.text} -> ${r.targetId?.replace(/^.*#/, "")}`);
    // runSeam's scripts (2), createScriptedExecutors' text and decisions ("*" names nothing), simulateAgent's script
    assert.deepEqual(keys, ["draftEmail -> request:agent.draftEmail", "scoreDraft -> request:agent.scoreDraft", "draftEmail -> request:agent.draftEmail", "scoreDraft -> request:agent.scoreDraft", "draftEmail -> request:agent.draftEmail", "scoreDraft -> request:agent.scoreDraft"]);
    assert.deepEqual(a.findings, []);
  });

  it("an executor shared by two machines: certain where one machine has the name, uncertain where both do", () => {
    const { a, text } = analyze(
      `import { other } from "./other";
const generateText = async (request: { name?: string }) => { switch (request.name) { case "draftEmail": return { result: 1 }; case "scoreDraft": return { result: 2 }; } return { result: 0 }; };
await runAgent(machine, { input: {}, executors: { generateText } });
await runAgent(other, { input: {}, executors: { generateText } });
`,
      { "other.ts": OTHER },
    );
    assert.deepEqual(named(a, text).map((l) => l.split(" | ")[1]), [`draftEmail -> uncertain(request:agent.draftEmail,request:agent.draftEmail)`, "scoreDraft -> request:agent.scoreDraft"]);
    const shared = a.references.find((r) => r.text === "draftEmail" && r.uncertain)!;
    assert.deepEqual(new Set(shared.uncertain!.ids), new Set([DRAFT, `${ROOT}/other.ts#request:agent.draftEmail`]));
  });

  it("request-name code no eval call reaches is uncertain; code that is not about request names is nothing", () => {
    const { a, text } = analyze(`export function answer(request: { name?: string }) { switch (request.name) { case "draftEmail": return 1; } return 0; }
const tools = [{ name: "search" }];
switch (tools[0]!.kind) { case "draftEmail": break; }
const list = ["a"];
assert.deepEqual(list, ["draftEmail"]);
assert.deepEqual(tools.map((t) => t.kind), ["draftEmail"]);
`);
    assert.deepEqual(named(a, text).map((l) => l.split(" | ")[1]), ["draftEmail -> uncertain()"]);
  });
});

describe("name uses: rename and hover", () => {
  const EVAL = `const calls: string[] = [];
await runAgent(machine, { input: {}, executors: { generateText: async (request) => { calls.push(request.name ?? ""); switch (request.name) { case "draftEmail": return { result: "x" }; case "draftEmial": return { result: "y" }; } return { result: 0 }; } } });
assert.deepEqual(calls, ["draftEmail"]);
export function helper(request: { name?: string }) { return request.name === "draftEmail"; }
`;

  it("renames the request's case label and calls item for sure, and offers the untied comparison for confirmation", () => {
    const PROBE = `import { runAgent } from "@statelyai/agent";\nimport { machine } from "./index";\nexport const f = (request: { name?: string }) => request.name === "draftEmail";\nexport { machine, runAgent };\n`;
    const { ws, text } = analyze(EVAL, {
      "unrelated.test.ts": `import { runAgent } from "@statelyai/agent";\nexport const f = (request: { name?: string }) => request.name === "draftEmail";\n`,
      // sees the machine's file through a re-export, though its analysis never reads it
      "index.ts": `export * from "./agent";\n`,
      "probe.test.ts": PROBE,
    });
    ws.analyze(`${ROOT}/unrelated.test.ts`);
    ws.analyze(`${ROOT}/probe.test.ts`);
    const agent = ws.analyze(AGENT_FILE);
    const decl = agent.symbols.find((s) => s.id === DRAFT)!;
    const texts: Record<string, string> = { [AGENT_FILE]: AGENT, [`${ROOT}/agent.test.ts`]: text, [`${ROOT}/probe.test.ts`]: PROBE };
    const result = renameEdits(ws, agent, decl.nameRange.start, "composeEmail", (f) => texts[f]);
    assert.ok(result && !result.error);
    const shown = result.edits.map((e) => `${e.file.replace(`${ROOT}/`, "")}:${e.range.startLine + 1}:${e.certain ? "sure" : "ask"}`).sort();
    const line = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    assert.deepEqual(shown, [
      `agent.test.ts:${line("case \"draftEmail\"")}:sure`,
      `agent.test.ts:${line("assert.deepEqual(calls")}:sure`,
      `agent.test.ts:${line("export function helper")}:ask`,
      "agent.ts:2:sure",
      "agent.ts:4:sure",
      "probe.test.ts:3:ask",
    ].sort(), "unrelated.test.ts does not import the machine: its comparison is not offered");
    const ask = result.edits.find((e) => !e.certain)!;
    assert.match(ask.reason!, /cannot tie to one machine/);
    for (const e of result.edits) assert.equal(texts[e.file]!.slice(e.range.start, e.range.end), "draftEmail");
  });

  it("hover on a tied label goes to the request; on a typo it lists the valid names; on an uncertain place it says why", () => {
    const { ws, a, text } = analyze(EVAL);
    const at = (needle: string) => text.indexOf(needle) + 2;
    assert.match(hoverAt(ws, a, at('"draftEmail": return'))!.markdown, /\(request\) draftEmail/);
    const typo = hoverAt(ws, a, at('"draftEmial"'))!.markdown;
    assert.match(typo, /names no request/);
    assert.match(typo, /Valid request names here: `draftEmail`, `scoreDraft`/);
    assert.match(hoverAt(ws, a, at('"draftEmail"; }'))!.markdown, /may name a request called `draftEmail`, but is not tied to it for sure/);
  });
});

describe("name uses: flow and step ids in falai evals", () => {
  const FLOWS = `import { falai } from "@falai/agent";
const f = falai().fields({ nome: { type: "string" } });
export const retomar = f.flow({ id: "retomar", on: [{ silence: "24h" }], steps: [{ id: "p1", prompt: "Retome." }, { id: "w1", wait: "2d" }] });
export const agent = f.agent({ name: "Ana", provider: {} as never, flows: [retomar] });
`;
  const TEST = `import assert from "node:assert/strict";
import { agent } from "./flows";
const r = await agent.turn({ sessionId: "s", message: "oi" });
assert.deepEqual(r.started.map((s) => s.flowId), ["retomar"]);
assert.deepEqual(r.outcomes.find((o) => o.stepId === "w1"), { flowId: "retomar", stepId: "w1" });
`;

  it("offers flowId / stepId strings of eval files that see the flow when the flow or step is renamed", () => {
    const ws = workspaceOf({ "flows.ts": FLOWS, "flows.test.ts": TEST });
    const flows = ws.analyze(`${ROOT}/flows.ts`);
    const test = ws.analyze(`${ROOT}/flows.test.ts`);
    assert.deepEqual(test.references.filter((r) => r.role === "name-use").map((r) => `${r.kind}:${r.text}`), ["flow:retomar", "step:w1", "flow:retomar", "step:w1"]);
    assert.ok(test.references.filter((r) => r.role === "name-use").every((r) => r.uncertain && !r.targetId));
    const texts: Record<string, string> = { [`${ROOT}/flows.ts`]: FLOWS, [`${ROOT}/flows.test.ts`]: TEST };
    const flow = flows.symbols.find((s) => s.kind === "flow" && s.name === "retomar")!;
    const renamed = renameEdits(ws, flows, flow.nameRange.start, "resume", (f) => texts[f])!;
    assert.deepEqual(renamed.edits.filter((e) => !e.certain).map((e) => `${e.range.startLine + 1}`), ["4", "5"]);
    const step = flows.symbols.find((s) => s.kind === "step" && s.name === "w1")!;
    const steps = renameEdits(ws, flows, step.nameRange.start, "wait1", (f) => texts[f])!;
    assert.deepEqual(steps.edits.filter((e) => !e.certain).map((e) => `${e.range.startLine + 1}`), ["5", "5"]);
    assert.deepEqual(test.findings, []);
  });
});
