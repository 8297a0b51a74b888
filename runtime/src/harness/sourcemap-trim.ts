// Keeps only the source-map segments that point into the sources we want mapped (the user's files and
// our runtime), dropping those of bundled packages (zod, xstate, ai...). The child formats stacks with
// --enable-source-maps, which parses the whole map the first time a stack is read: a map of the user's
// code is a few KB, a map with zod and ai in it is megabytes.
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

function decodeSegment(text: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = B64_INDEX.get(ch);
    if (digit === undefined) throw new Error(`bad VLQ digit ${ch}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

function encode(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let s = "";
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    s += B64[digit];
  } while (v > 0);
  return s;
}

export interface RawSourceMap {
  version: number;
  sources: string[];
  names?: string[];
  mappings: string;
  [key: string]: unknown;
}

/** A copy of `map` whose mappings keep only segments whose source index passes `keep`. */
export function trimSourceMap(map: RawSourceMap, keep: (sourceIndex: number) => boolean): RawSourceMap {
  const state = { source: 0, line: 0, column: 0, name: 0 };
  const out = { source: 0, line: 0, column: 0, name: 0 };
  // Where mappings are dropped, one source-less segment ends the mapping before (a lookup takes the
  // nearest earlier mapping, even from an earlier line, which may be the user's code).
  let open = false;
  const lines = map.mappings.split(";").map((line) => {
    let genColumn = 0;
    let outGenColumn = 0;
    const kept: string[] = [];
    for (const segment of line ? line.split(",") : []) {
      const f = decodeSegment(segment);
      genColumn += f[0]!;
      const mapsSomething = f.length >= 4;
      if (mapsSomething) {
        state.source += f[1]!;
        state.line += f[2]!;
        state.column += f[3]!;
        if (f.length >= 5) state.name += f[4]!;
      }
      if (!mapsSomething || !keep(state.source)) {
        if (open) {
          kept.push(encode(genColumn - outGenColumn));
          outGenColumn = genColumn;
          open = false;
        }
        continue;
      }
      open = true;
      let s = encode(genColumn - outGenColumn) + encode(state.source - out.source) + encode(state.line - out.line) + encode(state.column - out.column);
      outGenColumn = genColumn;
      out.source = state.source;
      out.line = state.line;
      out.column = state.column;
      if (f.length >= 5) {
        s += encode(state.name - out.name);
        out.name = state.name;
      }
      kept.push(s);
    }
    return kept.join(",");
  });
  return { ...map, mappings: lines.join(";") };
}
