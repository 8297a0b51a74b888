// A cached bundle is reused only when nothing the build read has changed: not only the files esbuild bundled,
// but every tsconfig of the extends chain, the package.json files it consulted, and the places it looked
// for a file and found none. Each case: a first run passes, a change the old cache key did not see makes the
// same file fail for real — the second run must fail too (it passed on the stale bundle). And concurrent
// runs of one file while it is edited never remove each other's bundle.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleEvalFile, type BundleMeta } from "../../runtime/src/harness/bundle";
import { harnessAssets } from "../../runtime/src/harness/assets";
import { HarnessChild } from "../../runtime/src/harness/child-process";
import { ChannelReader } from "../../runtime/src/harness/channel-reader";
import { cliPath, runCollect, suiteCache, suiteWorkspaces, writeFiles } from "./support";

/** An eval that asserts which module its import reached. */
const evalOf = (specifier: string, expected: string) =>
  `import assert from "node:assert/strict";\nimport { value } from ${JSON.stringify(specifier)};\nassert.equal(value, ${JSON.stringify(expected)});\n`;

describe("harness: stale bundles", function () {
  this.timeout(120_000);
  const cacheDir = suiteCache();
  const workspace = suiteWorkspaces();

  /** Runs the eval, changes the workspace, runs it again: the second run must see the change. */
  async function staleCase(files: Record<string, string>, change: (ws: string) => void, expectedAfter: RegExp): Promise<void> {
    const ws = workspace(files);
    const file = join(ws, "eval.test.ts");
    const first = await runCollect({ file, cacheDir: cacheDir() });
    assert.equal(first.result.status, "passed", JSON.stringify(first.result.tests.map((t) => t.failure?.message)));
    const again = await runCollect({ file, cacheDir: cacheDir() });
    assert.equal(again.result.bundle.cached, true, "unchanged: the cached bundle is used");
    change(ws);
    const second = await runCollect({ file, cacheDir: cacheDir() });
    assert.equal(second.result.bundle.cached, false, "the change invalidated the cached bundle");
    assert.equal(second.result.status, "failed");
    assert.match(second.result.tests[0]?.failure?.message ?? "", expectedAfter);
  }

  it("a base tsconfig (extends) whose paths change", async () => {
    await staleCase({
      "tsconfig.json": JSON.stringify({ extends: "./config/base.json" }),
      "config/base.json": JSON.stringify({ compilerOptions: { baseUrl: "..", paths: { "@lib/*": ["lib-a/*"] } } }),
      "lib-a/value.ts": `export const value = "a";\n`,
      "lib-b/value.ts": `export const value = "b";\n`,
      "eval.test.ts": evalOf("@lib/value", "a"),
    }, (ws) => writeFileSync(join(ws, "config/base.json"), JSON.stringify({ compilerOptions: { baseUrl: "..", paths: { "@lib/*": ["lib-b/*"] } } })), /'b' !== 'a'/);
  });

  it("a base tsconfig from a package (extends \"@acme/tsconfig\") whose paths change", async () => {
    await staleCase({
      "tsconfig.json": `// JSONC, as tsconfig files are\n{ "extends": "@acme/tsconfig/base.json", }\n`,
      "node_modules/@acme/tsconfig/package.json": JSON.stringify({ name: "@acme/tsconfig", version: "1.0.0" }),
      "node_modules/@acme/tsconfig/base.json": JSON.stringify({ compilerOptions: { baseUrl: "../../..", paths: { "@lib/*": ["lib-a/*"] } } }),
      "lib-a/value.ts": `export const value = "a";\n`,
      "lib-b/value.ts": `export const value = "b";\n`,
      "eval.test.ts": evalOf("@lib/value", "a"),
    }, (ws) => writeFileSync(join(ws, "node_modules/@acme/tsconfig/base.json"), JSON.stringify({ compilerOptions: { baseUrl: "../../..", paths: { "@lib/*": ["lib-b/*"] } } })), /'b' !== 'a'/);
  });

  it("helper.ts added beside helper.js for an extensionless import", async () => {
    await staleCase({
      "helper.js": `export const value = "js";\n`,
      "eval.test.ts": evalOf("./helper", "js"),
    }, (ws) => writeFileSync(join(ws, "helper.ts"), `export const value: string = "ts";\n`), /'ts' !== 'js'/);
  });

  it("lib.ts added beside lib/index.ts", async () => {
    await staleCase({
      "lib/index.ts": `export const value = "folder";\n`,
      "eval.test.ts": evalOf("./lib", "folder"),
    }, (ws) => writeFileSync(join(ws, "lib.ts"), `export const value = "file";\n`), /'file'/);
  });

  it("a folder's package.json whose main changes", async () => {
    await staleCase({
      "pkg/package.json": JSON.stringify({ main: "./a.js" }),
      "pkg/a.js": `export const value = "a";\n`,
      "pkg/b.js": `export const value = "b";\n`,
      "eval.test.ts": evalOf("./pkg", "a"),
    }, (ws) => writeFileSync(join(ws, "pkg/package.json"), JSON.stringify({ main: "./b.js" })), /'b' !== 'a'/);
  });

  it("an installed package whose package.json points elsewhere (it stays external: the bundle names its file)", async () => {
    await staleCase({
      "node_modules/dep/package.json": JSON.stringify({ name: "dep", version: "1.0.0", type: "module", exports: "./a.js" }),
      "node_modules/dep/a.js": `export const value = "a";\n`,
      "node_modules/dep/b.js": `export const value = "b";\n`,
      "eval.test.ts": evalOf("dep", "a"),
    }, (ws) => writeFileSync(join(ws, "node_modules/dep/package.json"), JSON.stringify({ name: "dep", version: "1.0.0", type: "module", exports: "./b.js" })), /'b' !== 'a'/);
  });

  it("a nearer node_modules copy of a package appears beside the importing file", async () => {
    await staleCase({
      "node_modules/dep/package.json": JSON.stringify({ name: "dep", version: "1.0.0", type: "module", exports: "./index.js" }),
      "node_modules/dep/index.js": `export const value = "root";\n`,
      "evals/eval.test.ts": evalOf("dep", "root"),
      "eval.test.ts": `import "./evals/eval.test.ts";\n`,
    }, (ws) => writeFiles(ws, {
      "evals/node_modules/dep/package.json": JSON.stringify({ name: "dep", version: "2.0.0", type: "module", exports: "./index.js" }),
      "evals/node_modules/dep/index.js": `export const value = "near";\n`,
    }), /'near' !== 'root'/);
  });

  it("the bundle a run is about to load survives a rebuild of the edited file by another run (was ENOENT, blamed on fd 3)", async () => {
    const ws = workspace({ "eval.test.ts": `console.log("version 1");\n` });
    const file = join(ws, "eval.test.ts");
    // Run A decides on version 1's bundle…
    const a = await bundleEvalFile({ entry: file, workspace: ws, cacheDir: cacheDir() });
    assert.ok(a.ok);
    // …run B, started after an edit, builds version 2 (the old code removed version 1's bundle here)…
    writeFileSync(file, `console.log("version 2");\n`);
    const b = await bundleEvalFile({ entry: file, workspace: ws, cacheDir: cacheDir() });
    assert.ok(b.ok && b.meta.key !== a.meta.key);
    // …and run A's child then loads version 1.
    const said = await runChild(a.metaFile, a.meta, ws);
    assert.equal(said.exitCode, 0, said.channel);
    assert.match(said.channel, /"text":"version 1\\n"/);
    assert.match(said.channel, /"status":"passed"/);
  });

  it("the same file run 4 times at once while it is edited: every run passes", async () => {
    const ws = workspace({ "eval.test.ts": `console.log("v0");\n` });
    const file = join(ws, "eval.test.ts");
    const runs: Array<Promise<{ code: number | null; out: string }>> = [];
    for (let round = 0; round < 6; round++) {
      writeFileSync(file, `console.log("v${round}");\n${"// padding\n".repeat(round)}`);
      for (let i = 0; i < 4; i++) {
        runs.push(new Promise((done) => {
          const cli = spawn(process.execPath, [cliPath(), "run", "eval.test.ts"], { cwd: ws, env: { ...process.env, AGENT_LENS_CACHE_DIR: cacheDir(), NO_COLOR: "1" } });
          let out = "";
          cli.stdout.on("data", (d: Buffer) => (out += d.toString()));
          cli.stderr.on("data", (d: Buffer) => (out += d.toString()));
          cli.once("close", (code) => done({ code, out }));
        }));
      }
      await new Promise((r) => setTimeout(r, 40));
    }
    const results = await Promise.all(runs);
    assert.deepEqual(results.filter((r) => r.code !== 0).map((r) => r.out), [], "every run passed");
  });
});

/** Runs a bundle's metadata file in a real harness child; its exit code and what it said on the channel. */
async function runChild(metaFile: string, meta: BundleMeta, cwd: string): Promise<{ exitCode: number | null; channel: string }> {
  const child = new HarnessChild({ cwd, env: { ...process.env }, heapMb: 256, nodeTest: meta.usesNodeTest, cacheDir: join(metaFile, "../..") }, harnessAssets());
  const reader = new ChannelReader(child.channelSecret);
  let channel = "";
  child.channel.on("data", (chunk: Buffer) => {
    for (const item of reader.push(chunk)) channel += item.kind === "frame" ? `${JSON.stringify(item.frame)}\n` : `${item.kind}\n`;
  });
  child.run(metaFile);
  const exit = await child.exited;
  await child.drained(2000);
  child.release();
  assert.ok(existsSync(metaFile));
  return { exitCode: exit.code, channel };
}
