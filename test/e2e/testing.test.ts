// End-to-end, the Testing view's profiles beyond Run (issues 25 and 27, the editor halves): Coverage (the Test
// Coverage view, the gutter, the hint on a state no eval reaches and its "Create an eval that reaches it"),
// Record against a local OpenAI-speaking server with its confirmation, replay, the drift diagnostic with its
// "Re-record this test", the Record lens on a turn call, and Run ×N with the flaky tag — in code-server (VS Code 1.139) driven by
// playwright-core, on a copy of examples/ with a recorded eval and an env file added. Conditions are waited
// for; nothing is timed. AGENT_LENS_SKIP_E2E=1 skips it, saying so.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Locator } from "playwright-core";
import { startOpenAIServer, type VendorServer } from "../support/vendor-servers/openai";
import { e2ePaths, startCodeServer, type CodeServer } from "./support/codeServer";
import { prepareExtension } from "./support/prepare";
import { extensionLog, positionIn, textOf, until } from "./support/waits";
import { Workbench } from "./support/workbench";

const ROOT = resolve(__dirname, "../..");
const SHOTS = join(ROOT, "test-results/e2e/testing");
const KEY = "placeholder-credential-e2e-recordings-7d1c0ffee"; // not a real key: the tests assert it never shows

/** One turn of a falai agent on OpenAIProvider: one model call ("speak"). */
const GREETING = (prompt: string) => `import { test } from "node:test";
import assert from "node:assert/strict";
import { falai, fakeClock, OpenAIProvider } from "@falai/agent";

const f = falai().fields({ nome: { type: "string" } });
const flow = f.flow({ id: "boas-vindas", name: "Boas-vindas", on: [{ message: [] }], steps: [{ id: "nome", prompt: ${JSON.stringify(prompt)}, collect: ["nome"] }] });

test("greets a new customer", async () => {
  const provider = new OpenAIProvider({ apiKey: process.env.OPENAI_API_KEY!, model: "gpt-5-mini" });
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
  const turn = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
  assert.equal(turn.messages[0]?.text, "Oi! Como você se chama?");
});
`;

/** A decision executor that answers at random, as a live model may: the test passes about half of the runs. */
const COIN = `import { test } from "node:test";
import assert from "node:assert/strict";
import { runAgent } from "@statelyai/agent";
import { machine } from "./support-triage";

test("a how-to question is answered (by a coin)", async () => {
  const result = await runAgent(machine, {
    input: { ticket: "How do I export my invoices as CSV?" },
    executors: {
      decide: async () => ({ event: { type: Math.random() < 0.5 ? "ANSWER" : "ESCALATE" } }),
      generateText: async () => ({ result: "Open Billing and choose Export CSV." }),
    },
  });
  assert.equal(result.status === "done" ? result.output.route : result.status, "answer");
});
`;

const GREETING_REPLY = { text: JSON.stringify({ message: "Oi! Como você se chama?", nome: null }), usage: { prompt: 120, completion: 12 } };

if (process.env.AGENT_LENS_SKIP_E2E === "1") {
  console.log("\n  e2e (Testing view): SKIPPED ON REQUEST (AGENT_LENS_SKIP_E2E=1).\n");
} else {
  describe("e2e: the Testing view's Coverage, Record and Run ×N profiles (code-server + Chromium)", function () {
    this.timeout(6 * 60_000);
    let scratch = "";
    let ws = "";
    let server: CodeServer | undefined;
    let openai: VendorServer | undefined;
    let wb: Workbench | undefined;
    const at = (rel: string) => join(ws, rel);

    before(async function () {
      this.timeout(15 * 60_000);
      mkdirSync(SHOTS, { recursive: true });
      let vsix: string;
      ({ scratch, vsix } = prepareExtension(ROOT, "testing-"));
      openai = await startOpenAIServer();
      ws = join(scratch, "examples");
      cpSync(join(ROOT, "examples"), ws, { recursive: true });
      // The key and the server's address reach the runs through agentLens.run.envFile only.
      writeFileSync(at(".env"), `OPENAI_API_KEY=${KEY}\nOPENAI_BASE_URL=${openai.url}\n`);
      server = await startCodeServer({
        paths: e2ePaths(ROOT), runDir: join(scratch, "cs"), workspace: ws, vsix, trust: false,
        settings: { "agentLens.run.envFile": ".env", "testing.automaticallyOpenPeekView": "never" },
      });
      wb = await Workbench.open(server.url, SHOTS);
      await wb.openFile(at("stately/support-triage.eval.ts"));
      // The Testing view's commands exist once the extension has activated and made its test controller.
      await until("the Testing view", () => wb!.command("Testing: Focus on Test Explorer View").then(() => true, () => undefined), 180_000);
      await testRow("stately/support-triage.eval.ts").waitFor({ timeout: 180_000 });
    });

    after(async function () {
      this.timeout(60_000);
      await wb?.close();
      await server?.stop();
      await openai?.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    afterEach(async function () {
      if (this.currentTest?.state === "failed" && wb) await wb.shot(`fail-${this.currentTest.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 50)}`);
      // What the extension logged last (runs, internal errors): a failure that waited for a result says why.
      if (this.currentTest?.state === "failed" && server) console.log(`      the Agent Lens log's last lines:\n${extensionLog(server).trimEnd().split("\n").slice(-30).map((l) => `        ${l}`).join("\n")}`);
    });

    const page = () => wb!.page;
    const testRow = (label: string) => page().locator(".test-explorer .monaco-list-row", { hasText: label }).first();
    const passed = (label: string) => testRow(label).locator(".codicon-testing-passed-icon").waitFor({ timeout: 180_000 });
    const failed = (label: string) => testRow(label).locator(".codicon-testing-failed-icon").waitFor({ timeout: 180_000 });
    const coverageRow = (label: string) => page().locator(".monaco-list-row", { has: page().locator(".test-coverage-list-item .label-name", { hasText: new RegExp(`^${label.replace(/\./g, "\\.")}$`) }) }).first();
    const percentOf = async (label: string) => (await textOf(coverageRow(label).locator(".tpc"))) || undefined;

    /** The declarations listed under a file of the Test Coverage view (expanded), with their text. */
    const declarationsOf = async (label: string): Promise<string[]> => {
      const row = coverageRow(label);
      if ((await row.getAttribute("aria-expanded")) !== "true") await row.locator(".monaco-tl-twistie").click();
      const level = Number(await row.getAttribute("aria-level"));
      return until(`the declarations under ${label}`, async () => {
        const rows = await page().locator(".test-coverage-list-item").evaluateAll((els) => els.map((e) => {
          const r = e.closest(".monaco-list-row")!;
          return { level: Number(r.getAttribute("aria-level")), text: (e as unknown as { innerText: string }).innerText.replace(/\s+/g, " ").trim() };
        }));
        const start = rows.findIndex((r) => r.text.startsWith(label));
        const under: string[] = [];
        for (const r of rows.slice(start + 1)) {
          if (r.level <= level) break;
          under.push(r.text);
        }
        return under.length ? under : undefined;
      }, 60_000);
    };

    /** Right-click a Testing view row → "Execute Using Profile..." → the profile. */
    const executeUsing = async (row: Locator, profile: string) => {
      const pick = page().locator(".quick-input-list .monaco-list-row", { hasText: profile }).first();
      await until(`the profiles of "Execute Using Profile..."`, async () => {
        await row.click({ button: "right" });
        const item = page().locator(".context-view .action-menu-item", { hasText: "Execute Using Profile..." }).first();
        await item.hover();
        await page().keyboard.press("Enter"); // the menu acts on its focused item (a click can land before it is armed)
        if (await pick.waitFor({ timeout: 5_000 }).then(() => true, () => false)) return true;
        await page().keyboard.press("Escape");
        return undefined;
      }, 60_000);
      await pick.click();
    };

    /** The modal dialog's text; clicks `button`. */
    const answerDialog = async (button: string): Promise<string> => {
      const dialog = page().locator(".monaco-dialog-box").first();
      await dialog.waitFor({ timeout: 60_000 });
      const text = await textOf(dialog);
      await dialog.locator(".monaco-button", { hasText: new RegExp(`^${button}$`) }).first().click();
      await dialog.waitFor({ state: "hidden", timeout: 30_000 });
      return text;
    };

    /** Ctrl+. at a 1-based position, then the code action titled `title`. */
    const codeAction = async (file: string, line: number, column: number, title: string) => {
      await wb!.openFile(file);
      await wb!.goToLine(line, column);
      const action = page().locator(".action-widget .monaco-list-row.action", { hasText: title }).first();
      await until(`the code action "${title}"`, async () => {
        await page().keyboard.press("Control+.");
        if (await action.waitFor({ timeout: 5_000 }).then(() => true, () => false)) return true;
        await page().keyboard.press("Escape");
        return undefined;
      }, 90_000);
      await action.click();
    };

    /** Rewrites the greeting eval with its prompt plus `added`, and waits for the open editor to show it. */
    const editPrompt = async (file: string, added: string) => {
      writeFileSync(file, GREETING(`Descubra o nome, ${added}.`));
      await wb!.openFile(file);
      await until("the editor shows the edited prompt", async () => ((await textOf(page().locator(".editor-instance .view-lines").first())).includes(added) ? true : undefined), 60_000);
    };

    const gutterClass = async (line: number) => {
      const number = page().locator(".margin-view-overlays .line-numbers", { hasText: new RegExp(`^${line}$`) }).first();
      return (await number.getAttribute("class").catch(() => "")) ?? "";
    };

    it("Coverage: the Test Coverage view lists the machines and flows with percentages, the gutter marks an unreached state", async () => {
      await wb!.command("Test: Run All Tests with Coverage");
      assert.equal(await until("support-triage.ts at 100% in the Test Coverage view", () => percentOf("support-triage.ts")), "100.00%");
      assert.equal(await percentOf("mistakes.ts"), "0.00%");
      assert.match((await declarationsOf("support-triage.ts")).join("\n"), /^machine machine\b.*100\.00%/m);
      const flows = await declarationsOf("triage-agent.ts");
      assert.deepEqual(flows.map((d) => d.replace(/\s*\d+\.\d\d%.*$/, "")), ["flow triagem", "flow retomar"], flows.join("\n"));
      assert.ok(flows.every((d) => /\d+\.\d\d%/.test(d)), `each flow with its percent: ${flows.join(" | ")}`);
      assert.deepEqual(await declarationsOf("mistakes.ts"), ["machine typoMachine", "machine orphanMachine", "machine inlineMachine"]);
      await wb!.shot("01-coverage-view");
      // orphanMachine's "done" is reachable and no eval reaches it: the gutter marks its line as missed.
      const done = positionIn(at("stately/mistakes.ts"), `done: { type: "final" },`);
      await wb!.openFile(at("stately/mistakes.ts"));
      await wb!.goToLine(done.line);
      await until(`line ${done.line} marked missed in the gutter`, async () => (/coverage-deco-miss/.test(await gutterClass(done.line)) ? true : undefined), 60_000);
      await wb!.shot("02-gutter-unreached-state");
    });

    it("the hint's \"Create an eval that reaches it\" writes a test that passes and raises the coverage", async () => {
      const done = positionIn(at("stately/mistakes.ts"), `done: { type: "final" },`);
      // The hint is a diagnostic of its own (never a Problems warning): its code action is there.
      await codeAction(at("stately/mistakes.ts"), done.line, done.column + 1, "Create an eval that reaches it");
      const written = at("stately/orphanMachine-reaches-done.test.ts");
      await until("the new eval written", () => (existsSync(written) ? true : undefined), 120_000);
      await page().locator(".tabs-container .tab.active", { hasText: "orphanMachine-reaches-done.test.ts" }).waitFor({ timeout: 60_000 });
      const source = readFileSync(written, "utf8");
      assert.match(source, /simulateAgent\(orphanMachine, /);
      assert.match(source, /"summarize": \[/);
      await wb!.shot("03-reaching-eval-written");
      await testRow("stately/orphanMachine-reaches-done.test.ts").waitFor({ timeout: 120_000 });
      await wb!.command("Test: Run All Tests with Coverage");
      await passed("stately/orphanMachine-reaches-done.test.ts");
      const percent = await until("mistakes.ts above 0% in the Test Coverage view", async () => {
        const p = await percentOf("mistakes.ts");
        return p && p !== "0.00%" ? p : undefined;
      });
      assert.ok(Number.parseFloat(percent) > 0, percent);
      assert.match((await declarationsOf("mistakes.ts")).join("\n"), /machine orphanMachine.*100\.00%/);
      await wb!.openFile(at("stately/mistakes.ts"));
      await wb!.goToLine(done.line);
      await until(`line ${done.line} marked covered in the gutter`, async () => (/coverage-deco-hit/.test(await gutterClass(done.line)) ? true : undefined), 60_000);
      await wb!.shot("04-coverage-raised");
    });

    it("Record: the confirmation names what it knows, the run writes __recordings__ against the local OpenAI server; a later run replays", async () => {
      const file = at("recorded/greeting.eval.ts");
      const recording = at("recorded/__recordings__/greeting.eval.ts.json");
      // Written now: the coverage runs above ran every eval file, and this one would have gone live.
      mkdirSync(at("recorded"));
      writeFileSync(file, GREETING("Descubra o nome."));
      openai!.script(GREETING_REPLY);
      await wb!.openFile(file);
      await wb!.command("Testing: Focus on Test Explorer View");
      await testRow("recorded/greeting.eval.ts").waitFor({ timeout: 120_000 });
      await executeUsing(testRow("recorded/greeting.eval.ts"), "Record");
      const question = await answerDialog("Record");
      assert.match(question, /Record recorded\/greeting\.eval\.ts\?.*goes live to the models this file configures.*may cost money/);
      await until("the recording written", () => (existsSync(recording) ? true : undefined));
      await passed("recorded/greeting.eval.ts");
      assert.equal(openai!.requests.length, 1);
      assert.equal(openai!.requests[0]!.headers.authorization, `Bearer ${KEY}`, "the env file's key reached the server");
      const text = readFileSync(recording, "utf8");
      assert.equal(text.includes(KEY), false, "the key occurs nowhere in the recording");
      assert.deepEqual(Object.keys(JSON.parse(text).tests), ["greets a new customer"]);
      await wb!.shot("05-recorded");
      // A plain run answers from the recording: nothing reaches the server.
      const connections = openai!.connections;
      const runs = (extensionLog(server!).match(/harness: greeting\.eval\.ts passed/g) ?? []).length;
      await wb!.openFile(file);
      await wb!.command("Test: Run Tests in Current File");
      await until("a second passing run of greeting.eval.ts", () => ((extensionLog(server!).match(/harness: greeting\.eval\.ts passed/g) ?? []).length > runs ? true : undefined));
      await passed("recorded/greeting.eval.ts");
      assert.equal(openai!.connections, connections, "the replay opened no connection");
    });

    it("after the prompt is edited, the drift diagnostic sits at the call; \"Re-record this test\" records it again", async () => {
      const file = at("recorded/greeting.eval.ts");
      const recording = at("recorded/__recordings__/greeting.eval.ts.json");
      await editPrompt(file, "com calma");
      const connections = openai!.connections;
      await wb!.command("Test: Run Tests in Current File");
      await failed("recorded/greeting.eval.ts");
      assert.equal(openai!.connections, connections, "a drift never goes live");
      await wb!.command("Problems: Focus on Problems View");
      // The Problems view lists the whole workspace's findings: filter it to the drift (its code).
      const problemsFilter = page().getByPlaceholder(/^Filter \(e\.g\. text, \*\*\/\*\.ts/).first();
      await problemsFilter.fill("replay-drift");
      const problem = page().locator(".markers-panel .monaco-list-row", { hasText: "replay drifted at call #1" }).first();
      await problem.waitFor({ timeout: 60_000 });
      const call = positionIn(file, "await agent.turn(");
      assert.match(await textOf(problem), new RegExp(`\\[Ln ${call.line}, Col \\d+\\]`), "at the turn call");
      await wb!.shot("06-drift-diagnostic");
      openai!.script(GREETING_REPLY);
      await codeAction(file, call.line, call.column + 6, "Re-record this test");
      const question = await answerDialog("Record");
      assert.match(question, /Record "greets a new customer" in recorded\/greeting\.eval\.ts\?.*"gpt-5-mini"/);
      await until("the recording rewritten with the new prompt", () => (readFileSync(recording, "utf8").includes("com calma") ? true : undefined));
      await passed("recorded/greeting.eval.ts");
      await page().locator(".markers-panel .monaco-list-row", { hasText: "replay drifted" }).first().waitFor({ state: "detached", timeout: 60_000 });
      await wb!.shot("07-rerecorded");
      await problemsFilter.fill("");
    });

    it("the Record lens beside the turn call's run lens records that test, after the same confirmation", async () => {
      const file = at("recorded/greeting.eval.ts");
      const recording = at("recorded/__recordings__/greeting.eval.ts.json");
      await editPrompt(file, "por favor");
      const record = wb!.lens(/^Record$/);
      await record.first().waitFor({ timeout: 120_000 });
      assert.equal(await record.count(), 1, "one Record lens: the file's one turn call (the flow's own Run turns lens has none)");
      // On the turn call's row of lenses (VS Code draws one line's lenses in one decoration), beside its Run
      // turns lens, right above the call; read until the editor's lens layout settles.
      const call = page().locator(".editor-instance .view-line", { hasText: "await agent.turn(" }).first();
      let seen = "";
      await until("the Record lens beside Run turns, right above the turn call", async () => {
        const row = await record.first().evaluate((a) => [...(a.parentElement?.querySelectorAll("a") ?? [])].map((x) => x.textContent ?? ""));
        const lensBox = await record.first().boundingBox();
        const lineBox = await call.boundingBox();
        const gap = lensBox && lineBox ? lineBox.y - (lensBox.y + lensBox.height) : NaN;
        seen = `row ${JSON.stringify(row)}, gap ${gap}`;
        return row.some((t) => t.startsWith("Run turns")) && lineBox && gap >= -2 && gap < lineBox.height * 1.5 ? true : undefined;
      }, 30_000).catch((error: Error) => assert.fail(`${error.message}: ${seen}`));
      openai!.script(GREETING_REPLY);
      const requests = openai!.requests.length;
      await record.first().click();
      const question = await answerDialog("Record");
      assert.match(question, /Record "greets a new customer" in recorded\/greeting\.eval\.ts\?.*"gpt-5-mini"/);
      await until("the recording rewritten with the new prompt", () => (readFileSync(recording, "utf8").includes("por favor") ? true : undefined));
      await passed("recorded/greeting.eval.ts");
      assert.equal(openai!.requests.length, requests + 1, "the one call went live");
      assert.equal(readFileSync(recording, "utf8").includes(KEY), false, "the key occurs nowhere in the recording");
      assert.equal(extensionLog(server!).includes(KEY), false, "nor in the Output channel");
      const panelText = await until("the Record run in the results panel", async () => {
        const text = await textOf(wb!.panel().locator("body"));
        return text.includes("Record · recorded/greeting.eval.ts") ? text : undefined;
      }, 60_000);
      assert.equal(panelText.includes(KEY), false, "nor in the results panel");
      await wb!.shot("08-record-lens");
    });

    it("Run ×N on a test whose executor answers at random: a pass rate with its interval, and the flaky tag", async () => {
      writeFileSync(at("stately/coin.test.ts"), COIN);
      await wb!.openFile(at("stately/coin.test.ts"));
      await wb!.command("Testing: Focus on Test Explorer View");
      const fileRow = testRow("stately/coin.test.ts");
      await fileRow.waitFor({ timeout: 120_000 });
      await executeUsing(fileRow, "Run ×N");
      const input = page().locator(".quick-input-widget input").first();
      await until("the Run ×N box, N = 10 by default", async () => ((await input.inputValue().catch(() => "")) === "10" && (await textOf(page().locator(".quick-input-widget"))).includes("How many times") ? true : undefined), 30_000);
      await input.fill("20"); // both outcomes in 20 coin flips: all but certain (1 - 2^-19)
      await input.press("Enter"); // to the box itself, wherever the Testing view's tree put the focus meanwhile
      if ((await fileRow.getAttribute("aria-expanded")) !== "true") await fileRow.locator(".monaco-tl-twistie").click();
      const test = testRow("a how-to question is answered (by a coin)");
      const description = await until("the test's pass rate", async () => {
        const text = await textOf(test);
        return /passed \(/.test(text) ? text : undefined;
      }, 240_000);
      assert.match(description, /flaky · \d+\/20 passed \(\d+(\.\d)?%, 95% interval \d+(\.\d)?%–\d+(\.\d)?%\) · \d+\/20 reached (answered|escalated), \d+\/20 reached (answered|escalated)$/);
      await test.locator(".codicon-testing-failed-icon").waitFor({ timeout: 30_000 });
      // The flaky tag filters the view.
      // The filter box is a one-line editor: focus it, type.
      const filter = page().locator(".testing-filter-action-item .monaco-editor").first();
      await filter.click();
      await page().keyboard.type("@agentLens.evals:flaky");
      let rows: string[] = [];
      const filtered = await until("the view filtered by the tag", async () => {
        rows = (await page().locator('.test-explorer .monaco-list-row[role="treeitem"]').allInnerTexts()).map((r) => r.replace(/\s+/g, " ").trim());
        return rows.length === 2 && rows.every((r) => !/support-triage|email-agent|mistakes/.test(r)) ? rows : undefined;
      }, 30_000).catch((error: Error) => assert.fail(`${error.message}: ${JSON.stringify(rows)}`));
      assert.match(filtered[0]!, /^stately\/coin\.test\.ts/);
      assert.match(filtered[1]!, /^a how-to question is answered \(by a coin\) ?flaky · /);
      await wb!.shot("09-flaky-tag");
      await filter.click();
      await page().keyboard.press("Control+A");
      await page().keyboard.press("Backspace");
    });
  });
}
