// The protocol is typed end to end: a server handler, a client call or a command argument that disagrees
// with @agent-lens/protocol fails the type check `npm run typecheck` runs (same tsconfig, same compiler).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(__dirname, "../..");
const FIXTURES = join(ROOT, "test/fixtures/protocol");

function errorLines(file: string): number[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) });
  assert.ok(config, "tsconfig.json parses");
  const program = ts.createProgram([file], { ...config.options, noEmit: true });
  const source = program.getSourceFile(file)!;
  const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  return [...new Set(diagnostics.map((d) => source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1))].sort((a, b) => a - b);
}

describe("protocol: a type mismatch fails the type check", function () {
  this.timeout(120_000);

  it("the protocol used as typed, on both sides, compiles clean", () => {
    assert.deepEqual(errorLines(join(FIXTURES, "matched.ts")), []);
  });

  it("each mismatch (handler result, params, notification, client result, command argument) is an error on its line", () => {
    const file = join(FIXTURES, "mismatched.ts");
    const marked = readFileSync(file, "utf8").split("\n").flatMap((l, i) => (l.includes("// mismatch:") ? [i + 1] : []));
    assert.equal(marked.length, 6);
    assert.deepEqual(errorLines(file), marked);
  });

  it("the recordings events (model-call, drift, recording) and RecordingsMode: used as typed compiles, each misuse fails on its line", () => {
    assert.deepEqual(errorLines(join(FIXTURES, "recordings.ts")), []);
    const file = join(FIXTURES, "recordings-mismatched.ts");
    const marked = readFileSync(file, "utf8").split("\n").flatMap((l, i) => (l.includes("// mismatch:") ? [i + 1] : []));
    assert.equal(marked.length, 6);
    assert.deepEqual(errorLines(file), marked);
  });
});
