import assert from "node:assert/strict";
import { FINDING_CODES, OFF_BY_DEFAULT } from "../../server/src/analysis/types";

describe("finding codes", () => {
  it("cover the design catalogue, with invoke-without-on-error off by default", () => {
    assert.equal(Object.keys(FINDING_CODES).length, 28);
    for (const code of ["unknown-flow", "unknown-event", "unknown-condition"] as const) assert.equal(FINDING_CODES[code], "error");
    assert.equal(FINDING_CODES["invoke-without-on-error"], "info");
    assert.ok(OFF_BY_DEFAULT.has("invoke-without-on-error"));
  });
});
