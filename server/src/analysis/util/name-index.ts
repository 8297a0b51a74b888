// Nearest-name guesses over many candidates, with the same answers as `nearestName` on the same list but
// without comparing the name with every candidate: in a machine of n states with an unknown target in
// each, one scan per guess made the analysis quadratic (28k unknown targets: 220 s).
//
// A guess is the first candidate at the smallest distance (case-insensitive; only a distance within the
// limit counts), so it is looked for in rising distance:
//  - a candidate equal but for case (distance ½): a map of the lower-case texts;
//  - distance 1: every text with at most one character deleted is a key of the candidates it comes from;
//    two texts one edit apart (a letter changed, added, dropped or two swapped) share such a key;
//  - farther: the candidates whose length is within the largest limit any candidate could have, compared
//    one by one — the one step that may cost a comparison per candidate. Those comparisons draw on a
//    `GuessBudget` (distance-table cells); once it is spent, a guess that needs them is `CUT`: the
//    caller's finding then carries no "Did you mean", and what depends on the guess says nothing.
// A list of many candidates keeps its index, its answers within one edit, and what its far searches
// found with the cells each drew, for the next list of the same names (the next analysis of a file being
// typed in asks the same lists again): a remembered far search is answered when the budget has those
// cells left, and draws them, so every answer and every cut is the one a new search would give.
import { distanceBelow, guessLimit } from "./edit-distance";

/** A guess that needed more comparisons than the budget had left. */
export const CUT = Symbol("cut");

/** Distance-table cells the far guesses of one check over one machine (or field set) may compute. */
const GUESS_BUDGET_CELLS = 10_000_000;

export class GuessBudget {
  constructor(public cells: number = GUESS_BUDGET_CELLS) {}
}

/** Below this many candidates a list is scanned; from it on, indexed (built on the first guess). */
const INDEX_FROM = 48;

/** The best candidate of one list found so far: its distance and its place in the list. */
interface Hit {
  distance: number;
  index: number;
}

/** The index of a list of many candidates, shared by the lists of the same names. */
interface Index {
  lower: string[];
  changes: boolean;
  byLower: Map<string, number[]>;
  byDeletion: Map<string, number[]>;
  byLength: number[][];
  /** Far searches made (`bound` and the name in lower case) → the hit and the cells they drew. */
  far: Map<string, { hit: Hit | undefined; cells: number }>;
  /** Answers of `caseHit` by name and of `oneEditHit` by the name in lower case (null: none). */
  caseHits: Map<string, Hit | null>;
  oneEditHits: Map<string, Hit | null>;
}

/** The indexes of the lists asked last, by their names (a map keeps insertion order: the oldest first). */
const recentIndexes = new Map<string, Index>();
const RECENT_INDEXES = 8;

/** The candidates in lower case, and whether some lower-case text is not as long as its candidate. */
function lowerCaseOf(names: readonly string[]): { lower: string[]; changes: boolean } {
  const lower = names.map((n) => n.toLowerCase());
  let changes = false;
  for (let i = 0; i < names.length; i++) if (lower[i]!.length !== names[i]!.length) changes = true;
  return { lower, changes };
}

/** One list of candidates, in order (the first of equally close ones wins, as in `nearestName`). */
export class NameList {
  private lowerCase?: string[];
  private lengthSet?: number[];
  private changes = false;
  private index?: Index;

  /** Made for every list that might be asked (most never are): the work waits for the first guess. */
  constructor(readonly names: readonly string[]) {}

  /** The candidates in lower case. */
  get lower(): string[] {
    if (!this.lowerCase) {
      if (this.names.length >= INDEX_FROM) ({ lower: this.lowerCase, changes: this.changes } = this.build());
      else ({ lower: this.lowerCase, changes: this.changes } = lowerCaseOf(this.names));
    }
    return this.lowerCase;
  }

  /** The candidates' lengths, each once. */
  get lengths(): number[] {
    return (this.lengthSet ??= [...new Set(this.names.map((n) => n.length))]);
  }

  /** Some candidate's lower-case text is not as long as the candidate (a few non-ASCII letters). */
  get caseChangesLength(): boolean {
    void this.lower;
    return this.changes;
  }

  /** The first candidate equal to `lower` but for case, other than `name` itself. */
  caseHit(name: string, lower: string): Hit | undefined {
    if (this.names.length < INDEX_FROM) {
      const texts = this.lower;
      for (let i = 0; i < this.names.length; i++) if (texts[i] === lower && this.names[i] !== name) return { distance: 0.5, index: i };
      return undefined;
    }
    const { byLower, caseHits } = this.build();
    let hit = caseHits.get(name);
    if (hit === undefined) {
      hit = null;
      for (const i of byLower.get(lower) ?? []) {
        if (this.names[i] !== name) {
          hit = { distance: 0.5, index: i };
          break;
        }
      }
      caseHits.set(name, hit);
    }
    return hit ?? undefined;
  }

  /** The first candidate one edit from `lower` (none is equal but for case). */
  oneEditHit(lower: string): Hit | undefined {
    const texts = this.lower;
    if (this.names.length < INDEX_FROM) {
      for (let i = 0; i < this.names.length; i++) if (distanceBelow(lower, texts[i]!, 2) === 1) return { distance: 1, index: i };
      return undefined;
    }
    const { byDeletion, oneEditHits } = this.build();
    let hit = oneEditHits.get(lower);
    if (hit === undefined) {
      let first = -1;
      forEachDeletion(lower, (key) => {
        for (const i of byDeletion.get(key) ?? []) {
          if ((first < 0 || i < first) && distanceBelow(lower, texts[i]!, 2) === 1) first = i;
        }
      });
      oneEditHits.set(lower, (hit = first < 0 ? null : { distance: 1, index: first }));
    }
    return hit ?? undefined;
  }

  /** The first candidate at the smallest distance from 2 to `bound - 1`, better than `best` (ties: the
   *  lower index); CUT when the budget ran out first. A short list is scanned without drawing on it. */
  farHit(lower: string, bound: number, best: Hit | undefined, budget: GuessBudget): Hit | undefined | typeof CUT {
    const texts = this.lower;
    const scan = (i: number): void => {
      const limit = best ? best.distance + 1 : bound; // a tie still counts when its index is lower
      const d = distanceBelow(lower, texts[i]!, limit);
      if (d < limit && d >= 2 && (!best || d < best.distance || (d === best.distance && i < best.index))) best = { distance: d, index: i };
    };
    if (this.names.length < INDEX_FROM) {
      for (let i = 0; i < this.names.length; i++) scan(i);
      return best;
    }
    const { byLength, far } = this.build();
    const memo = best ? undefined : `${bound} ${lower}`;
    const known = memo === undefined ? undefined : far.get(memo);
    if (known && budget.cells >= known.cells) {
      budget.cells -= known.cells;
      return known.hit;
    }
    const from = Math.max(0, lower.length - bound + 1);
    const to = Math.min(byLength.length - 1, lower.length + bound - 1);
    let cells = 0;
    for (let length = from; length <= to; length++) {
      const bucket = byLength[length];
      if (!bucket) continue;
      const cost = (lower.length + 1) * (length + 1);
      for (const i of bucket) {
        if (budget.cells < cost) return CUT;
        budget.cells -= cost;
        cells += cost;
        scan(i);
      }
    }
    if (memo !== undefined) far.set(memo, { hit: best, cells });
    return best;
  }

  /** The index of these names: the one a list of the same names built lately, or a new one. */
  private build(): Index {
    if (this.index) return this.index;
    const key = JSON.stringify(this.names);
    let index = recentIndexes.get(key);
    if (index) recentIndexes.delete(key); // put back as the newest
    else {
      index = { ...lowerCaseOf(this.names), byLower: new Map(), byDeletion: new Map(), byLength: [], far: new Map(), caseHits: new Map(), oneEditHits: new Map() };
      const add = (map: Map<string, number[]>, key: string, i: number) => {
        const list = map.get(key);
        if (!list) map.set(key, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      };
      const texts = index.lower;
      for (let i = 0; i < texts.length; i++) {
        const l = texts[i]!;
        add(index.byLower, l, i);
        forEachDeletion(l, (key) => add(index!.byDeletion, key, i));
        (index.byLength[l.length] ??= []).push(i);
      }
      if (recentIndexes.size >= RECENT_INDEXES) recentIndexes.delete(recentIndexes.keys().next().value!);
    }
    recentIndexes.set(key, index);
    return (this.index = index);
  }
}

/**
 * The largest limit a guess for `name` could have. A candidate of length B is at least |L - B| away, so it
 * can only be offered when that is within its limit; the largest limit among the lengths that can be
 * offered bounds every distance worth computing (past it the first nearest candidate would be refused,
 * whichever it is). With a text whose lower case is not as long, every length counts.
 */
function farthestGuess(name: string, lower: string, lists: readonly NameList[]): number {
  const L = name.length;
  const anyLength = lower.length !== L || lists.some((l) => l.caseChangesLength);
  let farthest = 0;
  for (const list of lists) {
    for (const B of list.lengths) {
      const limit = guessLimit(L, B);
      if ((anyLength || Math.abs(L - B) <= limit) && limit > farthest) farthest = limit;
    }
  }
  return farthest;
}

/** The text itself and each text with one character deleted (a run of equal characters gives one). */
function forEachDeletion(text: string, fn: (key: string) => void): void {
  fn(text);
  for (let i = 0; i < text.length; i++) if (i === 0 || text.charCodeAt(i) !== text.charCodeAt(i - 1)) fn(text.slice(0, i) + text.slice(i + 1));
}

/**
 * The nearest candidate of the lists taken in order as one list: the same answer as `nearestName(name,
 * lists.flatMap(l => l.names))`, or CUT when that answer needed more comparisons than `budget` had left.
 */
export function nearestIn(name: string, lists: readonly NameList[], budget: GuessBudget): string | undefined | typeof CUT {
  const lower = name.toLowerCase();
  const pick = (list: number, hit: Hit) => lists[list]!.names[hit.index]!;
  for (let k = 0; k < lists.length; k++) {
    const hit = lists[k]!.caseHit(name, lower);
    if (hit) return pick(k, hit);
  }
  for (let k = 0; k < lists.length; k++) {
    const hit = lists[k]!.oneEditHit(lower);
    if (hit) return pick(k, hit);
  }
  // Distances are at least 2 now, and none counts beyond the largest limit a guess could have.
  const bound = farthestGuess(name, lower, lists) + 1;
  if (bound <= 2) return undefined;
  let best: { list: number; hit: Hit } | undefined;
  for (let k = 0; k < lists.length; k++) {
    // an earlier list's hit wins ties, so a later one must be strictly closer
    const found = lists[k]!.farHit(lower, best ? best.hit.distance : bound, undefined, budget);
    if (found === CUT) return CUT;
    if (found && (!best || found.distance < best.hit.distance)) best = { list: k, hit: found };
  }
  if (!best) return undefined;
  const guess = pick(best.list, best.hit);
  return best.hit.distance <= guessLimit(name.length, guess.length) ? guess : undefined;
}
