// The Testing view's "Run ×N" profile (issue 27, repeats): asks N (default 10), runs each asked eval file N
// times on the run queue (as many at once as agentLens.run.jobs allows) — once only when its first run made
// no live model call, as `agent-lens run --repeat` does — and gives each test one result: its pass rate with
// the 95% Wilson interval and where its runs ended, in its description and message. A test that both passed
// and failed is failed and tagged "flaky" (filter the view with @agentLens.evals:flaky); the tag goes when a
// later Run ×N finds it steady.
import * as vscode from "vscode";
import type { HarnessEvent } from "@agent-lens/protocol";
import { ensureTrusted, TRUST_MESSAGE } from "../run/trust";
import { toPath } from "../run/uris";
import type { EvalTestController } from "./eval-test-controller";
import { enqueueEvalFile } from "./file-runs";
import { SEPARATOR } from "./test-model";
import { needsOneRun, parseRepeatCount, repeatOutcomes, repeatRunOf } from "./repeats";
import type { RepeatRun } from "@agent-lens/repeats/summary";

const FLAKY = new vscode.TestTag("flaky");

export class RepeatProfile implements vscode.Disposable {
  readonly profile: vscode.TestRunProfile;

  constructor(private readonly tests: EvalTestController) {
    this.profile = tests.controller.createRunProfile("Run ×N", vscode.TestRunProfileKind.Run, (request, token) => this.repeat(request, token), false);
  }

  private async repeat(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const answer = await vscode.window.showInputBox({
      title: "Run ×N", prompt: "How many times to run each eval file (a test that both passes and fails is flaky)", value: "10",
      // The box opens as the Testing view's menu closes and hands the focus back to its tree; a box that
      // closed on that focus move cancelled the run the user had just asked for, silently.
      ignoreFocusOut: true,
      validateInput: (text) => (typeof parseRepeatCount(text) === "number" ? undefined : parseRepeatCount(text) as string),
    });
    const n = answer === undefined ? undefined : parseRepeatCount(answer);
    if (typeof n !== "number") return;
    const run = this.tests.controller.createTestRun(request, `Run ×${n}`, true);
    try {
      const files = this.tests.filesFor(request);
      if (!vscode.workspace.isTrusted) {
        ensureTrusted();
        for (const f of files) run.errored(f, new vscode.TestMessage(TRUST_MESSAGE));
        return;
      }
      const asked = new Set((request.include ?? []).map((i) => i.id));
      await Promise.all(files.map((fileItem) => this.repeatFile(run, fileItem, n, asked, token)));
    } finally {
      run.end();
    }
  }

  private async repeatFile(run: vscode.TestRun, fileItem: vscode.TestItem, n: number, asked: ReadonlySet<string>, token: vscode.CancellationToken): Promise<void> {
    const file = toPath(fileItem.id);
    const tests = this.tests.testsOf(fileItem.id);
    const wanted = (id: string) => !asked.size || asked.has(fileItem.id) || [...asked].some((a) => id === a || id.startsWith(`${a}${SEPARATOR}`));
    const items = tests.length ? tests.filter((t) => t.kind === "test" && wanted(t.id)).map((t) => this.tests.itemOf(t.id)!).filter(Boolean) : [fileItem];
    for (const item of items) run.enqueued(item);
    const once = (i: number) => new Promise<RepeatRun | undefined>((resolve) => {
      let events: readonly HarnessEvent[] = [];
      const handle = enqueueEvalFile(this.tests.fileRunHost(), { fileId: fileItem.id, file, tests, wanted: new Set([fileItem.id]), label: `Run ${i}/${n}` }, {
        enqueued: () => undefined,
        started: () => undefined,
        skipped: () => undefined,
        result: () => undefined,
        output: (text) => run.appendOutput(text.replace(/\r?\n/g, "\r\n"), undefined, fileItem),
        finished: (e) => (events = e),
      });
      const sub = token.onCancellationRequested(() => handle.cancel());
      void handle.result.then((view) => {
        sub.dispose();
        resolve(view ? repeatRunOf(file, events) : undefined);
      });
    });
    for (const item of items) run.started(item);
    const first = await once(1);
    const rest = first && !needsOneRun(first) && !token.isCancellationRequested ? await Promise.all(Array.from({ length: n - 1 }, (_, i) => once(i + 2))) : [];
    const runs = [first, ...rest].filter((r): r is RepeatRun => r !== undefined);
    if (!runs.length) {
      for (const item of items) run.skipped(item);
      return;
    }
    for (const outcome of repeatOutcomes(fileItem.id, file, tests, runs)) {
      const item = this.tests.itemOf(outcome.id);
      if (!item || (item !== fileItem && !items.includes(item))) continue;
      item.description = outcome.text;
      item.tags = outcome.flaky ? [...item.tags.filter((t) => t.id !== FLAKY.id), FLAKY] : item.tags.filter((t) => t.id !== FLAKY.id);
      if (outcome.status === "passed") run.passed(item);
      else if (outcome.status === "skipped") run.skipped(item);
      else run.failed(item, new vscode.TestMessage(`${outcome.text}${outcome.failure ? `\nfirst failure: ${outcome.failure}` : ""}`));
    }
  }

  dispose(): void {
    this.profile.dispose();
  }
}
