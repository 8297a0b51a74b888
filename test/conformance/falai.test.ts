// The @falai/agent document's programs, verbatim, against our runtime: each runs (esbuild + node) and
// prints `ok`, and each typechecks with `tsc --strict` against our types.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { runProgram } from "../support/run-program";

const root = resolve(__dirname, "../..");
const programsDir = join(__dirname, "programs");
const programs = readdirSync(programsDir).filter((f) => /^falai-.*\.ts$/.test(f)).sort();

describe("conformance: @falai/agent document programs", function () {
  this.timeout(120_000); // tsc over the programs takes 10–30 s on a busy machine

  it("has the document's programs to run", () => {
    assert.ok(programs.includes("falai-end-to-end.test.ts") && programs.includes("falai-replay.test.ts") && programs.includes("falai-clock.test.ts"), programs.join(", "));
  });

  for (const file of programs) {
    it(`${file} prints ok`, async () => {
      const r = await runProgram(join(programsDir, file));
      assert.equal(r.status, 0, `exit ${r.status}\n${r.stderr}`);
      assert.equal(r.stdout.trim(), "ok", r.stderr);
    });
  }

  it("every program typechecks with tsc --strict against our types", () => {
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", join(__dirname, "tsconfig.falai.json")], { encoding: "utf8", cwd: root });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it("and with exactOptionalPropertyTypes, which many projects turn on", () => {
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", join(__dirname, "tsconfig.falai.json"), "--exactOptionalPropertyTypes"], { encoding: "utf8", cwd: root });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
