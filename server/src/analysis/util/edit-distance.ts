// Nearest-name suggestions for typos (quick fixes): Damerau-Levenshtein (optimal string alignment).

// The distance table's three live rows, laid end to end and reused by every call (grown when a longer
// name comes): a reachability walk or a check asks for a guess per unknown target against every state
// key of the machine, so a fresh array per comparison made typing a target in a big machine cost more
// than analyzing it.
let rows = new Int32Array(3 * 64);

export function editDistance(a: string, b: string): number {
  return distanceBelow(a, b, Infinity);
}

/** The distance of `a` and `b` when it is below `bound`, else some number ≥ `bound`. The distance is at
 *  least the length difference, and at least min(a row's minimum, the row before's + 1) for every row
 *  of the table (that bound never falls from one row to the next), so the walk stops once it reaches
 *  `bound`. */
export function distanceBelow(a: string, b: string, bound: number): number {
  if (a === b) return 0;
  const m = a.length;
  const n = b.length;
  const lengthGap = m > n ? m - n : n - m;
  if (lengthGap >= bound || m === 0 || n === 0) return lengthGap;
  const width = n + 1;
  if (rows.length < 3 * width) rows = new Int32Array(6 * width);
  const t = rows;
  let prev2 = 0; // row i - 2 (read only from i = 2 on)
  let prev = width; // row i - 1
  let cur = 2 * width; // row i
  for (let j = 0; j <= n; j++) t[prev + j] = j;
  let prevMin = 0;
  for (let i = 1; i <= m; i++) {
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    t[cur] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = t[prev + j - 1]! + (ai === bj ? 0 : 1);
      const up = t[prev + j]! + 1;
      if (up < v) v = up;
      const left = t[cur + j - 1]! + 1;
      if (left < v) v = left;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aBefore === bj) {
        const swap = t[prev2 + j - 2]! + 1;
        if (swap < v) v = swap;
      }
      t[cur + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if ((rowMin < prevMin + 1 ? rowMin : prevMin + 1) >= bound) return bound;
    prevMin = rowMin;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return t[prev + n]!;
}

/** The candidate closest to `name`, if it is close enough to be a plausible typo. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const candidateLower = candidate.toLowerCase();
    // only a candidate closer than the best so far can win (the first of equals is kept)
    const d = candidateLower === lower ? 0.5 : distanceBelow(lower, candidateLower, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= guessLimit(name.length, best.length) ? best : undefined;
}

/** How far a guess may be from the name and still be offered: a third of the longer one, at least 2. */
export function guessLimit(nameLength: number, guessLength: number): number {
  return Math.max(2, Math.floor(Math.max(nameLength, guessLength) / 3));
}

/** The one wording of a nearest-name guess in a finding's message, for both libraries (empty without one). */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? "" : ` Did you mean '${suggestion}'?`;
}

/** The one title of the quick fix that puts the guess in place. */
export function changeToTitle(suggestion: string): string {
  return `Change to '${suggestion}'`;
}
