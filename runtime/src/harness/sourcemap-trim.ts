// Keeps only the source-map segments that point into the sources we want mapped (the user's files and
// our runtime), dropping those of bundled packages (zod, xstate, ai...). The child formats stacks with
// --enable-source-maps, which parses the whole map the first time a stack is read: a map of the user's
// code is a few KB, a map with zod and ai in it is megabytes.
//
// The map of a bundle with ai in it has ~900 000 characters of mappings and ~100 000 segments, so this
// is one pass over the string with a table lookup per character; the caller's `keep` runs once per
// source, not once per segment.
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_VALUE[B64.charCodeAt(i)] = i;
const COMMA = 44;
const SEMICOLON = 59;

/** One base64 VLQ field. */
export function encodeVlq(n: number): string {
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

/** A copy of `map` whose mappings keep only segments whose source index passes `keep` (asked once per source). */
export function trimSourceMap(map: RawSourceMap, keep: (sourceIndex: number) => boolean): RawSourceMap {
  const kept = map.sources.map((_, i) => keep(i));
  const text = map.mappings;
  // Absolute values of the input (running sums) and of the last segment written to the output.
  let source = 0, line = 0, column = 0, name = 0;
  let outSource = 0, outLine = 0, outColumn = 0, outName = 0;
  // Where mappings are dropped, one source-less segment ends the mapping before (a lookup takes the
  // nearest earlier mapping, even from an earlier line, which may be the user's code).
  let open = false;
  let endsWithTerminator = false;
  const out: string[] = [];
  let lineParts: string[] = [];
  let genColumn = 0;
  let outGenColumn = 0;
  const fields = [0, 0, 0, 0, 0];
  let i = 0;
  const n = text.length;
  while (i <= n) {
    const code = i < n ? text.charCodeAt(i) : SEMICOLON;
    if (code === SEMICOLON) {
      out.push(lineParts.join(","));
      lineParts = [];
      genColumn = 0;
      outGenColumn = 0;
      i++;
      continue;
    }
    if (code === COMMA) {
      i++;
      continue;
    }
    // One segment: up to five VLQ fields until the next ',' or ';'.
    let count = 0;
    let value = 0;
    let shift = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === SEMICOLON) break;
      const digit = c < 128 ? B64_VALUE[c]! : -1;
      if (digit < 0) throw new Error(`bad VLQ digit ${text[i]}`);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        if (count < 5) fields[count] = value & 1 ? -(value >>> 1) : value >>> 1;
        count++;
        value = 0;
        shift = 0;
      }
    }
    genColumn += fields[0]!;
    const mapsSomething = count >= 4;
    if (mapsSomething) {
      source += fields[1]!;
      line += fields[2]!;
      column += fields[3]!;
      if (count >= 5) name += fields[4]!;
    }
    if (!mapsSomething || !kept[source]) {
      if (open) {
        lineParts.push(encodeVlq(genColumn - outGenColumn));
        outGenColumn = genColumn;
        open = false;
        endsWithTerminator = true;
      }
      continue;
    }
    open = true;
    endsWithTerminator = false;
    let s = encodeVlq(genColumn - outGenColumn) + encodeVlq(source - outSource) + encodeVlq(line - outLine) + encodeVlq(column - outColumn);
    outGenColumn = genColumn;
    outSource = source;
    outLine = line;
    outColumn = column;
    if (count >= 5) {
      s += encodeVlq(name - outName);
      outName = name;
    }
    lineParts.push(s);
  }
  // Node's reader takes a one-field segment at the very end of the string as a repeat of the mapping
  // before it: a trailing ";" keeps the terminator a terminator.
  return { ...map, mappings: out.join(";") + (endsWithTerminator ? ";" : "") };
}
