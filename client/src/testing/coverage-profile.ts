// The Testing view's "Coverage" profile: runs the eval files as the Run profile does, then adds agent
// coverage to the test run (coverage-view.ts): a FileCoverage per source file with its states / steps as
// statements (the gutter), transitions / ways out as their branches and machines / flows as declarations
// (the Test Coverage view), per test too ("filter coverage by test"). The model comes from the language
// server (agentLens/coverageModel); the report is the CLI's library's. Each coverage run also feeds the
// hints on states no eval reaches (coverage-hints.ts).
import * as vscode from "vscode";
import type { CoverageModel, HarnessEvent } from "@agent-lens/protocol";
import type { RunResults } from "@agent-lens/coverage/match";
import type { ServerQueries } from "../server-queries";
import { coverageReportOf, runResultsOf, type CoverageHistory } from "./coverage-store";
import { fileCoverages, testsReaching, type FileCoverageData, type LineRange } from "./coverage-view";
import type { EvalTestController } from "./eval-test-controller";
import { matchTest, SEPARATOR } from "./test-model";

/** What a FileCoverage was made from, for its details (all tests, or one). */
interface Made {
  data: FileCoverageData;
  model: CoverageModel;
  runs: RunResults[];
}

const range = (r: LineRange) => new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn);

function detailsOf(data: FileCoverageData): vscode.FileCoverageDetail[] {
  return [
    ...data.declarations.map((d) => new vscode.DeclarationCoverage(d.name, d.hits, range(d.range))),
    ...data.statements.map((s) => new vscode.StatementCoverage(s.hits, range(s.range), s.branches.map((b) => new vscode.BranchCoverage(b.hits, b.range ? range(b.range) : undefined, b.label)))),
  ];
}

export class CoverageProfile implements vscode.Disposable {
  private readonly made = new WeakMap<vscode.FileCoverage, Made>();
  private readonly profile: vscode.TestRunProfile;

  constructor(private readonly tests: EvalTestController, private readonly server: ServerQueries, private readonly history: CoverageHistory, private readonly ran: () => void, private readonly log: (line: string) => void) {
    this.profile = tests.controller.createRunProfile("Coverage", vscode.TestRunProfileKind.Coverage, (request, token) => this.run(request, token), true);
    this.profile.loadDetailedCoverage = async (_run, coverage) => {
      const made = this.made.get(coverage);
      return made ? detailsOf(made.data) : [];
    };
    this.profile.loadDetailedCoverageForTest = async (_run, coverage, item) => {
      const made = this.made.get(coverage);
      if (!made) return [];
      const report = coverageReportOf(made.model, made.runs, (r) => r.test !== undefined && this.itemFor(r.file, r.test)?.id.startsWith(item.id) === true);
      const data = fileCoverages(report, made.model).find((f) => f.file === made.data.file);
      return data ? detailsOf(data) : [];
    };
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const ran = new Map<string, readonly HarnessEvent[]>();
    await this.tests.runFiles(request, token, true, {
      label: "Coverage",
      finished: (file, events) => {
        ran.set(file, events);
        this.history.remember(file, events);
      },
      beforeEnd: (run) => this.publish(run, ran, (request.include ?? []).map((i) => i.id)),
    });
    this.ran();
  }

  /** The coverage of the files that ran, added to the test run: of the asked tests only (a node:test file
   *  runs whole; the hints' history above keeps all of it). */
  private async publish(run: vscode.TestRun, ran: Map<string, readonly HarnessEvent[]>, asked: string[]): Promise<void> {
    if (!ran.size) return;
    const model = await this.server.coverageModel([...ran.keys()]);
    if (!model) {
      run.appendOutput("Agent coverage: the language server did not answer with the coverage model; no coverage this time.\r\n");
      return;
    }
    const wanted = (file: string, test: string | undefined) => {
      const fileId = vscode.Uri.file(file).toString();
      if (!asked.length || asked.includes(fileId)) return true;
      const id = test === undefined ? undefined : this.itemFor(file, test)?.id;
      return id !== undefined && asked.some((a) => id === a || id.startsWith(`${a}${SEPARATOR}`));
    };
    const runs = [...ran].map(([file, events]) => {
      const all = runResultsOf(file, events);
      return { ...all, results: all.results.filter((r) => wanted(file, r.test)) };
    });
    const report = coverageReportOf(model, runs);
    for (const u of report.unmatched) run.appendOutput(`Agent coverage: not counted: ${u.kind} ${u.name} at ${u.file}${u.line ? `:${u.line}` : ""}: ${u.reason}\r\n`);
    for (const data of fileCoverages(report, model)) {
      const { statements, branches, declarations } = data.counts;
      const reached = testsReaching(report, data.file, model).flatMap((i) => this.itemFor(report.tests[i]!.file, report.tests[i]!.name) ?? []);
      const coverage = new vscode.FileCoverage(
        vscode.Uri.file(data.file),
        new vscode.TestCoverageCount(statements.covered, statements.total),
        new vscode.TestCoverageCount(branches.covered, branches.total),
        new vscode.TestCoverageCount(declarations.covered, declarations.total),
        [...new Set(reached)],
      );
      this.made.set(coverage, { data, model, runs });
      run.addCoverage(coverage);
    }
    this.log(`coverage: ${report.agents.length} machines and flows, ${report.percent}% of states, transitions, steps and branches reached`);
  }

  /** The test item a harness test name of an eval file stands for (a plain script: the file's item). */
  private itemFor(file: string, name: string): vscode.TestItem | undefined {
    const fileItem = this.tests.itemOf(vscode.Uri.file(file).toString());
    if (!fileItem) return undefined;
    const t = matchTest(this.tests.testsOf(fileItem.id), name);
    return (t && this.tests.itemOf(t.id)) || fileItem;
  }

  dispose(): void {
    this.profile.dispose();
  }
}
