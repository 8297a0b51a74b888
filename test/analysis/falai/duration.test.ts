import assert from "node:assert/strict";
import { formatDuration, parseDuration } from "../../../server/src/analysis/falai/duration";

describe("falai durations", () => {
  it("parses the documented forms and milliseconds", () => {
    assert.equal(parseDuration("24h"), 86_400_000);
    assert.equal(parseDuration("2d"), 2 * 86_400_000);
    assert.equal(parseDuration("90m"), 90 * 60_000);
    assert.equal(parseDuration("1h30m"), 90 * 60_000);
    assert.equal(parseDuration("30s"), 30_000);
    assert.equal(parseDuration("500ms"), 500);
    assert.equal(parseDuration(" 24h "), 86_400_000, "surrounding spaces are ignored, as the runtime does");
    assert.equal(parseDuration("30m1h"), 90 * 60_000, "any order, as the runtime accepts");
    assert.equal(parseDuration("1.5h"), 90 * 60_000);
    assert.equal(parseDuration("1d2h3m4s5ms"), 86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_000 + 5);
    assert.equal(parseDuration(1500), 1500);
    assert.equal(parseDuration(0), 0);
  });

  it("rejects what is not a duration", () => {
    for (const bad of ["", " ", "24", "h", "24x", "24 h", "1h 30m", "1w", "1,5h", "-1h", "1hh", "2 days", "1.h", "ms", "24H"]) {
      assert.equal(parseDuration(bad), undefined, bad);
    }
    assert.equal(parseDuration(-1), undefined);
    assert.equal(parseDuration(Number.NaN), undefined);
    assert.equal(parseDuration(Number.POSITIVE_INFINITY), undefined);
  });

  it("formats milliseconds for hovers", () => {
    assert.equal(formatDuration(90 * 60_000), "1h 30m");
    assert.equal(formatDuration(2 * 86_400_000), "2d");
    assert.equal(formatDuration(0), "0s");
  });
});
