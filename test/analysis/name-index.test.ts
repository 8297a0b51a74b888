// Nearest-name guesses through the candidate index (util/name-index.ts) give exactly `nearestName`'s answer
// on the same candidates taken in order — over seeded random names and lists, short and long, several
// lists at once, names in the list, case differences, repeats — and the budget only ever removes guesses.
import assert from "node:assert/strict";
import { nearestName } from "../../server/src/analysis/util/edit-distance";
import { CUT, GuessBudget, NameList, nearestIn } from "../../server/src/analysis/util/name-index";
import { seededRandom as rng } from "../../bench/analysis-generate";

const ALPHABETS = ["ab", "abcS", "sx0123456789", "abcdefghijklmnopqrstuvwxyzAB.#", "aİıÉé"];

function word(r: () => number, alphabet: string, max: number): string {
  let out = "";
  const length = Math.floor(r() * (max + 1));
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(r() * alphabet.length)];
  return out;
}

/** A name near one of the words (a letter changed, added, dropped, two swapped, case flipped) or a new one. */
function nameFor(r: () => number, words: string[], alphabet: string): string {
  const base = words.length && r() < 0.8 ? words[Math.floor(r() * words.length)]! : word(r, alphabet, 12);
  const at = Math.floor(r() * (base.length + 1));
  const letter = alphabet[Math.floor(r() * alphabet.length)]!;
  switch (Math.floor(r() * 7)) {
    case 0: return base;
    case 1: return base.slice(0, at) + letter + base.slice(at + 1);
    case 2: return base.slice(0, at) + letter + base.slice(at);
    case 3: return base.slice(0, at) + base.slice(at + 1);
    case 4: return at > 0 && at < base.length ? base.slice(0, at - 1) + base[at] + base[at - 1] + base.slice(at + 1) : base + letter + letter;
    case 5: return base.toUpperCase();
    default: return word(r, alphabet, 14);
  }
}

describe("nearest-name index", () => {
  it("gives nearestName's answer on 20,000 seeded names over lists of 0 to 400 candidates", () => {
    const r = rng(7);
    let guesses = 0;
    let indexed = 0;
    for (let round = 0; round < 400; round++) {
      const alphabet = ALPHABETS[round % ALPHABETS.length]!;
      const lists: NameList[] = [];
      const count = 1 + Math.floor(r() * 3);
      for (let k = 0; k < count; k++) {
        const size = Math.floor(r() * (r() < 0.5 ? 20 : 400));
        const words: string[] = [];
        for (let i = 0; i < size; i++) words.push(r() < 0.1 && words.length ? words[Math.floor(r() * words.length)]! : word(r, alphabet, 10));
        if (size >= 48) indexed++;
        lists.push(new NameList(words));
      }
      const all = lists.flatMap((l) => [...l.names]);
      for (let q = 0; q < 50; q++) {
        const name = nameFor(r, all, alphabet);
        const expected = nearestName(name, all);
        const got = nearestIn(name, lists, new GuessBudget(Infinity));
        assert.equal(got, expected, `${JSON.stringify(name)} in ${JSON.stringify(all.slice(0, 20))}…`);
        if (expected !== undefined) guesses++;
      }
    }
    assert.ok(guesses > 5000 && indexed > 100, `${guesses} guesses, ${indexed} indexed lists`);
  });

  it("stops at the budget: a guess it cut is CUT, and what it answers is nearestName's answer", () => {
    const names = Array.from({ length: 3000 }, (_, i) => `state${i}`);
    const list = new NameList(names);
    const budget = new GuessBudget(200_000);
    let cut = 0;
    for (let i = 0; i < 200; i++) {
      const far = `gone${i}x`; // no candidate within one edit: every candidate of its length range is compared
      const got = nearestIn(far, [list], budget);
      if (got === CUT) cut++;
      else assert.equal(got, nearestName(far, names));
      // a near name is answered from the index, whatever is left of the budget
      assert.equal(nearestIn(`stat${i}`, [list], budget), nearestName(`stat${i}`, names));
      assert.equal(nearestIn(`STATE${i}`, [list], budget), `state${i}`);
    }
    assert.ok(cut > 150, `${cut} cut`);
    assert.ok(budget.cells >= 0);
  });

  it("a list of the same names asked again (the next analysis) answers and cuts as the first did, drawing the same cells", () => {
    const names = Array.from({ length: 2000 }, (_, i) => `again${i}`);
    // far names: two edits from a candidate (a guess after comparing), and near none (no guess); names in
    // another case and one edit away, answered from the index
    const asked = Array.from({ length: 120 }, (_, i) => [`agn${i * 7}`, `elsewhere${i}`, `AGAIN${i}`, `again${i}x`][i % 4]!);
    /** Each answer and the cells left after it. */
    const run = (cells: number) => {
      const list = new NameList([...names]);
      const budget = new GuessBudget(cells);
      return asked.map((name) => [nearestIn(name, [list], budget), budget.cells] as const);
    };
    const small = run(4_000_000); // the first time these names are asked: every search is made
    const full = run(Infinity);
    const cutAt = small.findIndex(([answer]) => answer === CUT);
    assert.ok(cutAt > 10 && cutAt < asked.length - 10, `the small budget cuts part way (at ${cutAt})`);
    assert.ok(full.every(([answer]) => answer !== CUT) && full.some(([answer]) => answer !== undefined));
    full.forEach(([answer], i) => assert.equal(answer, nearestName(asked[i]!, names)));
    // remembered searches: the same answers and cells, whether the budget covers them all or not
    assert.deepEqual(run(Infinity), full);
    assert.deepEqual(run(4_000_000), small);
  });
});
