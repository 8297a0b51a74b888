// The targets a transition may name from a source state, for completion and for the nearest-name fix of
// an unknown target: siblings, their children ("sibling.child"), own children (".child"), explicit ids
// ("#id"); lists and guesses shared per parent, so big machines stay linear.
import type { CompletionCandidate } from "../api";
import { CUT, GuessBudget, NameList, nearestIn } from "../util/name-index";
import { keepShape } from "../util/shapes";
import type { MachineDef, StateDef } from "./model";

/** The targets valid from a source state, for completion and typo fixes: siblings, their children
 *  ("sibling.child"), own children (".child"), and explicit ids ("#id"). Candidate objects and the
 *  sibling lists are shared (one per parent), which keeps this linear in big machines. */
export class TargetCandidates {
  private readonly byParent = new Map<StateDef | undefined, CompletionCandidate[]>();
  private readonly ids = new Map<MachineDef, CompletionCandidate[]>();
  private readonly siblingLists = new Map<StateDef | undefined, NameList>();
  private readonly idLists = new Map<MachineDef, NameList>();
  private readonly guesses = new Map<StateDef | undefined, Map<string, string | undefined | typeof CUT>>();

  forSource(source: StateDef): CompletionCandidate[] {
    const siblings = this.siblings(source.parent);
    const ids = this.idTargets(source.machine);
    if (source.children.size === 0 && ids.length === 0) return siblings;
    const own: CompletionCandidate[] = [];
    for (const c of source.children.values()) own.push(candidate("." + c.key, c));
    return siblings.concat(own, ids);
  }

  /** A source's list built on first call, from light lists only (the closure keeps no model: a settled
   *  analysis must not hold its file's tree). */
  lazyForSource(source: StateDef): () => CompletionCandidate[] {
    const siblings = this.siblings(source.parent);
    const ids = this.idTargets(source.machine);
    const own: CompletionCandidate[] = [];
    for (const c of source.children.values()) own.push(candidate("." + c.key, c));
    let built: CompletionCandidate[] | undefined;
    return () => (built ??= siblings.concat(own, ids));
  }

  /** The shared list when a source's candidates are just its siblings (no copy needed), else undefined. */
  sharedForSource(source: StateDef): CompletionCandidate[] | undefined {
    return source.children.size === 0 && this.idTargets(source.machine).length === 0 ? this.siblings(source.parent) : undefined;
  }

  /** The target text nearest to `name` among those valid from `source`: `nearestName(name, texts of
   *  forSource(source))`, through the candidate index (CUT when `budget` ran out first). Sources without
   *  children of their own share their parent's list, and so their guesses. */
  nearest(source: StateDef, name: string, budget: GuessBudget): string | undefined | typeof CUT {
    const shared = source.children.size === 0;
    let memo: Map<string, string | undefined | typeof CUT> | undefined;
    if (shared) {
      memo = this.guesses.get(source.parent);
      if (!memo) this.guesses.set(source.parent, (memo = new Map()));
      const known = memo.get(name);
      if (known !== undefined || memo.has(name)) return known;
    }
    const lists = [this.siblingNames(source.parent)];
    if (!shared) lists.push(new NameList([...source.children.values()].map((c) => "." + c.key)));
    lists.push(this.idNames(source.machine));
    const guess = nearestIn(name, lists, budget);
    memo?.set(name, guess);
    return guess;
  }

  private siblingNames(parent: StateDef | undefined): NameList {
    let list = this.siblingLists.get(parent);
    if (!list) this.siblingLists.set(parent, (list = new NameList(this.siblings(parent).map(textOf))));
    return list;
  }

  private idNames(machine: MachineDef): NameList {
    let list = this.idLists.get(machine);
    if (!list) this.idLists.set(machine, (list = new NameList(this.idTargets(machine).map(textOf))));
    return list;
  }

  private siblings(parent: StateDef | undefined): CompletionCandidate[] {
    let list = this.byParent.get(parent);
    if (!list) {
      list = [];
      for (const s of parent?.children.values() ?? []) {
        list.push(candidate(s.key, s));
        for (const c of s.children.values()) list.push(candidate(`${s.key}.${c.key}`, c));
      }
      this.byParent.set(parent, list);
    }
    return list;
  }

  private idTargets(machine: MachineDef): CompletionCandidate[] {
    let list = this.ids.get(machine);
    if (!list) {
      list = machine.states.filter((s) => s.id).map((s) => candidate("#" + s.id!.text, s));
      this.ids.set(machine, list);
    }
    return list;
  }
}

const textOf = (c: CompletionCandidate) => c.insertText;

function candidate(insertText: string, state: StateDef): CompletionCandidate {
  return { insertText, kind: "state", symbolId: state.symbolId, detail: state.type };
}

// Kept so the class's map outlives each analysis (util/shapes.ts).
keepShape(new TargetCandidates());
