// A structural edit inside one object literal member re-parses that member alone and splices it into the
// tree (server/src/analysis/incremental/splice.ts, patch.ts `spliceMember`). Two layers of proof:
//  - the tree: after every seeded edit (a letter typed into a name and taken back, a character deleted,
//    punctuation typed, a piece of text pasted), the spliced tree equals a fresh parse of the same text
//    node by node — kind, positions, flags, names and literal texts, node lists, parents — with the same
//    line map, parse index and `// @ts-` directives; refused splices parse the file again;
//  - the analysis: a workspace editing a big machine and big flows, keystroke by keystroke at many
//    positions, gives exactly the findings and outputs of a fresh workspace given the same text.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ts } from "ts-morph";
import { createWorkspace, setAnalysisErrorListener } from "../../server/src/analysis";
import { classifyEdit, textChange } from "../../server/src/analysis/incremental/edit";
import { patchAst, spliceMember } from "../../server/src/analysis/incremental/patch";
import { memberSplice } from "../../server/src/analysis/incremental/splice";
import { adoptMember, nodeIndexOf, parseWithParents } from "../../server/src/analysis/parse";
import { analysisCounters } from "../../server/src/analysis/workspace";
import { flowFile, flowFileV4, lspMachineFile, machineFile } from "../../bench/analysis-generate";
import { rng } from "./helpers";

const REPO = path.resolve(__dirname, "../..");
const example = (rel: string) => readFileSync(path.join(REPO, "examples", rel), "utf8");

type Item = ts.Node | ts.NodeArray<ts.Node>;
const childrenOf = (node: ts.Node): Item[] => {
  const out: Item[] = [];
  ts.forEachChild(node, (c) => void out.push(c), (l) => void out.push(l));
  return out;
};

/** The first difference between two trees (undefined when equal), walked without recursion. */
function treeDifference(got: ts.SourceFile, want: ts.SourceFile): string | undefined {
  const stack: Array<[ts.Node, ts.Node, string]> = [[got, want, "file"]];
  while (stack.length) {
    const [a, b, where] = stack.pop()!;
    if (a.kind !== b.kind || a.pos !== b.pos || a.end !== b.end || a.flags !== b.flags) return `${where}: ${ts.SyntaxKind[a.kind]} ${a.pos}-${a.end} (flags ${a.flags}) vs ${ts.SyntaxKind[b.kind]} ${b.pos}-${b.end} (flags ${b.flags})`;
    const [x, y] = [a as ts.Node & { text?: string; escapedText?: string }, b as ts.Node & { text?: string; escapedText?: string }];
    if (x.text !== y.text || x.escapedText !== y.escapedText) return `${where}: text ${x.text} vs ${y.text}`;
    const [ca, cb] = [childrenOf(a), childrenOf(b)];
    if (ca.length !== cb.length) return `${where}: ${ca.length} vs ${cb.length} children`;
    for (let i = 0; i < ca.length; i++) {
      const [p, q] = [ca[i]!, cb[i]!];
      if (Array.isArray(p) !== Array.isArray(q)) return `${where}/${i}: a list and a node`;
      const [listA, listB] = (Array.isArray(p) ? [p, q] : [[p], [q]]) as [ts.NodeArray<ts.Node>, ts.NodeArray<ts.Node>];
      if (Array.isArray(p) && (listA.length !== listB.length || listA.pos !== listB.pos || listA.end !== listB.end || listA.hasTrailingComma !== listB.hasTrailingComma)) return `${where}/${i}: lists differ`;
      for (let j = 0; j < listA.length; j++) {
        if (listA[j]!.parent !== a) return `${where}/${i}/${j}: parent`;
        stack.push([listA[j]!, listB[j]!, `${where}/${i}/${j}`]);
      }
    }
  }
  return undefined;
}

const spans = (nodes: readonly ts.Node[]) => nodes.map((n) => `${ts.SyntaxKind[n.kind]}@${n.pos}-${n.end}`);
const directives = (sf: ts.SourceFile) => ((sf as ts.SourceFile & { commentDirectives?: Array<{ range: { pos: number; end: number }; type: number }> }).commentDirectives ?? []).map((d) => `${d.type}@${d.range.pos}-${d.range.end}`);

type Edit = (text: string, random: () => number) => string;
const NAME = /[A-Za-z_$][\w$]*/g;
const PUNCTUATION = ",;:(){}[]<>=.?!'\"` \n";
const between = (text: string, at: number, typed: string, removed = 0) => text.slice(0, at) + typed + text.slice(at + removed);
const pickName = (text: string, random: () => number) => {
  const names = [...text.matchAll(NAME)];
  return names[Math.floor(random() * names.length)]!;
};

/** The edits, each taken back at the next step (as a user would). */
const EDITS: Array<[string, Edit]> = [
  ["letter typed into a name", (text, random) => {
    const m = pickName(text, random);
    return between(text, m.index! + Math.floor(random() * (m[0].length + 1)), "Q");
  }],
  ["name retyped", (text, random) => {
    const m = pickName(text, random);
    return between(text, m.index!, "renamed", m[0].length);
  }],
  ["character deleted", (text, random) => between(text, Math.floor(random() * text.length), "", 1)],
  ["punctuation typed", (text, random) => between(text, Math.floor(random() * text.length), PUNCTUATION[Math.floor(random() * PUNCTUATION.length)]!)],
  ["text pasted", (text, random) => {
    const from = Math.floor(random() * text.length);
    return between(text, Math.floor(random() * text.length), text.slice(from, from + 1 + Math.floor(random() * 120)));
  }],
];

/** `steps` seeded edits of `text`, each followed by its undo: [what was done, the text after]. */
function* keystrokes(text: string, steps: number, seed: number): Generator<[string, string]> {
  const random = rng(seed);
  for (let step = 0; step < steps; step++) {
    const [name, edit] = EDITS[Math.floor(random() * EDITS.length)]!;
    yield [name, edit(text, random)];
    yield [`${name}, taken back`, text];
  }
}

/** A machine's statements inside a function (imports and exports taken out). */
const wrapped = (prefix: string, body: string, suffix: string) => `${prefix}\n${body.replace(/^import .*$/gm, "").replace(/^export /gm, "")}\n${suffix}\n`;
const TREE_SUBJECTS: Array<[string, string, string]> = [
  ["generated machine", "/w/machine.ts", machineFile(600)],
  ["generated flows", "/w/flows.ts", flowFile(400)],
  ["generated v4 flows", "/w/flows4.ts", flowFileV4(400)],
  ["examples/stately/email-agent.test.ts", "/w/email.test.ts", example("stately/email-agent.test.ts")],
  ["examples/falai/triage-agent.ts", "/w/triage.ts", example("falai/triage-agent.ts")],
  ["examples/stately/mistakes.ts", "/w/mistakes.ts", example("stately/mistakes.ts")],
  ["a machine in an async function", "/w/async.ts", wrapped("async function main() {", machineFile(120), "}")],
  ["a machine in a generator", "/w/gen.ts", wrapped("function* main() {", machineFile(120), "}")],
  ["a machine in a .js file, with ts-directives", "/w/machine.js", machineFile(120).replace(/\n {6}states: \{/g, "\n      // @ts-expect-error\n      states: {")],
];

describe("incremental: a structural edit splices one member's new parse into the tree", function () {
  this.timeout(120_000);
  for (const [index, [name, file, text]] of TREE_SUBJECTS.entries()) {
    it(`${name}: the spliced tree equals a fresh parse after every seeded edit`, () => {
      let tree = parseWithParents(file, text);
      nodeIndexOf(tree);
      let current = text;
      let spliced = 0;
      let steps = 0;
      for (const [kind, next] of keystrokes(text, 120, 500 + index)) {
        steps++;
        const change = textChange(current, next);
        // as the workspace does: a string's or a comment's contents patched, else a member spliced
        const edit = change && classifyEdit(tree, next, change);
        if (edit) patchAst(tree, edit, next);
        const splice = change && !edit ? memberSplice(tree, next, change) : undefined;
        if (splice) {
          adoptMember(tree, splice.old, splice.replacement, splice.old.parent);
          spliceMember(tree, splice, next);
          spliced++;
        } else if (change && !edit) tree = parseWithParents(file, next);
        current = next;
        const fresh = parseWithParents(file, next);
        const where = `${name}, step ${steps} (${kind}${splice ? ", spliced" : ""})`;
        assert.equal(treeDifference(tree, fresh), undefined, where);
        assert.equal(tree.text, next, where);
        assert.deepEqual(tree.getLineStarts(), fresh.getLineStarts(), where);
        assert.deepEqual(spans(nodeIndexOf(tree).calls), spans(nodeIndexOf(fresh).calls), where);
        assert.deepEqual(spans(nodeIndexOf(tree).flowsProperties), spans(nodeIndexOf(fresh).flowsProperties), where);
        assert.deepEqual(directives(tree), directives(fresh), where);
      }
      assert.ok(spliced >= steps / 12, `${spliced} of ${steps} edits spliced`);
      assert.ok(spliced < steps, "some edits were refused (broken syntax) and parsed the file again");
    });
  }

  it("refuses what the parser reads by lookahead or by the whole file: parentheses, `<`, await, import", () => {
    const cases: Array<[string, string]> = [
      ["const a = ({ x: 1, y: 2 });", "y: 2"],
      ["const a = b < { x: 1, y: 2 }.y;", "y: 2"],
      ["async function f() { const a = { x: await g(), y: 2 }; }", "x: await g()"],
      ["const a = { x: import.meta.url, y: 2 };", "x: import.meta.url"],
      ["const a = { x: 1, y: 2 };", "x: 1"],
    ];
    const answers = cases.map(([text, member]) => {
      const sf = parseWithParents("/w/a.ts", text);
      const at = text.indexOf(member) + member.length;
      const next = between(text, at, "0");
      return memberSplice(sf, next, textChange(text, next)!) !== undefined;
    });
    assert.deepEqual(answers, [false, false, false, false, true]);
  });
});

const WORKSPACE_SUBJECTS: Array<[string, string]> = [
  ["machine of bench:lsp", lspMachineFile(2000).text],
  ["generated machine", machineFile(1500)],
  ["generated flows", flowFile(1500)],
  ["generated v4 flows", flowFileV4(1500)],
  ["examples/stately/mistakes.ts", example("stately/mistakes.ts")],
  ["examples/falai/mistakes.ts", example("falai/mistakes.ts")],
];

describe("incremental: analyses over spliced trees equal fresh ones", function () {
  this.timeout(240_000);
  const errors: unknown[] = [];
  before(() => setAnalysisErrorListener((e, where) => errors.push(`${where}: ${String(e)}`)));
  after(() => setAnalysisErrorListener(undefined));

  for (const [index, [name, text]] of WORKSPACE_SUBJECTS.entries()) {
    it(`${name}: keystrokes at many positions, every analysis equal to a fresh workspace's`, () => {
      const file = "/w/agent.ts";
      const incremental = createWorkspace({ roots: ["/w"], readFile: () => undefined });
      incremental.setFile(file, text, { editing: true });
      incremental.analyze(file);
      const before = analysisCounters.splicedEdits;
      const random = rng(900 + index);
      let step = 0;
      for (const [kind, next] of keystrokes(text, 40, 700 + index)) {
        step++;
        incremental.setFile(file, next, { editing: true });
        if (random() < 0.2) continue; // a second edit before anything is analyzed
        const reference = createWorkspace({ roots: ["/w"], readFile: () => undefined });
        reference.setFile(file, next);
        const [got, want] = [incremental.analyze(file), reference.analyze(file)];
        if (random() < 0.4) assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(want)), `${name}, step ${step} (${kind})`);
        else assert.deepEqual(got.findings, want.findings, `${name}, step ${step} (${kind}): findings`);
      }
      assert.ok(analysisCounters.splicedEdits > before + 10, `${analysisCounters.splicedEdits - before} edits spliced`);
    });
  }

  it("no analysis failed", () => assert.deepEqual(errors, []));
});
