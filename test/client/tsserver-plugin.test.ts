// The TypeScript server plugin (client/tsserver-plugin, built into dist/) in a real tsserver, loaded the
// way VS Code loads a contributed plugin: on a copy of examples/ with nothing installed, TypeScript
// resolves the libraries to the declarations we ship, reports no missing module and no implicit any, and
// still reports real type errors; a workspace's own copy always wins.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { TsServer, type TsDiagnostic } from "./support/tsserver";

const ROOT = resolve(__dirname, "../..");
const PLUGIN = "agent-lens-tsserver-plugin";
const TYPES = join(ROOT, "dist/types/node_modules");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !join(e.parentPath, e.name).includes("node_modules"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function diagnostics(server: TsServer, file: string): Promise<TsDiagnostic[]> {
  const syntactic = await server.request<TsDiagnostic[]>("syntacticDiagnosticsSync", { file });
  const semantic = await server.request<TsDiagnostic[]>("semanticDiagnosticsSync", { file });
  return [...syntactic, ...semantic];
}

describe("TypeScript server plugin: the bundled libraries' types in a workspace without them", function () {
  this.timeout(120_000);
  let scratch = "";
  let ws = "";
  let server: TsServer;

  before(() => {
    assert.ok(existsSync(join(ROOT, "dist/tsserver-plugin/index.js")) && existsSync(join(TYPES, "@statelyai/agent/package.json")), "run npm run build first");
    assert.ok(existsSync(join(ROOT, "node_modules", PLUGIN, "package.json")), "the plugin is linked into node_modules (npm ci)");
    scratch = mkdtempSync(join(tmpdir(), "agent-lens-tsplugin-"));
    ws = join(scratch, "examples");
    cpSync(join(ROOT, "examples"), ws, { recursive: true });
    server = TsServer.start(ROOT, { plugins: [PLUGIN], probeLocations: [ROOT] });
  });

  after(() => {
    server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("every file of examples/ type-checks clean: no missing module, no implicit any", async () => {
    const files = tsFiles(ws);
    assert.ok(files.length >= 10, "the examples are there");
    for (const file of files) server.open(file, ws);
    const found: string[] = [];
    for (const file of files) for (const d of await diagnostics(server, file)) found.push(`${relative(ws, file)}:${d.start.line} TS${d.code} ${d.text}`);
    assert.deepEqual(found, []);
  });

  it("hover and go to definition lead into the generated declarations of our runtime", async () => {
    const file = join(ws, "stately/email-agent.test.ts");
    const info = await server.request<{ displayString: string; documentation: string }>("quickinfo", { file, line: 10, offset: 20 });
    assert.match(info.displayString, /runSeam/);
    assert.match(info.documentation, /seam/i, "the runtime's own doc comment");
    const defs = await server.request<Array<{ file: string }>>("definition", { file, line: 10, offset: 20 });
    assert.ok(defs.some((d) => realpathSync(d.file).startsWith(realpathSync(join(TYPES, "@statelyai/agent")))), `definition in our declarations: ${defs.map((d) => d.file)}`);
  });

  it("TypeScript's own type errors still show (a wrong type against zod's and the runtime's types)", async () => {
    const file = join(ws, "stately/typo.ts");
    writeFileSync(file, [
      `import { z } from "zod";`,
      `import { setupAgent } from "@statelyai/agent";`,
      `const n: number = z.string().parse("x");`,
      `setupAgent({ requests: { r: { model: 42 } } });`,
      `export { n };`,
    ].join("\n"));
    server.open(file, ws);
    const codes = (await diagnostics(server, file)).map((d) => `${d.start.line} TS${d.code}`);
    assert.ok(codes.includes("3 TS2322"), `a string is not a number: ${codes}`);
    assert.ok(codes.some((c) => c.startsWith("4 ")), `a model is a string: ${codes}`);
    assert.ok(!codes.some((c) => c.endsWith("TS2307")), "no missing module");
  });

  it("a workspace's own installed copy wins over ours, and its zod (same major) stands in for ours inside our declarations", async () => {
    const own = join(scratch, "own");
    mkdirSync(join(own, "node_modules/@falai/agent"), { recursive: true });
    writeFileSync(join(own, "node_modules/@falai/agent/package.json"), JSON.stringify({ name: "@falai/agent", version: "9.0.0", types: "index.d.ts" }));
    writeFileSync(join(own, "node_modules/@falai/agent/index.d.ts"), `export declare const ownCopy: "the workspace's";\n`);
    symlinkSync(join(ROOT, "node_modules/zod"), join(own, "node_modules/zod"), "dir");
    writeFileSync(join(own, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "ESNext", moduleResolution: "Bundler", target: "ES2022", noEmit: true, skipLibCheck: true } }));
    const file = join(own, "agent.ts");
    writeFileSync(file, [
      `import { ownCopy } from "@falai/agent";`,
      `import { setupAgent } from "@statelyai/agent";`,
      `import { z } from "zod";`,
      `export const a = setupAgent({ input: z.object({ topic: z.string() }), context: z.object({ topic: z.string() }), requests: {} });`,
      `export const b = ownCopy;`,
    ].join("\n"));
    server.open(file, own);
    assert.deepEqual((await diagnostics(server, file)).map((d) => `TS${d.code} ${d.text}`), []);
    const info = await server.request<{ displayString: string }>("quickinfo", { file, line: 5, offset: 18 });
    assert.match(info.displayString, /the workspace's/);
    const project = await server.request<{ fileNames: string[] }>("projectInfo", { file, needFileNameList: true });
    const zodFiles = project.fileNames.filter((f) => /[\\/]zod[\\/]/.test(f)).map((f) => realpathSync(f));
    assert.ok(zodFiles.length > 0, "zod is in the program");
    assert.ok(zodFiles.every((f) => !f.startsWith(realpathSync(TYPES))), `one zod, the workspace's: ${zodFiles.filter((f) => f.startsWith(realpathSync(TYPES))).slice(0, 3)}`);
    assert.ok(project.fileNames.some((f) => realpathSync(f).startsWith(realpathSync(join(TYPES, "@statelyai/agent")))), "our @statelyai/agent, which the workspace lacks");
  });

  it("without the plugin the same files fail with 'Cannot find module' (so the check above means something)", async () => {
    const bare = TsServer.start(ROOT, { plugins: [], probeLocations: [] });
    try {
      const file = join(ws, "stately/email-agent.ts");
      bare.open(file, ws);
      const codes = (await diagnostics(bare, file)).map((d) => d.code);
      assert.ok(codes.includes(2307), `Cannot find module: ${codes}`);
    } finally {
      bare.close();
    }
  });
});
