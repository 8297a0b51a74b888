// The library layer: the managed libraries a file imports are built once, into their own modules in the
// cache, and the file's bundle imports them. One instance of every module, shared between files with the
// same imports, rebuilt when a file of it changed on disk, never in the way of esbuild's own errors.
import assert from "node:assert/strict";
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { bundleEvalFile, type BundleMeta } from "../../runtime/src/harness/index";
import { ensureBuilt, fixtures, runCollect, tempDir, testEnds } from "./support";

const dir = join(fixtures, "layer");

async function metaOf(file: string, cacheDir: string, workspace = dir): Promise<BundleMeta & { cached: boolean }> {
  const r = await bundleEvalFile({ entry: file, workspace, cacheDir });
  assert.ok(r.ok, r.ok ? "" : r.failure.message);
  return { ...r.meta, cached: r.cached };
}

const layerDirOf = (meta: BundleMeta) => dirname(meta.libs!.entries[0]!);

describe("harness: the library layer", function () {
  this.timeout(120_000);
  let cacheDir = "";
  before(() => {
    ensureBuilt();
    cacheDir = tempDir("cache");
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  it("keeps one instance of every module across specifiers (zod and zod/v4/core) and our runtime", async () => {
    const { result, events } = await runCollect({ file: join(dir, "one-instance.test.ts"), cacheDir });
    assert.equal(result.status, "passed", JSON.stringify(testEnds(events)));
    assert.ok(events.some((e) => e.type === "console" && e.text === "one instance\n"));
    const meta = await metaOf(join(dir, "one-instance.test.ts"), cacheDir);
    assert.equal(meta.libs?.entries.length, 3, "one entry per imported specifier");
    assert.doesNotMatch(readFileSync(meta.bundle, "utf8"), /\$ZodType = /, "the user's bundle holds none of zod");
  });

  it("files importing the same libraries share one layer; each file's own bundle is its code alone", async () => {
    const a = await metaOf(join(dir, "one-instance.test.ts"), cacheDir);
    const b = await metaOf(join(dir, "same-imports.test.ts"), cacheDir);
    assert.equal(layerDirOf(b), layerDirOf(a));
    assert.deepEqual(b.libs!.files, a.libs!.files);
    assert.equal((await runCollect({ file: join(dir, "same-imports.test.ts"), cacheDir })).result.status, "passed");
  });

  it("an edited file rebuilds its own code only; a changed layer file is rebuilt, never run", async () => {
    const ws = tempDir("layer-ws");
    cpSync(dir, ws, { recursive: true });
    const file = join(ws, "one-instance.test.ts");
    const first = await metaOf(file, cacheDir, ws);
    const layerJson = join(layerDirOf(first), "layer.json");
    const builtAt = statSync(layerJson).mtimeMs;
    writeFileSync(file, `${readFileSync(file, "utf8")}\nconsole.log("edited");\n`);
    const edited = await metaOf(file, cacheDir, ws);
    assert.equal(edited.cached, false);
    assert.notEqual(edited.key, first.key);
    assert.equal(layerDirOf(edited), layerDirOf(first));
    assert.equal(statSync(layerJson).mtimeMs, builtAt, "the layer was not rebuilt");
    // Someone changes a file of the layer (without its recorded hash): the layer is rebuilt before it runs.
    const chunk = edited.libs!.files.find((f) => f.file.includes("chunk-"))!.file;
    writeFileSync(chunk, `console.log("planted code ran");\n${readFileSync(chunk, "utf8")}`);
    const { result, events } = await runCollect({ file, workspace: ws, cacheDir });
    assert.equal(result.status, "passed");
    assert.equal(result.bundle.cached, false);
    assert.doesNotMatch(readFileSync(chunk, "utf8"), /planted code ran/);
    assert.ok(!events.some((e) => e.type === "console" && e.text.includes("planted code ran")), "the changed layer file did not run");
    assert.ok(events.some((e) => e.type === "console" && e.text === "edited\n"));
    rmSync(ws, { recursive: true, force: true });
  });

  it("a name the library does not export fails before anything runs, with esbuild's message and place", async () => {
    const { result } = await runCollect({ file: join(dir, "missing-export.test.ts"), cacheDir });
    assert.equal(result.status, "failed");
    assert.equal(result.process, undefined, "no process started");
    const failure = result.tests[0]!.failure!;
    assert.equal(failure.code, "missing-import");
    assert.match(failure.message, /^No matching export in ".*statelyai-agent-testing\.mjs" for import "notExported"$/);
    assert.deepEqual(failure.location, { file: join(dir, "missing-export.test.ts"), line: 2, column: 19 });
  });

  it("a require() of a managed package keeps the libraries in the file's bundle (not split), and runs", async () => {
    const file = join(dir, "cjs/requires-zod.test.js");
    const { result, events } = await runCollect({ file, cacheDir });
    assert.equal(result.status, "passed");
    assert.ok(events.some((e) => e.type === "console" && e.text === "required zod\n"));
    const meta = await metaOf(file, cacheDir, join(dir, "cjs"));
    assert.equal(meta.libs, undefined);
    assert.match(readFileSync(meta.bundle, "utf8"), /ZodType/, "zod is in the bundle");
  });

  it("layers live in the cache only", () => {
    assert.ok(readdirSync(join(cacheDir, "libraries")).length > 0);
    assert.ok(!readdirSync(dir).includes("libraries"));
  });
});
