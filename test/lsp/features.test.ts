// The pure feature functions (server/src/analysis/features) on hand-written analysis data: the edge cases
// the fixtures do not reach (dotted targets, unquoted keys, refused names, durations, outline nesting).
import assert from "node:assert/strict";
import type { AgentReference, AgentSymbol, FileAnalysis } from "../../server/src/analysis/api";
import type { SourceRange } from "../../server/src/analysis/types";
import { completionsAfterEdit, completionsAt, definitionAt, documentSymbolTree, prepareRenameAt, quickFixesIn, referencesAt, renameEdits, hoverAt } from "../../server/src/analysis/features/index";

const FILE = "/w/machine.ts";
const TEXT = [
  "const m = agent.createMachine({", // 0
  '  initial: "parent",', // 1
  "  states: {", // 2
  "    parent: {", // 3
  '      initial: "child",', // 4
  "      states: { child: {} },", // 5
  '      on: { GO: "parent.child" },', // 6
  "    },", // 7
  '    other: { on: { BACK: ".child" } },', // 8
  "  },", // 9
  "});", // 10
  'const flow = f.flow({ on: [{ silence: "2" }], steps: [{ id: "w", wait: "" }] });', // 11
].join("\n");

/** The range of the `nth` occurrence of `needle` on the text (single line). */
function rangeOf(needle: string, nth = 0): SourceRange {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = TEXT.indexOf(needle, index + 1);
  assert.ok(index >= 0, needle);
  const line = TEXT.slice(0, index).split("\n").length - 1;
  const col = index - (TEXT.lastIndexOf("\n", index - 1) + 1);
  return { start: index, end: index + needle.length, startLine: line, startColumn: col, endLine: line, endColumn: col + needle.length };
}

const sym = (id: string, kind: AgentSymbol["kind"], name: string, nameRange: SourceRange, parentId?: string, range = nameRange): AgentSymbol => ({
  id: `${FILE}#${id}`,
  kind,
  name,
  file: FILE,
  nameRange,
  range,
  parentId: parentId && `${FILE}#${parentId}`,
  summary: kind === "state" ? `**${name}**: reachable` : undefined,
});

const symbols: AgentSymbol[] = [
  sym("machine:m", "machine", "m", rangeOf("m", 0), undefined, { ...rangeOf("const m"), end: TEXT.length }),
  sym("state:m.parent", "state", "parent", rangeOf("parent", 1), "machine:m"),
  sym("state:m.parent.child", "state", "child", rangeOf("child", 1), "state:m.parent"),
  sym("state:m.other", "state", "other", rangeOf("other"), "machine:m"),
];
const ref = (role: AgentReference["role"], text: string, nth: number, targetId: string | undefined, candidates?: string[]): AgentReference => ({
  role,
  kind: "state",
  file: FILE,
  range: rangeOf(text, nth),
  text,
  targetId: targetId && `${FILE}#${targetId}`,
  candidates: candidates?.map((c) => ({ insertText: c, kind: "state" as const })),
});
const references: AgentReference[] = [
  ref("initial", "parent", 0, "state:m.parent", ["parent", "other"]),
  ref("initial", "child", 0, "state:m.parent.child", ["child"]),
  ref("target", "parent.child", 0, "state:m.parent.child", ["parent", "parent.child", "other"]),
  ref("target", ".child", 1, undefined, ["parent", "other"]),
];
const analysis: FileAnalysis = {
  file: FILE,
  isAgentFile: true,
  symbols,
  references,
  findings: [
    {
      code: "unknown-target",
      severity: "error",
      message: 'No state ".child"',
      file: FILE,
      range: rangeOf(".child", 1),
      fixes: [{ title: "Change to 'parent'", preferred: true, edits: [{ file: FILE, range: rangeOf(".child", 1), newText: "parent" }] }],
    },
  ],
  lenses: [],
  tests: [],
  graphs: [],
  dependencies: [],
  definitions: 1,
};
const index = {
  symbol: (id: string) => symbols.find((s) => s.id === id),
  referencesTo: (id: string) => references.filter((r) => r.targetId === id),
  uncertainReferencesTo: () => [],
};
const textOf = (file: string) => (file === FILE ? TEXT : undefined);
const at = (needle: string, delta = 0, nth = 0) => rangeOf(needle, nth).start + delta;

describe("lsp: feature functions", () => {
  it("goes from a dotted target to the child state, and from a declaration to itself", () => {
    assert.deepEqual(definitionAt(index, analysis, at("parent.child", 9)).map((s) => s.name), ["child"]);
    assert.deepEqual(definitionAt(index, analysis, at("other", 2)).map((s) => s.id), [`${FILE}#state:m.other`]);
    assert.deepEqual(definitionAt(index, analysis, at(".child", 1, 1)), [], "an unresolved reference has no definition");
  });

  it("renames only the segment that names the state, quoting where the key is unquoted", () => {
    const prepared = prepareRenameAt(index, analysis, at("parent.child", 8));
    assert.equal(prepared?.placeholder, "child");
    assert.equal(TEXT.slice(prepared!.range.start, prepared!.range.end), "child");
    const result = renameEdits(index, analysis, at("child", 2, 1), "kid", textOf);
    assert.ok(result && !result.error);
    const applied = result.edits.map((e) => `${e.range.startLine}:${TEXT.slice(e.range.start, e.range.end)}->${e.newText}`).sort();
    assert.deepEqual(applied, ["4:child->kid", "5:child->kid", "6:child->kid"]);
    const sixth = result.edits.find((e) => e.range.startLine === 6)!;
    assert.equal(sixth.range.startColumn, TEXT.split("\n")[6].indexOf("parent.child") + "parent.".length);
    const quoted = renameEdits(index, analysis, at("other", 1), "other-state", textOf);
    assert.ok(quoted && !quoted.error);
    assert.deepEqual(quoted.edits.map((e) => e.newText), ['"other-state"']);
  });

  it("refuses names that would break target paths", () => {
    const result = renameEdits(index, analysis, at("child", 1, 1), "a.b", textOf);
    assert.ok(result?.error && /cannot contain/.test(result.error));
    assert.equal(prepareRenameAt(index, analysis, at("m", 0)), undefined, "machines are renamed as TypeScript values, not here");
  });

  it("finds references with and without the declaration", () => {
    const withDecl = referencesAt(index, analysis, at("child", 0, 1), true).map((l) => l.range.startLine);
    assert.deepEqual(withDecl, [4, 5, 6]);
    assert.deepEqual(referencesAt(index, analysis, at("child", 0, 1), false).map((l) => l.range.startLine), [4, 6]);
  });

  it("completes state names inside targets, replacing the whole string", () => {
    const entries = completionsAt(analysis, at("parent.child", 3), TEXT);
    assert.deepEqual(entries.map((e) => e.label), ["parent", "parent.child", "other"]);
    assert.equal(TEXT.slice(entries[0].replace.start, entries[0].replace.end), "parent.child");
  });

  it("completes durations in silence and wait strings", () => {
    const silence = completionsAt(analysis, TEXT.indexOf('"2"') + 2, TEXT);
    assert.ok(silence.some((e) => e.label === "24h" && e.kind === "duration"));
    assert.equal(TEXT.slice(silence[0].replace.start, silence[0].replace.end), "2");
    const wait = completionsAt(analysis, TEXT.indexOf('wait: ""') + 7, TEXT);
    assert.ok(wait.some((e) => e.label === "2d"));
    assert.equal(wait[0].replace.start, wait[0].replace.end);
    assert.deepEqual(completionsAt(analysis, TEXT.indexOf("const flow") + 3, TEXT), []);
  });

  it("completes while typing inside a string from the previous analysis, and only there", () => {
    const inside = TEXT.indexOf("parent.child") + "parent.".length;
    const typed = TEXT.slice(0, inside) + "xy" + TEXT.slice(inside);
    const entries = completionsAfterEdit(analysis, TEXT, typed, inside + 2)!;
    assert.deepEqual(entries.map((e) => e.label), ["parent", "parent.child", "other"]);
    assert.equal(typed.slice(entries[0].replace.start, entries[0].replace.end), "parent.xychild");
    assert.equal(entries[0].replace.endColumn - entries[0].replace.startColumn, "parent.xychild".length);
    const outside = TEXT.replace("states: {", "states: { extra: {},");
    assert.equal(completionsAfterEdit(analysis, TEXT, outside, outside.indexOf("parent.child") + 2), undefined, "an edit outside the string needs a new analysis");
    const quote = TEXT.slice(0, inside) + '"' + TEXT.slice(inside);
    assert.equal(completionsAfterEdit(analysis, TEXT, quote, inside + 1), undefined, "a quote changes the strings themselves");
  });

  it("builds the outline tree from parent ids", () => {
    const tree = documentSymbolTree(analysis);
    assert.deepEqual(tree.map((n) => n.symbol.name), ["m"]);
    assert.deepEqual(tree[0].children.map((n) => n.symbol.name), ["parent", "other"]);
    assert.deepEqual(tree[0].children[0].children.map((n) => n.symbol.name), ["child"]);
  });

  it("offers the finding's fixes overlapping a range, and hovers with the summary", () => {
    const fixes = quickFixesIn(analysis, at(".child", 2, 1), at(".child", 2, 1));
    assert.deepEqual(fixes.map((f) => f.fix.title), ["Change to 'parent'"]);
    assert.deepEqual(quickFixesIn(analysis, 0, 5), []);
    const hover = hoverAt(index, analysis, at('"child"', 2));
    assert.match(hover!.markdown, /\(state\) child/);
    assert.match(hover!.markdown, /reachable/);
    const unknown = hoverAt(index, analysis, at(".child", 2, 1))!.markdown;
    assert.doesNotMatch(unknown, /No state "\.child"/, "not the finding's message: the diagnostic's hover shows it");
    assert.match(unknown, /Did you mean `parent`\?/, "the preferred fix (this finding's message does not name it)");
    assert.match(unknown, /Valid state names here: `parent`, `other`/, "the candidates");
  });
});
