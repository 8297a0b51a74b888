// One eval-file matcher (shared/files/eval-files.ts) for the three places that ask: the language server's
// catalog (the Testing view), the analysis (an eval file is analyzed as one) and `agent-lens run`'s
// discovery. The same folder and settings give the same eval files in each; globs match relative to the
// workspace folder, and dot folders like any other.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CatalogRequest } from "@agent-lens/protocol";
import { Workspace } from "../../server/src/analysis/workspace";
import { discoverFiles } from "../../runtime/src/harness/discover";
import { TestClient, uriOf } from "./support/client";

const EVAL = 'import { runSeam } from "@statelyai/agent/testing";\nvoid runSeam;\n';
const FILES = {
  "evals/triage.eval.ts": EVAL,
  "evals/helpers.ts": EVAL,
  "src/agent.test.ts": EVAL,
  ".agents/review.eval.ts": EVAL,
};

describe("eval files: one matcher for the editor, check and run", function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "agent-lens-eval-files-"));
    for (const [rel, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const under = (files: string[]) => files.map((f) => f.slice(root.length + 1)).sort();

  it("a glob naming a folder matches relative to the workspace folder, also when run is given that folder", () => {
    const globs = ["evals/*.eval.ts"];
    assert.deepEqual(under(discoverFiles(root, [], globs)), ["evals/triage.eval.ts"]);
    assert.deepEqual(under(discoverFiles(root, ["evals"], globs)), ["evals/triage.eval.ts"], "run evals/ (was: nothing, the glob matched relative to evals/)");
    const workspace = new Workspace({ roots: [root], testGlobs: globs, readFile: () => undefined });
    assert.deepEqual(Object.keys(FILES).filter((rel) => workspace.isTestFile(join(root, rel))).sort(), ["evals/triage.eval.ts"]);
  });

  it("a file in a dot folder is an eval file for run as for the analysis (.agents/review.eval.ts)", () => {
    const workspace = new Workspace({ roots: [root], readFile: () => undefined });
    assert.equal(workspace.isTestFile(join(root, ".agents/review.eval.ts")), true);
    assert.deepEqual(under(discoverFiles(root, [".agents"])), [".agents/review.eval.ts"]);
    assert.deepEqual(under(discoverFiles(root, [])), [".agents/review.eval.ts", "evals/triage.eval.ts", "src/agent.test.ts"]);
  });

  it("the language server's catalog lists the eval files run finds (its index skips dot folders)", async () => {
    const client = await TestClient.start({ folders: [root], settings: { testGlobs: ["evals/*.eval.ts", "src/**/*.test.ts"], diagnostics: { debounceMs: 0 } } });
    try {
      await client.waitForReady();
      const catalog = await client.connection.sendRequest(CatalogRequest, {});
      const run = discoverFiles(root, [], ["evals/*.eval.ts", "src/**/*.test.ts"]);
      assert.deepEqual(catalog.evalFiles.map((e) => e.uri).sort(), run.map(uriOf).sort());
      assert.equal(run.length, 2);
    } finally {
      await client.stop();
    }
  });
});
