// The finding codes are said in four places that must agree: FINDING_CODES (shared/protocol/codes.ts, the
// default severities; a check's part generated from its descriptor), the catalogue (server/src/analysis/catalogue.ts: a line per code, SARIF's rule
// descriptions), the checks written as descriptors, and the READMEs' tables (README.md's Diagnostics,
// server/README.md's catalogue).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CODE_DESCRIPTIONS, DESCRIBED_CHECKS } from "../../server/src/analysis/catalogue";
import { FALAI_CHECKS } from "../../server/src/analysis/falai/checks/generated-registry";
import { STATELY_MACHINE_CHECKS } from "../../server/src/analysis/stately/checks/generated-registry";
import { FINDING_CODES } from "../../server/src/analysis/types";
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

  it("a check written as a descriptor: its code once, its severity the default, its line the catalogue's, a docs paragraph", () => {
    assert.ok(DESCRIBED_CHECKS.length > 0);
    assert.equal(new Set(DESCRIBED_CHECKS.map((c) => c.code)).size, DESCRIBED_CHECKS.length);
    for (const check of DESCRIBED_CHECKS) {
      assert.equal(check.severity, FINDING_CODES[check.code], check.code);
      assert.equal(CODE_DESCRIPTIONS[check.code], check.description, check.code);
      assert.ok(!check.description.includes("\n") && check.docs.length > 0 && !check.docs.includes("\n\n"), check.code);
    }
  });

  // scripts/gen-checks.mjs writes the registries and CHECK_CODES from the check folders (.mocharc.cjs runs it
  // first): a check is added by writing its file, and these hold the generated lists to the folders' files.
  for (const [dir, registry] of [["stately", STATELY_MACHINE_CHECKS], ["falai", FALAI_CHECKS]] as const) {
    it(`${dir}/checks: the registry lists every file there that exports a CheckDescriptor, by its code, and no other`, () => {
      const folder = join(ROOT, "server/src/analysis", dir, "checks");
      const files = readdirSync(folder).filter((f) => f.endsWith(".ts") && /^export const \w+: CheckDescriptor</m.test(readFileSync(join(folder, f), "utf8")));
      assert.ok(files.length >= 10, `${files.length} check files`);
      assert.deepEqual(registry.map((c) => `${c.code}.ts`), [...files].sort());
    });
  }

  it("the descriptors' codes and severities are FINDING_CODES' generated part (CHECK_CODES)", () => {
    assert.deepEqual(Object.entries(CHECK_CODES), DESCRIBED_CHECKS.map((c) => [c.code, c.severity]));
    for (const code of Object.keys(CHECK_CODES)) assert.ok(code in FINDING_CODES, code);
  });

  for (const readme of ["README.md", "server/README.md"]) {
    it(`${readme}: a table row for every code, and none for a code that does not exist`, () => {
      assert.deepEqual(tableCodes(readme), codes, `${readme}: a table row for each code (a new check needs one here)`);
    });
  }
});
