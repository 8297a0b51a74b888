// The seed documents' examples (test/conformance/programs) run through the built `agent-lens run` CLI
// against our runtime and pass, printing "ok", with their results located at the user's calls.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { basename, join } from "node:path";
import { ensureBuilt, root, runCli, tempDir } from "./support";

const programs = join(root, "test/conformance/programs");
const RUNTIME = ["runtime/statelyai-agent.mjs", "runtime/statelyai-agent-ai-sdk.mjs", "runtime/statelyai-agent-testing.mjs", "runtime/falai-agent.mjs"];

interface JsonEvent {
  type: string;
  file: string;
  stream?: string;
  text?: string;
  kind?: string;
  status?: string;
  callSite?: { file: string; line: number };
  runtime?: Record<string, string>;
}

describe("harness: the seed documents' programs through agent-lens run", function () {
  this.timeout(180_000);
  let cacheDir: string;
  before(() => {
    ensureBuilt(RUNTIME);
    cacheDir = tempDir("cache");
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  for (const mode of ["auto", "bundled"]) {
    it(`all pass and print ok (--runtime ${mode})`, () => {
      const r = runCli(["--runtime", mode, "--jobs", "2", "."], programs, cacheDir);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout.trimEnd().split("\n").at(-1), "6 passed, 0 failed");
      const json = runCli(["--json", "--runtime", mode, "."], programs, cacheDir);
      const events = json.stdout.trim().split("\n").map((l) => JSON.parse(l) as JsonEvent);
      const files = [...new Set(events.filter((e) => e.type === "start").map((e) => e.file))].sort();
      assert.equal(files.length, 6);
      for (const file of files) {
        const out = events.filter((e) => e.file === file && e.type === "console" && e.stream === "stdout").map((e) => e.text).join("");
        assert.equal(out, "ok\n", file);
        const start = events.find((e) => e.file === file && e.type === "start");
        const library = basename(file).startsWith("falai-") ? "@falai/agent" : "@statelyai/agent";
        assert.equal(start?.runtime?.[library], "bundled", `${file}: ${JSON.stringify(start?.runtime)}`);
      }
    });
  }

  it("reports the runSeam result at the user's call (stately-run-seam.test.ts:6)", () => {
    const r = runCli(["--json", "stately-run-seam.test.ts"], programs, cacheDir);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as JsonEvent & { data?: { seamOutput?: unknown; calls?: Array<{ source: string }> } });
    const seam = events.filter((e) => e.type === "result" && e.kind === "seam");
    assert.equal(seam.length, 1);
    assert.deepEqual(seam[0]!.callSite, { file: join(programs, "stately-run-seam.test.ts"), line: 6, column: 19 });
    assert.deepEqual(seam[0]!.data?.seamOutput, { score: 4 });
    assert.deepEqual(seam[0]!.data?.calls?.map((c) => c.source), ["script", "script"]);
  });

  it("reports each falai turn as a result event with the clock's time", () => {
    const r = runCli(["--json", "falai-end-to-end.test.ts"], programs, cacheDir);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as JsonEvent & { data?: { now?: string; llmCalls?: number } });
    const turns = events.filter((e) => e.type === "result" && e.kind === "turn");
    assert.ok(turns.length >= 2, `${turns.length} turn results`);
    for (const t of turns) {
      assert.equal(t.callSite?.file, join(programs, "falai-end-to-end.test.ts"));
      assert.match(t.data?.now ?? "", /^2026-09-2\dT/);
    }
  });
});
