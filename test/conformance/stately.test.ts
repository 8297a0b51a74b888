// The seed's @statelyai/agent examples, assembled into programs (test/conformance/programs/stately-*),
// run against our runtime and must print `ok`; and they must typecheck under tsc --strict.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { runProgram } from "../support/run-program";

const root = resolve(__dirname, "../..");
const programsDir = join(root, "test/conformance/programs");
const programs = readdirSync(programsDir).filter((f) => /^stately-.*\.test\.ts$/.test(f)).sort();

describe("conformance: @statelyai/agent seed programs", function () {
  this.timeout(240_000);

  it("finds the seed programs", () => {
    assert.ok(programs.length >= 3, `expected the stately seed programs, found ${programs.join(", ")}`);
  });

  for (const file of programs) {
    it(`${file} prints ok`, async () => {
      const result = await runProgram(join(programsDir, file));
      assert.equal(result.status, 0, `exit ${result.status}\n${result.stderr}`);
      assert.equal(result.stdout.trim(), "ok", result.stderr);
    });
  }

  it("typechecks under tsc --strict against our types", () => {
    const tsc = join(root, "node_modules/.bin/tsc");
    const r = spawnSync(tsc, ["-p", join(root, "test/conformance/tsconfig.stately.json")], { encoding: "utf8", cwd: root });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
