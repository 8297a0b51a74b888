// Every finding code comes from its descriptors (server/src/analysis/check.ts), one file each; what is
// generated from them must agree with them: FINDING_CODES (shared/protocol/codes.ts, the default
// severities, OFF_BY_DEFAULT), the catalogue (server/src/analysis/code-descriptions.ts: a line per code, SARIF's
// rule descriptions), the registries, and the READMEs' tables (README.md's Diagnostics, server/README.md's
// catalogue), which `npm run gen` writes and this holds to what the descriptors say.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ANALYSIS_CODES } from "../../server/src/analysis/analysis-codes/generated-registry";
import { CODE_DESCRIPTIONS, DESCRIBED_CODES } from "../../server/src/analysis/code-descriptions";
import { FALAI_CHECKS } from "../../server/src/analysis/falai/checks/generated-registry";
import { TARGET_CHECKS } from "../../server/src/analysis/stately/checks";
import { STATELY_MACHINE_CHECKS } from "../../server/src/analysis/stately/checks/generated-registry";
import { STATELY_EVAL_CHECKS } from "../../server/src/analysis/stately/eval-checks/generated-registry";
import { FINDING_CODES, OFF_BY_DEFAULT } from "../../server/src/analysis/types";
import { CHECK_CODES } from "../../shared/protocol/check-codes";
import { ROOT } from "../support/import-graph";

const codes = Object.keys(FINDING_CODES).sort();

/** The codes a README's tables have rows for: rows whose first cell is only codes (`a` / `b`). */
function tableCodes(readme: string): string[] {
  const text = readFileSync(join(ROOT, readme), "utf8");
  const rows = text.match(/^\| `[a-z]+(-[a-z]+)+`( \/ `[a-z]+(-[a-z]+)+`)* \|/gm) ?? [];
  return [...new Set(rows.flatMap((row) => row.match(/[a-z]+(-[a-z]+)+/g) ?? []))].sort();
}

describe("finding codes: the catalogue, the descriptors and the READMEs agree", () => {
  it("every code has one line in the catalogue, and the catalogue names no other", () => {
    assert.deepEqual(Object.keys(CODE_DESCRIPTIONS).sort(), codes);
    for (const [code, line] of Object.entries(CODE_DESCRIPTIONS)) assert.match(line, /^\S[^\n]*\.$/, code);
  });

  it("a code's descriptors: its severity the default, their lines the catalogue's, README cells", () => {
    assert.ok(DESCRIBED_CODES.length >= 32, `${DESCRIBED_CODES.length} descriptors`);
    for (const d of DESCRIBED_CODES) {
      assert.equal(d.severity, FINDING_CODES[d.code], d.code);
      assert.ok(CODE_DESCRIPTIONS[d.code].includes(d.description), d.code);
      for (const cell of [d.when, d.docs, d.quickFix ?? "-", d.severityText ?? "-"]) assert.match(cell, /^[^|\n]+$/, d.code);
    }
    assert.deepEqual([...OFF_BY_DEFAULT].sort(), DESCRIBED_CODES.filter((d) => d.offByDefault).map((d) => d.code).sort());
  });

  it("decidedByTargets only on machine checks (an edit inside a target re-runs those), and TARGET_CHECKS is them", () => {
    const decided = [...STATELY_MACHINE_CHECKS, ...STATELY_EVAL_CHECKS, ...FALAI_CHECKS].filter((c) => c.decidedByTargets);
    assert.ok(decided.length > 0);
    assert.ok(decided.every((c) => (STATELY_MACHINE_CHECKS as readonly object[]).includes(c)));
    assert.deepEqual(TARGET_CHECKS, decided.map((c) => c.run));
  });

  // scripts/gen-checks.mjs writes the registries and CHECK_CODES from the descriptor folders (.mocharc.cjs
  // runs it first): a check is added by writing its file, and these hold the generated lists to the files.
  const registries = [["stately/checks", STATELY_MACHINE_CHECKS], ["falai/checks", FALAI_CHECKS], ["stately/eval-checks", STATELY_EVAL_CHECKS], ["analysis-codes", ANALYSIS_CODES]] as const;
  for (const [dir, registry] of registries) {
    it(`${dir}: the registry lists every file there that exports a descriptor, by its code, and no other`, () => {
      const folder = join(ROOT, "server/src/analysis", dir);
      const files = readdirSync(folder).filter((f) => f.endsWith(".ts") && /^export const \w+: (CheckDescriptor|CodeDescriptor)\b/m.test(readFileSync(join(folder, f), "utf8")));
      assert.ok(files.length >= 2, `${files.length} descriptor files`);
      assert.deepEqual(registry.map((c) => `${c.code}.ts`), [...files].sort());
    });
  }

  it("FINDING_CODES is the descriptors' codes (CHECK_CODES), each once, in registry order", () => {
    assert.deepEqual(Object.keys(FINDING_CODES), Object.keys(CHECK_CODES));
    assert.deepEqual(Object.entries(CHECK_CODES), [...new Map(DESCRIBED_CODES.map((d) => [d.code, d.severity]))]);
  });

  const gen = (root: string, arg: string) => spawnSync(process.execPath, [join(root, "scripts/gen-checks.mjs"), arg], { encoding: "utf8" });

  it("the READMEs' catalogue tables are what npm run gen writes from the descriptors", () => {
    const check = gen(ROOT, "--check");
    assert.equal(check.stderr, "");
    assert.equal(check.status, 0);
  });

  it("a descriptor changed without npm run gen fails --check, naming the README; npm run gen's --readmes rewrites the row", () => {
    const copy = mkdtempSync(join(tmpdir(), "agent-lens-gen-"));
    try {
      for (const part of ["scripts/gen-checks.mjs", "README.md", "server/README.md", "server/src/analysis", "shared/protocol"]) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
      symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
      const file = join(copy, "server/src/analysis/falai/checks/duplicate-step.ts");
      writeFileSync(file, readFileSync(file, "utf8").replace(/^ {2}when: ".*",$/m, `  when: "two steps of one flow have the same id",`));
      const stale = gen(copy, "--check");
      assert.equal(stale.status, 1);
      assert.match(stale.stderr, /^README\.md: its catalogue tables differ from the check descriptors; run npm run gen$/m);
      assert.doesNotMatch(stale.stderr, /server\/README/); // the when cell is README.md's only
      assert.equal(gen(copy, "--readmes").status, 0);
      assert.equal(gen(copy, "--check").status, 0);
      assert.match(readFileSync(join(copy, "README.md"), "utf8"), /^\| `duplicate-step` \| error \| two steps of one flow have the same id \|$/m);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  for (const readme of ["README.md", "server/README.md"]) {
    it(`${readme}: a table row for every code, and none for a code that does not exist`, () => {
      assert.deepEqual(tableCodes(readme), codes, `${readme}: a table row for each code`);
    });
  }
});
