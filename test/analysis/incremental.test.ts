// Incremental re-analysis equals a fresh one. A workspace that keeps files being edited (setFile with
// `editing`) goes through seeded random edits — inside target strings, inside other strings, inside
// comments, and anywhere at all (lines added, syntax broken) — sometimes two edits before the next
// analysis, sometimes reading every output before the next edit and sometimes none. After each step its
// analysis (findings, symbols with summaries, references with candidates, lenses, tests, graphs,
// dependencies) must equal, in full, that of a fresh workspace given the same texts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { createWorkspace, setAnalysisErrorListener } from "../../server/src/analysis";
import type { AnalysisWorkspace, FileAnalysis } from "../../server/src/analysis/api";
import { analysisCounters } from "../../server/src/analysis/workspace";
import { flowFileV4, machineFile } from "../../bench/analysis-generate";
import { rng } from "./helpers";

const REPO = path.resolve(__dirname, "../..");
const example = (rel: string) => readFileSync(path.join(REPO, "examples", rel), "utf8");

/** Everything an analysis says, as plain data (reading every lazy part). */
function full(a: FileAnalysis): unknown {
  return JSON.parse(JSON.stringify(a));
}

type Edit = (text: string, random: () => number) => string;

const pick = <T>(list: T[], random: () => number): T | undefined => list[Math.floor(random() * list.length)];
const CHARS = "abcdefgiklmnorstuvwxyz0123456789.#-_ ";

/** Retypes part of a random match's inside (group 1 of `pattern`). */
function insideMatch(pattern: RegExp): Edit {
  return (text, random) => {
    const m = pick([...text.matchAll(new RegExp(pattern.source, "gd"))], random);
    if (!m) return text;
    const [innerStart, innerEnd] = m.indices![1]!;
    const at = innerStart + Math.floor(random() * (innerEnd - innerStart + 1));
    const removed = Math.floor(random() * 3);
    const typed = Array.from({ length: Math.floor(random() * 3) }, () => CHARS[Math.floor(random() * CHARS.length)]).join("");
    return text.slice(0, at) + typed + text.slice(Math.min(at + removed, innerEnd));
  };
}

const EDITS: Array<[string, Edit, number]> = [
  // a transition target: the re-resolved path
  ["target", insideMatch(/(?:target: |on: \{ [A-Z]+: |: )"([^"\\\n]*)"/g), 4],
  // any string: ids, srcs, types, prompts, flow steps
  ["string", insideMatch(/"([^"\\\n]*)"/g), 3],
  ["comment", insideMatch(/\/\/([^\n]*)/g), 2],
  // anything: a character typed or deleted anywhere (taken back at the next step), a comment line added
  [
    "anywhere",
    (text, random) => {
      const at = Math.floor(random() * text.length);
      return random() < 0.5 ? text.slice(0, at) + CHARS[Math.floor(random() * CHARS.length)] + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
    },
    1,
  ],
  ["line", (text, random) => {
    const lines = text.split("\n");
    const at = Math.floor(random() * lines.length);
    return [...lines.slice(0, at), "// a note", ...lines.slice(at)].join("\n");
  }, 1],
];

function randomEdit(random: () => number): [string, Edit] {
  const total = EDITS.reduce((n, [, , w]) => n + w, 0);
  let r = random() * total;
  for (const [name, edit, weight] of EDITS) if ((r -= weight) < 0) return [name, edit];
  return [EDITS[0]![0], EDITS[0]![1]];
}

/** A top-level comment between statements, so comment edits there take the carried-over path too. */
const withNotes = (text: string) => text.replace(/\n\n/g, "\n// between statements\n\n") + "// last line\n";

interface Subject {
  name: string;
  /** Files (relative to /w), the first one edited. */
  files: Record<string, string>;
}

const SUBJECTS: Subject[] = [
  { name: "generated machine", files: { "machine.ts": withNotes(machineFile(150)) } },
  { name: "generated v4 flows", files: { "flows.ts": withNotes(flowFileV4(150)) } },
  { name: "examples/stately/mistakes.ts", files: { "mistakes.ts": withNotes(example("stately/mistakes.ts")) } },
  { name: "examples/falai/mistakes.ts", files: { "mistakes.ts": withNotes(example("falai/mistakes.ts")) } },
  {
    name: "the email machine with its eval open",
    files: { "email-agent.ts": withNotes(example("stately/email-agent.ts")), "email-agent.test.ts": withNotes(example("stately/email-agent.test.ts")) },
  },
  {
    name: "the support-triage eval, edited itself",
    files: { "support-triage.eval.ts": withNotes(example("stately/support-triage.eval.ts")), "support-triage.ts": example("stately/support-triage.ts") },
  },
];

describe("incremental re-analysis equals a fresh one", function () {
  this.timeout(120_000);
  const errors: unknown[] = [];
  before(() => setAnalysisErrorListener((e, where) => errors.push(`${where}: ${String(e)}`)));
  after(() => setAnalysisErrorListener(undefined));

  const ways = new Map<string, number>();
  for (const [index, subject] of SUBJECTS.entries()) {
    it(`${subject.name}: 60 seeded edits`, () => {
      const random = rng(1000 + index);
      const abs = (rel: string) => `/w/${rel}`;
      const texts = new Map(Object.entries(subject.files).map(([rel, text]) => [abs(rel), text]));
      const edited = abs(Object.keys(subject.files)[0]!);
      const incremental = createWorkspace({ roots: ["/w"], readFile: (f) => texts.get(f) });
      for (const [file, text] of texts) incremental.setFile(file, text, { editing: true });
      const fresh = (): AnalysisWorkspace => createWorkspace({ roots: ["/w"], readFile: (f) => texts.get(f) });
      for (const file of texts.keys()) incremental.analyze(file);
      const before = { ...analysisCounters };
      let undo: string | undefined; // a character typed anywhere is taken back at the next step (as a user would)
      for (let step = 0; step < 60; step++) {
        let [kind, edit] = randomEdit(random);
        if (undo !== undefined) [kind, edit] = ["undo", () => undo!];
        const next = edit(texts.get(edited)!, random);
        undo = kind === "anywhere" ? texts.get(edited) : undefined;
        ways.set(kind, (ways.get(kind) ?? 0) + 1);
        texts.set(edited, next);
        incremental.setFile(edited, next, { editing: true });
        if (random() < 0.2) continue; // a second edit before anything is analyzed
        const reference = fresh();
        for (const file of texts.keys()) {
          const got = incremental.analyze(file);
          if (random() < 0.5) assert.deepEqual(full(got), full(reference.analyze(file)), `${subject.name}, step ${step} (${kind}), ${file}`);
          else {
            // read only the findings now; the rest after the next edit would be wrong if it were built late
            assert.deepEqual(got.findings, reference.analyze(file).findings, `${subject.name}, step ${step} (${kind}), findings of ${file}`);
          }
        }
      }
      // the cheap paths were taken, not only full analyses
      assert.ok(analysisCounters.patchedEdits > before.patchedEdits, "some edits patched the tree in place");
      assert.ok(analysisCounters.carriedOver + analysisCounters.computedOnPatchedTree > before.carriedOver + before.computedOnPatchedTree, "some analyses reused the patched tree");
    });
  }

  it("took every kind of path, and no analysis failed", () => {
    assert.deepEqual(errors, []);
    assert.ok(analysisCounters.carriedOver > 0 && analysisCounters.computedOnPatchedTree > 0 && analysisCounters.computed > 0, JSON.stringify(analysisCounters));
    for (const [kind] of EDITS) assert.ok((ways.get(kind) ?? 0) > 0, kind);
  });
});
