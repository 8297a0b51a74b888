// The structure gates run by the projects' own tools: madge finds no import cycle among the production
// files (type-only imports count), knip no export or exported type that nothing imports (knip.json: the
// bundles' entries, the libraries' public entries, tests, bench and scripts; a type used in its own file
// may stay exported, as part of a signature). Each gate is shown failing on a small project of its own.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRODUCTION, ROOT } from "../support/import-graph";

const MADGE = join(ROOT, "node_modules/madge/bin/cli.js");
const KNIP = join(ROOT, "node_modules/knip/bin/knip.js");

/** madge --circular's cycles (each a list of files), run in `cwd` over `paths`. */
function cycles(cwd: string, paths: string[], tsConfig?: string): string[][] {
  const r = spawnSync(process.execPath, [MADGE, "--circular", "--json", "--extensions", "ts", ...(tsConfig ? ["--ts-config", tsConfig] : []), ...paths], { cwd, encoding: "utf8" });
  assert.ok(r.stdout.trim().startsWith("["), `madge said: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as string[][];
}

/** knip's unused exports, exported types and duplicate exports, as "file: name" lines, run in `cwd`. Not
 *  held back by .gitignore: the check registries are generated, ignored files (scripts/gen-checks.mjs), and
 *  only they import the check descriptors; knip.json's globs keep dist/ and the like out. */
function unusedExports(cwd: string): string[] {
  const r = spawnSync(process.execPath, [KNIP, "--include", "exports,types,duplicates", "--reporter", "json", "--no-progress", "--no-gitignore"], { cwd, encoding: "utf8" });
  assert.ok(r.stdout.trim().startsWith("{"), `knip said: ${r.stdout}${r.stderr}`);
  const { issues } = JSON.parse(r.stdout) as { issues: Array<{ file: string; exports: Array<{ name: string }>; types: Array<{ name: string }>; duplicates: Array<Array<{ name: string }>> }> };
  return issues.flatMap((i) => [...i.exports, ...i.types, ...i.duplicates.map((d) => ({ name: d.map((x) => x.name).join(" = ") }))].map((x) => `${i.file}: ${x.name}`));
}

describe("structure: madge and knip", function () {
  this.timeout(180_000);
  let scratch: string;
  before(() => (scratch = mkdtempSync(join(tmpdir(), "agent-lens-structure-"))));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("madge --circular finds no cycle among the production files, type-only imports included", () => {
    assert.deepEqual(cycles(ROOT, PRODUCTION, "tsconfig.json"), []);
  });

  it("madge finds a cycle made of type-only imports", () => {
    const dir = join(scratch, "cycle");
    mkdirSync(dir);
    writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b";\nexport interface A { b?: B }\n');
    writeFileSync(join(dir, "b.ts"), 'import type { A } from "./a";\nexport interface B { a?: A }\n');
    assert.deepEqual(cycles(dir, ["a.ts", "b.ts"]), [["a.ts", "b.ts"]]);
  });

  it("knip finds no unused export, exported type or duplicate export", () => {
    assert.deepEqual(unusedExports(ROOT), []);
  });

  it("knip finds an export nothing imports", () => {
    const dir = join(scratch, "exports");
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "package.json"), '{ "name": "exports", "private": true }\n');
    writeFileSync(join(dir, "knip.json"), '{ "entry": ["src/index.ts"], "project": ["src/**/*.ts"] }\n');
    writeFileSync(join(dir, "src/index.ts"), 'import { used } from "./lib";\nconsole.log(used);\n');
    writeFileSync(join(dir, "src/lib.ts"), "export const used = 1;\nexport const unused = 2;\n");
    assert.deepEqual(unusedExports(dir), ["src/lib.ts: unused"]);
  });
});
