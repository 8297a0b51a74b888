// Which files `agent-lens run` picks: the test globs (or .vscode settings), skipping node_modules, .git
// and .gitignored paths; explicit files, folders and globs; --shard slices.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { discoverFiles, shardOf } from "../../runtime/src/harness/discover";
import { testGlobsOf, DEFAULT_TEST_GLOBS } from "@agent-lens/settings";
import { tempDir } from "./support";

describe("harness: file discovery", () => {
  let ws: string;
  before(() => {
    ws = tempDir("discover");
    const files = [
      "a.test.ts", "b.spec.mts", "c.eval.js", "d.test.mjs", "helper.ts", "notes.test.md",
      "src/deep/e.eval.ts", "node_modules/pkg/x.test.ts", "generated/f.test.ts", "src/keep/g.test.ts", "src/keep/skip.test.ts",
    ];
    for (const f of files) {
      mkdirSync(join(ws, f, ".."), { recursive: true });
      writeFileSync(join(ws, f), "");
    }
    writeFileSync(join(ws, ".gitignore"), "generated/\n");
    writeFileSync(join(ws, "src/keep/.gitignore"), "skip.test.ts\n");
  });
  after(() => rmSync(ws, { recursive: true, force: true }));

  const rel = (files: string[]) => files.map((f) => relative(ws, f));

  it("defaults to the test globs, skipping node_modules and .gitignored files (nested .gitignore too)", () => {
    assert.deepEqual(rel(discoverFiles(ws, [])), ["a.test.ts", "b.spec.mts", "c.eval.js", "d.test.mjs", "src/deep/e.eval.ts", "src/keep/g.test.ts"]);
  });

  it("takes explicit files, folders (searched with the globs) and glob patterns", () => {
    assert.deepEqual(rel(discoverFiles(ws, ["helper.ts"])), ["helper.ts"]);
    assert.deepEqual(rel(discoverFiles(ws, ["src"])), ["src/deep/e.eval.ts", "src/keep/g.test.ts"]);
    assert.deepEqual(rel(discoverFiles(ws, ["**/*.eval.*"])), ["c.eval.js", "src/deep/e.eval.ts"]);
  });

  it("reads agentLens.testGlobs from .vscode/settings.json (JSONC)", () => {
    assert.deepEqual(testGlobsOf(ws), DEFAULT_TEST_GLOBS);
    mkdirSync(join(ws, ".vscode"), { recursive: true });
    writeFileSync(join(ws, ".vscode/settings.json"), `{\n  // ours\n  "agentLens.testGlobs": ["**/*.eval.ts"],\n}\n`);
    try {
      assert.deepEqual(testGlobsOf(ws), ["**/*.eval.ts"]);
      assert.deepEqual(rel(discoverFiles(ws, [])), ["src/deep/e.eval.ts"]);
    } finally {
      rmSync(join(ws, ".vscode"), { recursive: true, force: true });
    }
  });

  it("--shard i/n gives disjoint slices that cover the list", () => {
    const items = Array.from({ length: 7 }, (_, i) => i);
    const slices = [1, 2, 3].map((i) => shardOf(items, i, 3));
    assert.deepEqual(slices, [[0, 3, 6], [1, 4], [2, 5]]);
  });
});
