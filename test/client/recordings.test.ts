// Recordings in the Testing view, without VS Code: the Record confirmation names the models the last run and
// the recording know (else says it cannot), a node:test file's asked tests become Node's name patterns, and a
// replay that drifted after a prompt edit — real runs through the harness, recorded then replayed — becomes a
// mark at the turn call that drifted, naming the test "Re-record this test" runs again.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { HarnessEvent, StaticTest } from "@agent-lens/protocol";
import { recordingPathOf } from "../../runtime/src/harness/recordings-path";
import { createWorkspace } from "../../server/src/analysis";
import { driftMarks, modelsOfRecording, modelsOfRun, namePatternsFor, recordQuestion, testAtLine } from "../../client/src/testing/recordings";
import { flattenTests, testId } from "../../client/src/testing/test-model";
import { runCollect, suiteCache } from "../harness/support";

/** Two tests asking a falai agent through a hand-written provider (a provider call is a model call). */
const EVAL = (prompt: string) => `import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { falai, fakeClock, type AiProvider } from "@falai/agent";

const f = falai().fields({});
const provider: AiProvider & { model: string } = {
  name: "hand-written", model: "gpt-5-mini",
  capabilities: { supportsTools: false, supportsNativeJsonSchema: true, supportsStreaming: false, supportsStreamingToolCalls: false, supportsPromptCaching: false },
  async generateMessage(input) {
    return { message: "Oi!", structured: { message: "Oi!" }, metadata: { model: "gpt-5-mini", promptTokens: 10, completionTokens: 2 } };
  },
};
const agent = (prompt: string) => f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [f.flow({ id: "a", name: "a", on: [{ message: [] }], steps: [{ id: "s", prompt }] })] });

describe("greeting", () => {
  test("says hello", async () => {
    const r = await agent(${JSON.stringify(prompt)}).turn({ sessionId: "s", message: "oi", id: "m1" });
    assert.equal(r.messages[0]?.text, "Oi!");
  });
  test("says hello again", async () => {
    const r = await agent("Greet again.").turn({ sessionId: "s", message: "oi", id: "m1" });
    assert.equal(r.messages[0]?.text, "Oi!");
  });
});
`;

describe("client: recordings in the Testing view", function () {
  this.timeout(120_000);
  const cache = suiteCache();

  it("the Record confirmation names the known models, or says the file's own are unknown", () => {
    assert.equal(recordQuestion([{ label: "greeting.eval.ts", tests: [], models: [] }]),
      "Record greeting.eval.ts? Every model call goes live to the models this file configures — this may cost money — and the answers are written to __recordings__ beside the file.");
    assert.equal(recordQuestion([{ label: "a.test.ts", tests: ["s > t"], models: ["gpt-5-mini", "claude-haiku-4-5"] }]),
      `Record "s > t" in a.test.ts? Every model call goes live to "gpt-5-mini" and "claude-haiku-4-5" (as the last run and the recording name them) — this may cost money — and the answers are written to __recordings__ beside the file.`);
    assert.match(recordQuestion([{ label: "a.test.ts", tests: [], models: ["gpt-5-mini"] }, { label: "b.test.ts", tests: [], models: [] }]), /^Record a\.test\.ts and b\.test\.ts\? .*"gpt-5-mini" and the models the other files configure .* beside the files\.$/);
  });

  it("the models of a recording and of a run's model calls", () => {
    assert.deepEqual(modelsOfRecording(JSON.stringify({ version: 1, file: "x", tests: { a: { recordedAt: "", calls: [{ model: "gpt-5-mini" }, { model: "gpt-5-mini" }] }, b: { recordedAt: "", calls: [{ model: "o4" }, {}] } } })), ["gpt-5-mini", "o4"]);
    assert.deepEqual(modelsOfRecording("not json"), []);
    assert.deepEqual(modelsOfRecording(undefined), []);
    const call = (model?: string): HarnessEvent => ({ type: "model-call", test: "t", call: { index: 1, library: "falai", key: "speak", occurrence: 1, source: "live", input: {}, ...(model ? { model } : {}) } });
    assert.deepEqual(modelsOfRun([call("a"), call(), call("b"), call("a")]), ["a", "b"]);
  });

  it("asked tests become Node's name patterns; the file itself, or a plain script, runs whole", () => {
    const file = "file:///w/a.test.ts";
    const r = (line: number) => ({ start: 0, end: 0, startLine: line, startColumn: 0, endLine: line, endColumn: 1 });
    const tests = flattenTests(file, [{ kind: "suite", name: "greeting", file: "/w/a.test.ts", range: r(1), children: [{ kind: "test", name: "says (hello)?", file: "/w/a.test.ts", range: r(2) }] }]);
    assert.deepEqual(namePatternsFor(tests, new Set([testId(file, ["greeting", "says (hello)?"])]), file), ["^says \\(hello\\)\\?$"]);
    assert.deepEqual(namePatternsFor(tests, new Set([testId(file, ["greeting"])]), file), ["^greeting$"]);
    assert.equal(namePatternsFor(tests, new Set([file]), file), undefined);
    assert.equal(namePatternsFor([], new Set([file]), file), undefined);
  });

  it("a Record lens on a turn call records the test holding that call; a line outside every test, the whole file", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-lens-record-lens-"));
    try {
      const file = join(dir, "greeting.eval.ts");
      writeFileSync(file, EVAL("Say hello."));
      const analysis = createWorkspace({ roots: [dir] }).analyze(file);
      const tests = flattenTests(pathToFileURL(file).href, analysis.tests);
      const callLines = analysis.lenses.flatMap((l) => (l.target.line !== undefined ? [l.target.line] : []));
      assert.equal(callLines.length, 2, "one run lens on each turn call");
      assert.deepEqual(callLines.map((line) => testAtLine(tests, line - 1)?.path), [["greeting", "says hello"], ["greeting", "says hello again"]]);
      assert.equal(testAtLine(tests, 0), undefined, "the import line belongs to no test");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a replay that drifted after the prompt was edited: a mark at the turn call, naming its test and the recording", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-lens-drift-"));
    try {
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "drift-test", type: "module" }));
      const file = join(dir, "greeting.eval.ts");
      writeFileSync(file, EVAL("Say hello."));
      const recorded = await runCollect({ file, workspace: dir, cacheDir: cache(), runtime: "bundled", recordings: "record" });
      assert.equal(recorded.result.status, "passed");
      assert.deepEqual(modelsOfRun(recorded.events), ["gpt-5-mini"]);
      assert.deepEqual(modelsOfRecording(readFileSync(recordingPathOf(file), "utf8")), ["gpt-5-mini"]);
      writeFileSync(file, EVAL("Say hello, warmly."));
      const replayed = await runCollect({ file, workspace: dir, cacheDir: cache(), runtime: "bundled" });
      assert.equal(replayed.result.status, "failed");
      const fileId = pathToFileURL(file).href;
      const staticTests: StaticTest[] = createWorkspace({ roots: [dir] }).analyze(file).tests;
      const tests = flattenTests(fileId, staticTests);
      const marks = driftMarks(tests, replayed.events);
      const turnLine = readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(`agent("Say hello, warmly.").turn(`)) + 1;
      assert.deepEqual(marks.map((m) => [m.test, m.testId, m.location?.file, m.location?.line, m.recording]), [["greeting > says hello", testId(fileId, ["greeting", "says hello"]), file, turnLine, recordingPathOf(file)]]);
      assert.match(marks[0]!.message, /^replay drifted at call #1 \(.*\): the prompt changed\n/);
      assert.match(marks[0]!.message, /^\+ .*Say hello, warmly\./m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
