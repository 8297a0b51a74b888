// What the language features are built on: symbols (ids, ranges, hover summaries), references with
// completion candidates, lenses, machine graphs and static tests.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createWorkspace } from "../../server/src/analysis";
import type { FileAnalysis } from "../../server/src/analysis/api";
import { AGENT_IMPORTS, analyzeAgent } from "./helpers";

const REPO = path.resolve(__dirname, "../..");
const EMAIL = path.join(REPO, "examples/stately/email-agent.ts");
const ws = createWorkspace({ roots: [REPO] });
const text = (file: string) => fs.readFileSync(file, "utf8");
const slice = (file: string, r: { start: number; end: number }) => text(file).slice(r.start, r.end);

describe("symbols", () => {
  const a = ws.analyze(EMAIL);
  it("agent, requests, models, machine and states with exact name ranges", () => {
    assert.deepEqual(a.symbols.map((s) => [s.kind, s.name, slice(EMAIL, s.nameRange)]), [
      ["agent", "agent", "agent"],
      ["request", "draftEmail", "draftEmail"],
      ["request", "scoreDraft", "scoreDraft"],
      ["model", "writer", "writer"],
      ["model", "judge", "judge"],
      ["machine", "machine", "machine"],
      ["state", "drafting", "drafting"],
      ["state", "scoring", "scoring"],
      ["state", "done", "done"],
    ]);
    const machine = a.symbols.find((s) => s.kind === "machine")!;
    assert.equal(machine.exportName, "machine");
    assert.equal(machine.id, `${EMAIL}#machine:machine`);
    const scoring = a.symbols.find((s) => s.name === "scoring")!;
    assert.equal(scoring.id, `${EMAIL}#state:machine.scoring`);
    assert.equal(scoring.parentId, machine.id);
    assert.ok(slice(EMAIL, scoring.range).startsWith("scoring: {"));
    assert.equal(a.symbols.find((s) => s.name === "draftEmail")!.parentId, `${EMAIL}#agent:agent`);
  });
  it("hover summaries: a state's transitions and reachability; a request's model, schemas and prompt", () => {
    const scoring = a.symbols.find((s) => s.name === "scoring")!.summary!;
    assert.match(scoring, /Incoming: `drafting` —done→/);
    assert.match(scoring, /Outgoing: done → `done`/);
    assert.match(scoring, /Reachable: yes/);
    assert.match(scoring, /Invokes: `scoreDraft`/);
    const request = a.symbols.find((s) => s.name === "scoreDraft")!.summary!;
    assert.match(request, /model `judge`/);
    assert.match(request, /z\.object\(\{ score: z\.number\(\) \}\)/);
    assert.match(request, /Score this email from 1 to 5/);
    assert.equal(a.symbols.find((s) => s.name === "drafting")!.detail, "atomic · initial");
  });
  it("an unreachable state says so in its hover", () => {
    const b = analyzeAgent(`const agent = setupAgent({ requests: {} });\nexport const m = agent.createMachine({ initial: "a", states: { a: {}, lost: {} } });`);
    assert.match(b.symbols.find((s) => s.name === "lost")!.summary!, /Reachable: \*\*no\*\*/);
  });
});

describe("references and completion candidates", () => {
  it("targets resolve to states; candidates are relative to the source's parent, plus .child and #id forms", () => {
    const body = `const agent = setupAgent({ requests: {} });
export const m = agent.createMachine({ id: "root", initial: "a", states: {
  a: { initial: "x", states: { x: { on: { N: "y" } }, y: { id: "why" } }, on: { IN: ".x" } },
  b: { on: { BACK: "a.y" } } } });`;
    const a = analyzeAgent(body);
    const file = a.file;
    const targets = a.references.filter((r) => r.role === "target");
    assert.deepEqual(targets.map((r) => [r.text, r.targetId]), [
      [".x", `${file}#state:m.a.x`],
      ["y", `${file}#state:m.a.y`],
      ["a.y", `${file}#state:m.a.y`],
    ]);
    const fromX = targets.find((r) => r.text === "y")!.candidates!.map((c) => c.insertText);
    assert.deepEqual(fromX, ["x", "y", "#why"]);
    const fromA = targets.find((r) => r.text === ".x")!.candidates!.map((c) => c.insertText);
    assert.deepEqual(fromA, ["a", "a.x", "a.y", "b", ".x", ".y", "#why"]);
    const initial = a.references.find((r) => r.role === "initial" && r.text === "x")!;
    assert.deepEqual(initial.candidates!.map((c) => c.insertText), ["x", "y"]);
    assert.equal(AGENT_IMPORTS.length > 0 && (AGENT_IMPORTS + body).slice(targets[2]!.range.start, targets[2]!.range.end), "a.y");
  });
  it("src, scripts keys (requests and models), seam and state refs across files", () => {
    const evalFile = path.join(REPO, "examples/stately/mistakes.test.ts");
    const a = ws.analyze(evalFile);
    const keys = a.references.filter((r) => r.role === "script-key");
    const MISTAKES = path.join(REPO, "examples/stately/mistakes.ts");
    assert.deepEqual(keys.map((r) => [r.text, r.kind, r.targetId]), [
      ["writer", "model", `${EMAIL}#model:agent.writer`],
      ["judge", "model", `${EMAIL}#model:agent.judge`],
      ["draftEmial", "request", undefined],
      ["writer", "model", `${MISTAKES}#model:agent.writer`],
    ]);
    assert.deepEqual(keys[0]!.candidates!.map((c) => c.insertText), ["draftEmail", "scoreDraft", "writer", "judge"]);
    const seam = a.references.find((r) => r.role === "seam-request")!;
    assert.deepEqual(seam.candidates!.map((c) => c.insertText), ["draftEmail", "scoreDraft"]);
    const srcs = ws.analyze(EMAIL).references.filter((r) => r.role === "src");
    assert.deepEqual(srcs.map((r) => [r.text, r.targetId]), [["draftEmail", `${EMAIL}#request:agent.draftEmail`], ["scoreDraft", `${EMAIL}#request:agent.scoreDraft`]]);
  });
  it("referencesTo finds every use of a request across analyzed files", () => {
    ws.analyze(path.join(REPO, "examples/stately/email-agent.test.ts"));
    const refs = ws.referencesTo(`${EMAIL}#request:agent.scoreDraft`);
    assert.deepEqual(refs.map((r) => `${path.basename(r.file)}:${r.role}`).sort(), ["email-agent.test.ts:name-use", "email-agent.test.ts:name-use", "email-agent.test.ts:script-key", "email-agent.test.ts:seam-request", "email-agent.ts:src", "mistakes.test.ts:seam-request"]);
    assert.equal(ws.symbol(`${EMAIL}#request:agent.scoreDraft`)?.name, "scoreDraft");
  });
});

describe("lenses", () => {
  it("Run seam on each request and invoke, Explore paths on the machine", () => {
    const a = ws.analyze(EMAIL);
    assert.deepEqual(a.lenses.map((l) => [l.title, l.range.startLine + 1, l.target.request ?? null, l.target.machineExport]), [
      ["Run seam", 11, "draftEmail", "machine"],
      ["Run seam", 16, "scoreDraft", "machine"],
      ["Explore paths", 27, null, "machine"],
      ["Run seam", 33, "draftEmail", "machine"],
      ["Run seam", 40, "scoreDraft", "machine"],
    ]);
    assert.ok(a.lenses.every((l) => l.target.file === EMAIL && l.target.machineId === `${EMAIL}#machine:machine`));
  });
  it("only what can run: one Run seam that asks which machine on a shared request, none on a request no machine invokes, on a decision or on an unnamed request — the hover says why", () => {
    const file = path.join(REPO, "examples/stately/mistakes.ts");
    const a = ws.analyze(file);
    const offered = a.lenses.filter((l) => !l.refused).map((l) => [l.title, l.range.startLine + 1, l.target.request ?? null, l.target.machineExport]);
    const line = (needle: string, from = 0) => text(file).split("\n").findIndex((l, i) => i >= from && l.includes(needle)) + 1;
    const inline = line("export const inlineMachine");
    assert.deepEqual(offered, [
      // `summarize`, declared once, is invoked by all three machines: one lens on its declaration asks which
      ["Run seam · 3 machines…", line("summarize: {"), "summarize", "typoMachine"],
      ["Explore paths", line("export const typoMachine"), null, "typoMachine"],
      ["Run seam", line('src: "summarize"'), "summarize", "typoMachine"],
      ["Explore paths", line("export const orphanMachine"), null, "orphanMachine"],
      ["Run seam", line('src: "summarize"', line("export const orphanMachine")), "summarize", "orphanMachine"],
      ["Explore paths", inline, null, "inlineMachine"],
      ["Run seam", line('src: "summarize"', inline), "summarize", "inlineMachine"],
    ]);
    const shared = a.lenses.find((l) => l.title === "Run seam · 3 machines…")!;
    assert.deepEqual(shared.target.choices?.map((c) => [c.name, c.machineExport, c.line]), [
      ["typoMachine", "typoMachine", line("export const typoMachine")], ["orphanMachine", "orphanMachine", line("export const orphanMachine")], ["inlineMachine", "inlineMachine", inline],
    ]);
    const unnamed = a.lenses.find((l) => l.refused && l.range.startLine + 1 === line("createTextLogic({"));
    assert.match(unnamed?.refused ?? "", /no name and no invoke `id`/);
    const triage = path.join(REPO, "examples/stately/support-triage.ts");
    const t = ws.analyze(triage);
    const decide = t.lenses.find((l) => l.kind === "run-seam" && slice(triage, l.range) === "agent.decide");
    assert.ok(decide?.refused, "no Run seam on `src: agent.decide`");
    assert.match(decide!.refused!, /routes text requests only/);
    assert.deepEqual(t.lenses.filter((l) => !l.refused && l.kind === "run-seam").map((l) => l.target.request), ["draftReply", "draftReply"], "the text request keeps its lenses");
  });

  it("an unexported machine gets no Run seam or Explore paths lens (a generated run cannot import it)", () => {
    const b = analyzeAgent(`const agent = setupAgent({ requests: { ask: { model: "m", prompt: "p" } } });
const hidden = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "ask", onDone: { target: "b" } } }, b: { type: "final" } } });
`);
    assert.deepEqual(b.lenses.filter((l) => !l.refused), []);
    assert.deepEqual(b.lenses.map((l) => [l.kind, /not exported/.test(l.refused ?? "")]), [["run-seam", true], ["explore-paths", true], ["run-seam", true]]);
  });

  it("on an eval file's runSeam call, the lens runs that call (file + 1-based line)", () => {
    const file = path.join(REPO, "examples/stately/email-agent.test.ts");
    const a = ws.analyze(file);
    assert.deepEqual(a.lenses.map((l) => [l.kind, l.target.file, l.target.line, l.target.request]), [["run-seam", file, 10, "scoreDraft"]]);
  });
});

describe("graphs", () => {
  it("nodes per state with path/type/initial/parent, edges with event labels", () => {
    const b = analyzeAgent(`const agent = setupAgent({ requests: {} });
export const m = agent.createMachine({ initial: "p", states: {
  p: { type: "parallel", states: { r: { initial: "one", states: { one: { on: { NEXT: "two" } }, two: {} } } }, on: { STOP: "end" } },
  end: { type: "final" } } });`);
    const g = b.graphs[0]!;
    const f = b.file;
    assert.deepEqual(g.nodes.map((n) => [n.path, n.type, n.initial, n.parent ?? null]), [
      ["p", "parallel", true, null],
      ["p.r", "compound", false, `${f}#state:m.p`],
      ["p.r.one", "atomic", true, `${f}#state:m.p.r`],
      ["p.r.two", "atomic", false, `${f}#state:m.p.r`],
      ["end", "final", false, null],
    ]);
    assert.deepEqual(g.edges.map((e) => [e.source.split(":").pop(), e.target.split(":").pop(), e.label]), [
      ["m.p", "m.end", "STOP"],
      ["m.p.r.one", "m.p.r.two", "NEXT"],
    ]);
  });
});

describe("static tests", () => {
  it("node:test blocks of an eval file", () => {
    const file = path.join(REPO, "examples/stately/support-triage.eval.ts");
    const a: FileAnalysis = ws.analyze(file);
    assert.deepEqual(a.tests.map((t) => [t.kind, t.name, t.range.startLine + 1]), [
      ["test", "a how-to question is answered", 10],
      ["test", "an outage is escalated without drafting a reply", 32],
      ["test", "the reply seam, with the decision answered by an executor", 46],
    ]);
  });
  it("a non-test file that calls an eval API is an eval file too; an agent file is not", () => {
    const b = createWorkspace({ roots: ["/w"], readFile: () => undefined });
    b.setFile("/w/scripts/try.ts", `import { runAgent } from "@statelyai/agent";\nawait runAgent(m, {});\n`);
    assert.deepEqual(b.analyze("/w/scripts/try.ts").tests.map((t) => t.kind), ["file"]);
    assert.deepEqual(ws.analyze(EMAIL).tests, []);
  });
});
