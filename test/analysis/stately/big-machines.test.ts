// Big machines in linear time (issue 30): reachability's guesses wait until the known targets have done
// their work (the same states as a walk that guesses on the way, on seeded random machines), and the
// guesses of a machine full of unknown targets stop at the budget — every finding stays, only the
// "Did you mean" of those past it goes, and reachability then says nothing.
import assert from "node:assert/strict";
import { seededRandom as rng } from "../../../bench/analysis-generate";
import { FileContext } from "../../../server/src/analysis/context";
import { StatelyExtractor } from "../../../server/src/analysis/stately/extract";
import type { MachineDef } from "../../../server/src/analysis/stately/model";
import { reachableStates } from "../../../server/src/analysis/stately/targets";
import { Workspace } from "../../../server/src/analysis/workspace";
import { analyzeAgent } from "../helpers";

/** A random machine without parallel states: nested compound, history and final states, each with
 *  a few targets — siblings, dotted paths, `.child`, `#id`, misspelt names and names near nothing. */
function randomMachine(r: () => number): string {
  const keys: string[] = [];
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)]!;
  const typo = (k: string) => (r() < 0.5 ? k.slice(0, -1) + "q" : k + "x");
  const state = (depth: number, siblings: string[]): string => {
    const kids = depth < 3 && r() < 0.35 ? Array.from({ length: 1 + Math.floor(r() * 4) }, () => `k${keys.length}_${Math.floor(r() * 1000)}`) : [];
    kids.forEach((k) => keys.push(k));
    const targets = Array.from({ length: Math.floor(r() * 3) }, () => {
      const roll = r();
      if (roll < 0.4 && siblings.length) return pick(siblings);
      if (roll < 0.55 && kids.length) return `.${pick(kids)}`;
      if (roll < 0.65 && keys.length) return `#m.${pick(keys)}`;
      if (roll < 0.85 && keys.length) return typo(pick(keys));
      return `far${Math.floor(r() * 100)}`;
    });
    const on = targets.length ? `on: { ${targets.map((t, i) => `E${i}: ${JSON.stringify(t)}`).join(", ")} },` : "";
    if (!kids.length) return `{ ${on} ${r() < 0.15 ? 'type: "final",' : r() < 0.1 ? 'type: "history",' : ""} }`;
    const type = r() < 0.85 ? `initial: ${JSON.stringify(pick(kids))},` : "";
    return `{ ${type} ${on} states: { ${kids.map((k) => `${k}: ${state(depth + 1, kids)}`).join(", ")} } }`;
  };
  const top = Array.from({ length: 3 + Math.floor(r() * 5) }, (_, i) => `t${i}`);
  top.forEach((k) => keys.push(k));
  return `export const machine = agent.createMachine({ id: "m", initial: "t0", states: { ${top.map((k) => `${k}: ${state(1, top)}`).join(", ")} } });\n`;
}

function machineOf(text: string): MachineDef {
  const file = "/w/agent.ts";
  const ws = new Workspace({ roots: ["/w"], readFile: (f) => (f === file ? `import { setupAgent } from "@statelyai/agent";\nconst agent = setupAgent({ requests: {} });\n${text}` : undefined) });
  const ctx = new FileContext(ws, { dependencies: new Set(), contexts: new Map(), evalCalls: 0 }, file, ws.tree(file)!);
  const machine = new StatelyExtractor(ctx).model(file)?.machines[0];
  assert.ok(machine, "a machine was read");
  return machine;
}

const paths = (states: Set<{ path: string[] }> | null) => (states ? [...states].map((s) => s.path.join(".")).sort() : null);

describe("big machines", () => {
  it("reachability with its guesses left for last enters the states a walk guessing on the way enters (300 seeded machines without parallel states)", () => {
    const r = rng(11);
    let unreached = 0;
    let guessed = 0;
    for (let i = 0; i < 300; i++) {
      const machine = machineOf(randomMachine(r));
      const walked = reachableStates(machine, true);
      const later = reachableStates(machine, false);
      assert.deepEqual(paths(later), paths(walked), `machine ${i}`);
      if (walked && walked.size < machine.states.length) unreached++;
      if (machine.states.some((s) => s.transitions.some((t) => t.targets.some((x) => x.status === "unknown")))) guessed++;
    }
    assert.ok(unreached > 50 && guessed > 100, `${unreached} machines with unreached states, ${guessed} with unknown targets`);
  });

  it("with parallel states the walk guesses on the way (entering a parallel state skips regions entered before, so the order matters)", () => {
    // x's first target is a typo for p.r1.beta: entered first, it enters region r2 by default; then p.r2 is
    // entered directly and r1, already entered, is not entered again by default (r1.alpha stays out). Guessed
    // last, p.r2 comes first and enters r1 by default, r1.alpha with it.
    const machine = machineOf(`export const machine = agent.createMachine({ initial: "x", states: {
      x: { on: { A: "p.r1.betx", B: "p.r2" } },
      p: { type: "parallel", states: { r1: { initial: "alpha", states: { alpha: {}, beta: {} } }, r2: {} } },
    } });`);
    const walked = paths(reachableStates(machine, true));
    assert.notDeepEqual(paths(reachableStates(machine, false)), walked);
    assert.ok(walked && walked.includes("p.r1.beta") && !walked.includes("p.r1.alpha"), JSON.stringify(walked));
    assert.deepEqual(paths(reachableStates(machine)), walked, "a machine with parallel states is walked in order");
  });

  it("keeps every unknown-target finding past the guess budget, drops only their guesses, and judges no reachability then", () => {
    const states = 3000;
    const body = `export const machine = agent.createMachine({ initial: "s0", states: {\n${Array.from({ length: states }, (_, i) => `  s${i}: { on: { NEXT: "s${(i + 1) % states}", TYPO: "zz${i}" } },`).join("\n")}\n} });\n`;
    const a = analyzeAgent(`const agent = setupAgent({ requests: {} });\n${body}`);
    const unknown = a.findings.filter((f) => f.code === "unknown-target");
    assert.equal(unknown.length, states);
    const guessed = unknown.filter((f) => f.message.endsWith(`Did you mean 's${f.message.match(/"zz(\d+)"/)![1]}'?`));
    assert.ok(guessed.length > 20 && guessed.length < states, `${guessed.length} guessed`);
    // the first ones carry their guess; once the budget is spent, none does
    assert.ok(unknown.slice(0, guessed.length).every((f) => guessed.includes(f)));
    assert.deepEqual(a.findings.filter((f) => f.code === "unreachable-state"), []);

    const small = analyzeAgent(`const agent = setupAgent({ requests: {} });\n${body.split("\n").slice(0, 41).join("\n")}\n  s40: {},\n} });\n`);
    const smallUnknown = small.findings.filter((f) => f.code === "unknown-target");
    assert.equal(smallUnknown.length, 40);
    assert.ok(smallUnknown.every((f) => f.message.includes("Did you mean")), "a machine within the budget guesses every one");
  });

  it("reads a compound whose initial is its own history state (it overflowed the stack: an analysis-failed error)", () => {
    const a = analyzeAgent(`export const m = createMachine({ initial: "a", states: { a: { initial: "h", states: { h: { type: "history" }, x: {} } } } });\n`);
    assert.deepEqual(a.findings.map((f) => f.code), []);
  });
});
