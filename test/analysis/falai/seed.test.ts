// The seed document's own programs analyze with zero findings, and their flows, steps, fields, agents
// and eval sites are all read.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { memoryWorkspace, slice } from "./support/project";

const programs = join(__dirname, "../../conformance/programs");
const load = (name: string) => readFileSync(join(programs, name), "utf8");

function analyzeProgram(name: string) {
  const file = `/w/${name}`;
  const ws = memoryWorkspace({ [file]: load(name) });
  return { ...ws.analyze(file), model: ws.model(file), text: ws.text(file), file };
}

describe("falai analysis of the seed programs", () => {
  for (const name of ["falai-end-to-end.test.ts", "falai-replay.test.ts", "falai-clock.test.ts"]) {
    it(`${name}: zero findings`, () => {
      assert.deepEqual(analyzeProgram(name).findings, []);
    });
  }

  it("end to end: reads the field set, both flows, their steps and triggers, and the agent", () => {
    const { model, symbols, text } = analyzeProgram("falai-end-to-end.test.ts");
    assert.deepEqual(model.fieldSets.map((s) => [s.name, s.fields.map((f) => `${f.name}:${f.type?.text}`)]), [["f", ["nome:string", "empresa:string"]]]);
    assert.deepEqual(model.flows.map((f) => f.id?.text), ["triagem", "retomar"]);
    const [triagem, retomar] = model.flows;
    assert.deepEqual(triagem.triggers.map((t) => [t.kind, t.phrases]), [["message", ["quer saber como funciona", "pede um orçamento"]]]);
    assert.deepEqual(retomar.triggers.map((t) => [t.kind, t.silence?.ms]), [["silence", 86_400_000]]);
    assert.deepEqual(triagem.steps.map((s) => [s.id?.text, s.collect.map((c) => c.text)]), [["quem", ["nome", "empresa"]], ["tchau", []]]);
    const w1 = retomar.steps[1];
    assert.deepEqual([w1!.id?.text, w1!.kind, w1!.wait?.ms, w1!.else?.kind], ["w1", "wait", 2 * 86_400_000, "end"]);
    assert.equal(model.agents.length, 1);
    assert.deepEqual(model.agents[0].flows.map((e) => e.flow.id?.text), ["triagem", "retomar"]);
    assert.equal(model.agents[0].name, "Ana");
    // names point at the text a rename replaces
    for (const s of symbols) assert.equal(slice(text, s.nameRange), s.name, s.id);
  });

  it("end to end: the agent.turn call inside runTurn is an eval site of that agent", () => {
    const { model, lenses, text } = analyzeProgram("falai-end-to-end.test.ts");
    assert.equal(model.turnSites.length, 1);
    assert.equal(model.turnSites[0].agent?.name, "Ana");
    const line = text.split("\n").findIndex((l) => l.includes("await agent.turn(")) + 1;
    assert.deepEqual(lenses.filter((l) => l.target.line !== undefined).map((l) => l.target), [{ kind: "run-turns", file: "/w/falai-end-to-end.test.ts", line }]);
    assert.deepEqual(lenses.filter((l) => l.target.flowId).map((l) => [l.title, l.target.flowId]), [["Run turns", "triagem"], ["Run turns", "retomar"]]);
  });

  it("replay: flows inline in a const array, two inline agents each calling turn", () => {
    const { model, symbols } = analyzeProgram("falai-replay.test.ts");
    assert.deepEqual(model.flows.map((f) => [f.id?.text, f.triggers[0]?.catchAll]), [["boas-vindas", true], ["retomar", false]]);
    assert.equal(model.agents.length, 2);
    for (const a of model.agents) assert.deepEqual(a.flows.map((e) => e.flow.id?.text), ["boas-vindas", "retomar"]);
    assert.equal(model.turnSites.length, 2);
    assert.ok(model.turnSites.every((s) => s.agent !== undefined));
    const agentIds = symbols.filter((s) => s.kind === "agent").map((s) => s.id);
    assert.equal(new Set(agentIds).size, 2, "agents with the same name get distinct ids");
  });

  it("clock: checks the fake clock's durations without reporting the good one", () => {
    const { model } = analyzeProgram("falai-clock.test.ts");
    assert.deepEqual(model.durations.map((d) => [d.text, d.ms]), [["24h", 86_400_000]]);
  });
});
