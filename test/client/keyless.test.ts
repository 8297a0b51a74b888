// The programs a lens generates (keyless seam run, explore paths) run for real: written to a temporary
// folder outside the workspace, bundled and run by the harness against the example machine.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runEvalFile } from "../../runtime/src/harness";
import type { HarnessEvent } from "@agent-lens/protocol";
import type { SeamReportPayload } from "../../runtime/src/shared/report";
import { explorePathsEntry, keylessSeamEntry } from "../../client/src/run/plan";
import { buildResultView } from "../../client/src/panel/view-model";

const EXAMPLES = resolve(__dirname, "../../examples");
const AGENT = join(EXAMPLES, "stately/email-agent.ts");

async function run(source: string, name: string, entry?: (file: string) => void): Promise<HarnessEvent[]> {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-keyless-"));
  try {
    const file = join(dir, name);
    entry?.(file);
    writeFileSync(file, source);
    const events: HarnessEvent[] = [];
    await runEvalFile({ file, workspace: EXAMPLES, timeoutMs: 30_000, onEvent: (e) => events.push(e) }).result;
    return events;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("client: generated runs through the real harness", function () {
  this.timeout(90_000);

  it("a keyless seam run answers every request from its output schema", async () => {
    const events = await run(keylessSeamEntry(AGENT, "machine", "scoreDraft"), "seam.ts");
    const end = events.find((e) => e.type === "end");
    assert.equal(end?.type === "end" && end.status, "passed", JSON.stringify(events.filter((e) => e.type === "fail" || e.type === "console")));
    const seam = events.find((e): e is Extract<HarnessEvent, { type: "result" }> => e.type === "result" && e.kind === "seam");
    assert.ok(seam, "a seam result");
    const data = seam.data as SeamReportPayload;
    assert.equal(data.request, "scoreDraft");
    assert.deepEqual(data.seamOutput, { score: 0 });
    assert.deepEqual(data.calls.map((c) => [c.name, c.source]), [["draftEmail", "script"], ["scoreDraft", "script"]]);
    assert.equal(data.status, "done");
  });

  it("explore paths reports the machine's terminals", async () => {
    const events = await run(explorePathsEntry(AGENT, "machine"), "explore.ts");
    const end = events.find((e) => e.type === "end");
    assert.equal(end?.type === "end" && end.status, "passed", JSON.stringify(events.filter((e) => e.type === "fail" || e.type === "console")));
    const explore = events.find((e): e is Extract<HarnessEvent, { type: "result" }> => e.type === "result" && e.kind === "explore");
    assert.ok(explore, "an explore result");
    assert.match(JSON.stringify(explore.data), /done/);
  });

  it("a keyless seam run on a machine whose transition names no state is failed, and names no generated file", async () => {
    const mistakes = join(EXAMPLES, "stately/mistakes.ts");
    let entry = "";
    const events = await run(keylessSeamEntry(mistakes, "typoMachine", "summarize"), "seam-typoMachine-summarize.ts", (f) => (entry = f));
    const origin = { file: mistakes, line: 24, column: 9 };
    const view = buildResultView({ runId: 1, title: "Run seam · summarize", file: mistakes, subject: "seam", generated: { entry, origin, label: "keyless seam run of summarize" }, events, graphs: [] });
    assert.equal(view.fileStatus, "passed", "the generated program itself ran to its end");
    assert.equal(view.status, "failed");
    assert.deepEqual(view.verdict.subject, { label: "seam", status: "failed" });
    assert.equal(view.verdict.text, "seam ✗", "the generated program's own run is no file of the user's: only the seam's verdict");
    assert.deepEqual(view.tests, [], "no Tests section: the program's one \"test\" is the run itself");
    assert.match(view.errors.map((e) => e.message).join("\n"), /reveiw/);
    assert.deepEqual(view.seams[0].callSite, origin);
    const text = JSON.stringify(view);
    assert.ok(!text.includes("seam-typoMachine-summarize"), "the generated file's name");
    assert.ok(!text.includes(entry.replace(/[\\/][^\\/]*$/, "")), "the temporary folder");
  });
});
