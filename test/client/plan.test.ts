import assert from "node:assert/strict";
import type { LensTarget } from "../../server/src/analysis/api";
import { KEYLESS_HELPER, closeness, explorePathsEntry, keylessSeamEntry, planRun, targetKey, type PlanContext } from "../../client/src/run/plan";
import { lensTitle, RUNNING_TITLE } from "../../client/src/run/lens-titles";

const evals = new Set(["/w/email.eval.ts", "/w/flows.test.ts"]);
const ctx: PlanContext = {
  isEvalFile: (f) => evals.has(f),
  evalFilesUsingFlow: (flowId) => (flowId === "triagem" ? ["/w/flows.test.ts"] : flowId === "both" ? ["/w/a.test.ts", "/w/b.test.ts"] : []),
};

describe("client: what a lens runs", () => {
  it("a lens on the user's own runSeam call runs that eval file, focused on the call's line", () => {
    const plan = planRun({ kind: "run-seam", file: "/w/email.eval.ts", line: 12, request: "scoreDraft" }, ctx);
    assert.equal(plan.kind, "file");
    assert.ok(plan.kind === "file" && plan.file === "/w/email.eval.ts");
    assert.deepEqual(plan.kind === "file" && plan.focus, { file: "/w/email.eval.ts", line: 12 });
  });

  it("Run seam on a machine with no eval generates a keyless seam run importing the machine", () => {
    const plan = planRun({ kind: "run-seam", file: "/w/agent.ts", machineExport: "machine", request: "scoreDraft" }, ctx);
    assert.equal(plan.kind, "generated");
    if (plan.kind !== "generated") return;
    assert.equal(plan.agentFile, "/w/agent.ts");
    assert.match(plan.source, /import \{ machine as machine \} from "\/w\/agent\.ts";/);
    assert.match(plan.source, new RegExp(`import \\{ runSeam, ${KEYLESS_HELPER}, exampleOf \\} from "@statelyai/agent/testing";`));
    assert.match(plan.source, /seam: \{ request: "scoreDraft" \}/);
    assert.match(plan.entryName, /^seam-machine-scoreDraft\.ts$/);
  });

  it("quotes names and paths in generated code as string literals (a hostile path stays a string)", () => {
    const src = keylessSeamEntry('/w/a"; process.exit(1); ".ts', "machine", 'x"); process.exit(2); ("');
    assert.ok(src.includes(JSON.stringify('/w/a"; process.exit(1); ".ts')));
    assert.ok(src.includes(JSON.stringify('x"); process.exit(2); ("')));
    assert.ok(!/from "\/w\/a"; process/.test(src));
  });

  it("a machine that is not exported cannot be imported: the plan says so", () => {
    const plan = planRun({ kind: "run-seam", file: "/w/agent.ts", request: "scoreDraft" }, ctx);
    assert.equal(plan.kind, "none");
    assert.match(plan.kind === "none" ? plan.reason : "", /not exported/);
  });

  it("Explore paths on a machine generates an explorePaths run", () => {
    const plan = planRun({ kind: "explore-paths", file: "/w/agent.ts", machineExport: "emailMachine" }, ctx);
    assert.equal(plan.kind, "generated");
    assert.equal(plan.kind === "generated" && plan.source, explorePathsEntry("/w/agent.ts", "emailMachine"));
  });

  it("Run turns on a flow runs the eval file(s) that use it, or says none does", () => {
    const one = planRun({ kind: "run-turns", file: "/w/flows.ts", flowId: "triagem" }, ctx);
    assert.deepEqual(one.kind === "file" && one.file, "/w/flows.test.ts");
    const two = planRun({ kind: "run-turns", file: "/w/flows.ts", flowId: "both" }, ctx);
    assert.deepEqual(two.kind === "files" && two.files, ["/w/a.test.ts", "/w/b.test.ts"]);
    const none = planRun({ kind: "run-turns", file: "/w/flows.ts", flowId: "lonely" }, ctx);
    assert.equal(none.kind, "none");
    const onTest = planRun({ kind: "run-turns", file: "/w/flows.test.ts", line: 30 }, ctx);
    assert.deepEqual(onTest.kind === "file" && onTest.focus, { file: "/w/flows.test.ts", line: 30 });
  });

  it("identifies a lens's run independently of its title", () => {
    const t: LensTarget = { kind: "run-seam", file: "/w/a.ts", line: 3, request: "r" };
    assert.equal(targetKey(t), targetKey({ ...t }));
    assert.notEqual(targetKey(t), targetKey({ ...t, line: 4 }));
  });

  it("lens titles: running says so (click cancels); untrusted says it needs trust", () => {
    assert.equal(lensTitle("Run seam", { running: true, trusted: true }), RUNNING_TITLE);
    assert.equal(lensTitle("Run seam", { running: false, trusted: false }), "Run seam (requires trust)");
    assert.equal(lensTitle("Run seam (requires trust)", { running: false, trusted: false }), "Run seam (requires trust)");
    assert.equal(lensTitle("Run turns", { running: false, trusted: true }), "Run turns");
    assert.equal(lensTitle("Run seam", { running: false, trusted: true, last: "seam ✗" }), "Run seam (last run: seam ✗)", "the last run's verdict line");
    assert.equal(lensTitle("Run seam", { running: true, trusted: true, last: "seam ✗" }), RUNNING_TITLE);
  });
});

describe("client: Run seam on a machine that has an eval", () => {
  it("runs the user's own runSeam call for that request instead of a keyless run", () => {
    const withEval: PlanContext = { ...ctx, evalCallFor: (t) => (t.request === "scoreDraft" ? { file: "/w/email.eval.ts", line: 10 } : undefined) };
    const plan = planRun({ kind: "run-seam", file: "/w/agent.ts", machineExport: "machine", machineId: "/w/agent.ts#machine:machine", request: "scoreDraft" }, withEval);
    assert.equal(plan.kind, "file");
    assert.deepEqual(plan.kind === "file" && plan.focus, { file: "/w/email.eval.ts", line: 10 });
    const other = planRun({ kind: "run-seam", file: "/w/agent.ts", machineExport: "machine", request: "draftEmail" }, withEval);
    assert.equal(other.kind, "generated");
  });
});

describe("client: the eval nearest a machine", () => {
  it("prefers an eval in the machine's own folder over one elsewhere", () => {
    const machine = "/w/examples/stately/email-agent.ts";
    assert.ok(closeness("/w/examples/stately/email-agent.test.ts", machine) > closeness("/w/examples/failing/score.test.ts", machine));
    assert.equal(closeness("/a/b/c.ts", "/x/y.ts"), 1);
  });
});
