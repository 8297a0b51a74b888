// Agent coverage as the Testing view draws it, without VS Code: the examples' eval files run through the real
// harness, the model built by the analysis (as the language server answers agentLens/coverageModel), the
// report computed by the CLI's library, then turned into what FileCoverage needs — states and steps as
// statements at their key's line, transitions as their branches, machines and flows as declarations — per
// file, per test, and the states no eval reaches, said only where every eval that could reach them ran.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CoverageModel, HarnessEvent } from "@agent-lens/protocol";
import { buildCoverageModel } from "../../server/src/cli/coverage/static-model";
import { CoverageHistory, coverageReportOf, runResultsOf } from "../../client/src/testing/coverage-store";
import { fileCoverages, testsReaching, type FileCoverageData } from "../../client/src/testing/coverage-view";
import { runCollect, suiteCache } from "../harness/support";
import { EVAL_FILES, EXAMPLES, lineOf } from "./support/examples";

const at = (rel: string) => join(EXAMPLES, rel);

describe("client: agent coverage for the Testing view", function () {
  this.timeout(180_000);
  const cache = suiteCache();
  let model: CoverageModel;
  const events = new Map<string, HarnessEvent[]>();
  let files: FileCoverageData[];

  before(async () => {
    model = JSON.parse(JSON.stringify(buildCoverageModel([EXAMPLES], EVAL_FILES).model)) as CoverageModel;
    for (const file of EVAL_FILES) events.set(file, (await runCollect({ file, workspace: EXAMPLES, cacheDir: cache(), runtime: "bundled" })).events);
    files = fileCoverages(coverageReportOf(model, EVAL_FILES.map((f) => runResultsOf(f, events.get(f)!))), model);
  });

  const fileOf = (rel: string) => files.find((f) => f.file === at(rel))!;

  it("a machine every eval reaches: its states are hit statements at their keys, its transitions hit branches, the machine a declaration", () => {
    const triage = fileOf("stately/support-triage.ts");
    const source = at("stately/support-triage.ts");
    assert.deepEqual(triage.statements.map((s) => [s.range.startLine, s.hits > 0]), [
      [lineOf(source, "triage: {"), true], [lineOf(source, "answering: {"), true], [lineOf(source, "answered: {"), true], [lineOf(source, "escalated: {"), true],
    ]);
    assert.deepEqual(triage.statements[0]!.branches.map((b) => [b.label, b.hits]), [["on ANSWER → answering", 2], ["on ESCALATE → escalated", 1]], "the seam test answers too");
    assert.deepEqual(triage.counts, { statements: { covered: 4, total: 4 }, branches: { covered: 3, total: 3 }, declarations: { covered: 1, total: 1 } });
    assert.deepEqual(triage.declarations.map((d) => [d.name, d.hits, d.range.startLine]), [["machine machine", 3, lineOf(source, "export const machine = agent.createMachine({")]]);
  });

  it("mistakes.ts: nothing reached (its eval fails first), and the state the analysis proves unreachable is left out", () => {
    const mistakes = fileOf("stately/mistakes.ts");
    const source = at("stately/mistakes.ts");
    assert.equal(mistakes.statements.some((s) => s.range.startLine === lineOf(source, "archived: {")), false, "archived is not counted");
    assert.deepEqual(mistakes.counts, { statements: { covered: 0, total: 7 }, branches: { covered: 0, total: 3 }, declarations: { covered: 0, total: 3 } });
    assert.deepEqual(mistakes.declarations.map((d) => d.name), ["machine typoMachine", "machine orphanMachine", "machine inlineMachine"]);
  });

  it("a flow: steps are statements, the ways out of a step its branches, labelled by exit", () => {
    const flows = fileOf("falai/triage-agent.ts");
    assert.deepEqual(flows.declarations.map((d) => d.name), ["flow triagem", "flow retomar"]);
    // The CLI's table for these two: steps 1/2 + 2/3, branches 0/2 + 1/4.
    assert.deepEqual(flows.counts.statements, { covered: 3, total: 5 });
    assert.deepEqual(flows.counts.branches, { covered: 1, total: 6 });
    assert.ok(flows.statements.flatMap((s) => s.branches).every((b) => /^(then|else|onFail|branch:\d+) → /.test(b.label)), "exit labels");
  });

  it("per test: only what that test reached (VS Code's filter coverage by test)", () => {
    const runs = EVAL_FILES.map((f) => runResultsOf(f, events.get(f)!));
    const report = coverageReportOf(model, runs);
    const reaching = testsReaching(report, at("stately/support-triage.ts"), model).map((i) => report.tests[i]!.name).sort();
    assert.deepEqual(reaching, ["a how-to question is answered", "an outage is escalated without drafting a reply", "the reply seam, with the decision answered by an executor"]);
    const outage = coverageReportOf(model, runs, (r) => r.test === "an outage is escalated without drafting a reply");
    const triage = fileCoverages(outage, model).find((f) => f.file === at("stately/support-triage.ts"))!;
    assert.deepEqual(triage.statements.map((s) => s.hits), [1, 0, 0, 1]);
    assert.deepEqual(triage.statements[0]!.branches.map((b) => b.hits), [0, 1]);
  });

  it("unreached states and steps are said only where every eval that could reach them ran to its end", () => {
    const history = new CoverageHistory();
    history.remember(at("stately/support-triage.eval.ts"), events.get(at("stately/support-triage.eval.ts"))!);
    assert.deepEqual(history.unreached(model), [], "the triage machine is fully reached; the others' evals did not run");
    for (const file of EVAL_FILES) history.remember(file, events.get(file)!);
    const unreached = history.unreached(model);
    const mistakes = unreached.filter((u) => u.file === at("stately/mistakes.ts")).map((u) => `${u.agent}.${u.path}`);
    assert.deepEqual(mistakes, ["typoMachine.summarizing", "typoMachine.review", "orphanMachine.summarizing", "orphanMachine.done", "inlineMachine.summarizing", "inlineMachine.titling", "inlineMachine.done"]);
    const done = unreached.find((u) => u.agent === "orphanMachine" && u.path === "done")!;
    assert.deepEqual([done.kind, done.range.startLine, done.evalFiles], ["state", lineOf(at("stately/mistakes.ts"), "    done: { type: \"final\" },"), [at("stately/mistakes.test.ts")]]);
    assert.ok(unreached.some((u) => u.kind === "step" && u.agentKind === "flow" && u.file === at("falai/triage-agent.ts")), "a step of triagem or retomar");
    // An edit of mistakes.ts: its machines' eval no longer counts, so nothing is said about them.
    history.forget(at("stately/mistakes.ts"), model);
    assert.equal(history.has(at("stately/mistakes.test.ts")), false);
    assert.deepEqual(history.unreached(model).filter((u) => u.file === at("stately/mistakes.ts")), []);
    // A run that did not end by itself says nothing either.
    const timedOut = events.get(at("stately/mistakes.test.ts"))!.map((e) => (e.type === "end" ? { ...e, status: "timeout" as const } : e));
    history.remember(at("stately/mistakes.test.ts"), timedOut);
    assert.equal(history.has(at("stately/mistakes.test.ts")), false);
  });
});
