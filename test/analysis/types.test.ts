import assert from "node:assert/strict";
import { FINDING_CODES, OFF_BY_DEFAULT } from "../../server/src/analysis/types";

describe("finding codes", () => {
  it("cover the design catalogue, with invoke-without-on-error off by default", () => {
    // nothing skipped silently: a skip is said (info), a failed analysis is an error (check exits 1)
    assert.equal(FINDING_CODES["analysis-skipped"], "info");
    assert.equal(FINDING_CODES["analysis-failed"], "error");
    for (const code of ["unknown-flow", "unknown-event", "unknown-condition"] as const) assert.equal(FINDING_CODES[code], "error");
    assert.equal(FINDING_CODES["invoke-without-on-error"], "info");
    assert.ok(OFF_BY_DEFAULT.has("invoke-without-on-error"));
  });
});
