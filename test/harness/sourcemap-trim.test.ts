// trimSourceMap keeps the mappings of the sources asked for (exactly as they were) and drops the rest,
// ending a kept mapping where a dropped one began; `keep` is asked once per source. The maps are read back
// with Node's own SourceMap, so the check does not depend on our decoder.
import assert from "node:assert/strict";
import { SourceMap } from "node:module";
import { encodeVlq as vlq, trimSourceMap, type RawSourceMap } from "../../runtime/src/harness/sourcemap-trim";

/** A map from absolute segments [genLine][] = [genColumn, source, line, column, name?] (or [genColumn] alone). */
function encodeMap(lines: number[][][], sources: string[]): RawSourceMap {
  const prev = { source: 0, line: 0, column: 0, name: 0 };
  const mappings = lines.map((segments) => {
    let genColumn = 0;
    return segments.map((s) => {
      let out = vlq(s[0]! - genColumn);
      genColumn = s[0]!;
      if (s.length >= 4) {
        out += vlq(s[1]! - prev.source) + vlq(s[2]! - prev.line) + vlq(s[3]! - prev.column);
        prev.source = s[1]!;
        prev.line = s[2]!;
        prev.column = s[3]!;
        if (s.length >= 5) {
          out += vlq(s[4]! - prev.name);
          prev.name = s[4]!;
        }
      }
      return out;
    }).join(",");
  }).join(";");
  return { version: 3, sources, names: ["a", "b", "c"], mappings };
}

function randomMap(seed: number, lineCount: number, sources: string[]): { map: RawSourceMap; lines: number[][][] } {
  let x = seed;
  const rand = (n: number) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % n;
  };
  const lines: number[][][] = [];
  for (let l = 0; l < lineCount; l++) {
    const segments: number[][] = [];
    let column = 0;
    for (let k = rand(6); k > 0; k--) {
      column += 1 + rand(40);
      const kind = rand(10);
      if (kind === 0) segments.push([column]);
      else if (kind < 4) segments.push([column, rand(sources.length), rand(5000), rand(200), rand(3)]);
      else segments.push([column, rand(sources.length), rand(5000), rand(200)]);
    }
    lines.push(segments);
  }
  return { map: encodeMap(lines, sources), lines };
}

describe("harness: source-map trimming", () => {
  const sources = ["user.ts", "node_modules/zod/index.js", "runtime/index.mjs", "node_modules/ai/index.js"];
  const wanted = new Set([0, 2]);

  it("keeps every segment of a kept source exactly and maps nothing to a dropped one", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { map, lines } = randomMap(seed, 60, sources);
      const trimmed = new SourceMap(trimSourceMap(map, (i) => wanted.has(i)) as never);
      for (let l = 0; l < lines.length; l++) {
        for (const s of lines[l]!) {
          const entry = trimmed.findEntry(l, s[0]!) as { originalSource?: string; originalLine?: number; originalColumn?: number; generatedColumn?: number };
          if (s.length >= 4 && wanted.has(s[1]!)) {
            assert.equal(entry.generatedColumn, s[0], `seed ${seed} line ${l}`);
            assert.equal(entry.originalLine, s[2]);
            assert.equal(entry.originalColumn, s[3]);
            assert.ok(entry.originalSource?.endsWith(sources[s[1]!]!));
          } else if (entry.originalSource) {
            // A dropped position must not fall back on an earlier kept mapping.
            assert.fail(`seed ${seed} line ${l} column ${s[0]}: a dropped segment still maps to ${entry.originalSource}`);
          }
        }
      }
    }
  });

  it("keeping every source changes nothing that a reader sees; keeping none leaves no mapping", () => {
    const { map, lines } = randomMap(7, 40, sources);
    const all = new SourceMap(trimSourceMap(map, () => true) as never);
    const original = new SourceMap(map as never);
    for (let l = 0; l < lines.length; l++) {
      for (const s of lines[l]!) {
        const seen = (e: object) => {
          const { originalSource, originalLine, originalColumn } = e as Record<string, unknown>;
          return { originalSource, originalLine, originalColumn };
        };
        assert.deepEqual(seen(all.findEntry(l, s[0]!)), seen(original.findEntry(l, s[0]!)));
      }
    }
    assert.equal(trimSourceMap(map, () => false).mappings.replace(/[;,A]/g, ""), "", "only source-less segments remain");
  });

  it("asks keep once per source, however many segments there are", () => {
    const { map } = randomMap(3, 500, sources);
    const asked: number[] = [];
    trimSourceMap(map, (i) => {
      asked.push(i);
      return true;
    });
    assert.deepEqual(asked, [0, 1, 2, 3]);
  });

  it("refuses a mapping that is not base64 VLQ", () => {
    assert.throws(() => trimSourceMap({ version: 3, sources: ["a"], mappings: "AA!A" }, () => true), /bad VLQ digit/);
  });
});
