// End-to-end: the packaged extension (.vsix) in a real VS Code (code-server 4.139.1 = VS Code 1.139.1)
// driven through Debian's Chromium with playwright-core, on a copy of examples/. Each check stands alone
// (opens its own file) and saves screenshots under test-results/e2e/. Timing figures are printed, never
// asserted. AGENT_LENS_SKIP_E2E=1 skips the suite, saying so; nothing else skips it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { e2ePaths, startCodeServer, type CodeServer } from "./support/codeServer";
import { contrastSamples } from "./support/contrast";
import { measureDiagrams } from "./support/diagramGeometry";
import { prepareExtension } from "./support/prepare";
import { Workbench } from "./support/workbench";

const ROOT = resolve(__dirname, "../..");
const SHOTS = join(ROOT, "test-results/e2e");
const TRUST_TEXT = "needs a trusted workspace";

if (process.env.AGENT_LENS_SKIP_E2E === "1") {
  console.log("\n  e2e: SKIPPED ON REQUEST (AGENT_LENS_SKIP_E2E=1): the VS Code end-to-end suite did not run.\n");
} else {
  describe("e2e: Agent Lens in a real VS Code (code-server + Chromium)", function () {
    this.timeout(5 * 60_000);
    const paths = e2ePaths(ROOT);
    const servers: CodeServer[] = [];
    const figures: string[] = [];
    let scratch = "";
    let ws = "";
    let vsix = "";
    let server: CodeServer | undefined;
    let wb: Workbench | undefined;
    const at = (rel: string) => join(ws, rel);
    /** Figures say the machine's load beside them (2 cores shared with other work). */
    const figure = (line: string) => {
      line = `${line} [load ${loadavg().map((n) => n.toFixed(2)).join(" ")}]`;
      figures.push(line);
      console.log(`      ⏱ ${line}`);
    };

    before(async function () {
      this.timeout(15 * 60_000);
      mkdirSync(SHOTS, { recursive: true });
      const prepared = prepareExtension(ROOT, "");
      ({ scratch, vsix } = prepared);
      const packMs = prepared.packMs;
      figure(`vsce package: ${(statSync(vsix).size / 1024 / 1024).toFixed(2)} MB .vsix in ${(packMs / 1000).toFixed(1)} s`);

      ws = join(scratch, "examples");
      cpSync(join(ROOT, "examples"), ws, { recursive: true });
      server = await startCodeServer({ paths, runDir: join(scratch, "cs-trusted"), workspace: ws, vsix, trust: false, settings: { "testing.automaticallyOpenPeekView": "failureAnywhere" } });
      servers.push(server);
      wb = await Workbench.open(server.url, SHOTS);
      await wb.shot("00-workbench");
    });

    after(async function () {
      this.timeout(60_000);
      await wb?.close();
      for (const s of servers) await s.stop();
      if (figures.length) console.log(`\n  e2e figures:\n${figures.map((f) => `    ${f}`).join("\n")}\n`);
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    afterEach(async function () {
      if (this.currentTest?.state === "failed" && wb) await wb.shot(`fail-${slug(this.currentTest.title)}`);
    });

    it("at start, with no file opened, the Problems view lists every planted finding and the Explorer marks the mistakes files red", async () => {
      const page = wb!.page;
      const t0 = Date.now();
      await wb!.command("Problems: Focus on Problems View");
      // Our findings only (TypeScript reports on open files, and none is open): exactly the planted ones.
      const planted = plantedFindings(ws);
      await wb!.command("View: Toggle Maximized Panel"); // every row in view (the list only draws what shows)
      const rows = page.locator(".markers-panel .monaco-list-row");
      await rows.filter({ hasText: "unknown-target" }).first().waitFor({ timeout: 180_000 });
      figure(`workbench shown → the first finding in the Problems view, no file opened (includes server start and indexing): ${ms(Date.now() - t0)}`);
      const found = await settledProblems(wb!, planted.length, 120_000);
      await wb!.shot("00b-problems-at-start");
      assert.deepEqual(found.map(problemKey).sort(), planted.sort(), `Problems panel:\n${found.join("\n")}`);
      await wb!.command("View: Toggle Maximized Panel");
      assert.equal(await page.locator(".tabs-container .tab").count(), 0, "no editor was opened");
      // The Explorer: each file with findings is drawn in the error colour with its count; a clean one is not.
      await wb!.command("File: Focus on Files Explorer");
      const explorer = page.locator(".explorer-folders-view");
      const rowOf = (name: string, folder: string) => explorer.locator(`.monaco-list-row[aria-label="${name}"]`).filter({ has: page.locator(`.monaco-icon-label[aria-label*="/${folder}/${name}"]`) }).first();
      for (const folder of ["stately", "falai"]) {
        const folderRow = explorer.locator(`.monaco-list-row[aria-label="${folder}"]`).first();
        if ((await folderRow.getAttribute("aria-expanded")) !== "true") await folderRow.click();
      }
      const colour = async (name: string, folder: string) => {
        const row = rowOf(name, folder);
        await row.waitFor({ timeout: 30_000 });
        return row.locator(".label-name").first().evaluate((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { color: string } }).getComputedStyle(e).color);
      };
      const clean = await colour("email-agent.ts", "stately");
      for (const [name, folder] of [["mistakes.ts", "stately"], ["mistakes.test.ts", "stately"], ["mistakes.ts", "falai"]] as const) {
        // (decorations come a moment after a folder is expanded) its count ("2", "9+"), drawn as CSS content
        const badge = async () => (await rowOf(name, folder).evaluate((row) => Array.from((row as unknown as { querySelectorAll(s: string): ArrayLike<unknown> }).querySelectorAll("*"))
          .map((e) => (globalThis as unknown as { getComputedStyle(x: unknown, p: string): { content: string } }).getComputedStyle(e, "::after").content)
          .filter((c) => c && c !== "none" && c !== "normal").join(" "))).replace(/"/g, "");
        for (const deadline = Date.now() + 30_000; !/^\d+\+?$/.test(await badge());) {
          assert.ok(Date.now() < deadline, `${folder}/${name} shows its problem count, not "${await badge()}"`);
          await page.waitForTimeout(250);
        }
        assert.notEqual(await colour(name, folder), clean, `${folder}/${name} is drawn in the error colour`);
      }
      await wb!.shot("00c-explorer-marks-mistakes");
    });

    it("the Problems panel holds exactly the planted findings: TypeScript knows the bundled libraries (no \"Cannot find module\")", async () => {
      const page = wb!.page;
      await wb!.command("Problems: Focus on Problems View");
      const t0 = Date.now();
      await wb!.openFile(at("stately/mistakes.ts"));
      const opened = Date.now();
      const rows = page.locator(".markers-panel .monaco-list-row");
      const unknownTarget = rows.filter({ hasText: "unknown-target" }).first();
      await unknownTarget.waitFor({ timeout: 180_000 });
      figure(`open file → our diagnostics (first file, includes server start and indexing): ${ms(Date.now() - opened)} (quick open ${ms(opened - t0)})`);
      assert.match(await unknownTarget.innerText(), /reveiw/, "the unknown-target message names the bad target");
      await wb!.shot("01-problems-stately");

      // A second file, server warm: the figure the ≤ 1 s target is about.
      const opened2 = await timeOpen(() => wb!.openFile(at("falai/mistakes.ts")));
      await rows.filter({ hasText: "unknown-field" }).first().waitFor({ timeout: 60_000 });
      figure(`open file → our diagnostics (server warm): ${ms(Date.now() - opened2)}`);

      // TypeScript reports only on open files: open every file of the workspace.
      const files = tsFiles(ws);
      for (const f of files) await wb!.openFile(f);
      const planted = plantedFindings(ws);
      const plantedErrors = planted.filter((p) => WARNING_CODES.every((w) => !p.endsWith(` ${w}`))).length;
      // TypeScript is on and its diagnostics reach the panel: a real type error in a scratch file counts…
      const probe = at("stately/ts-probe.ts");
      writeFileSync(probe, `import { z } from "zod";\nexport const n: number = z.string().parse("x");\n`);
      const tsFirst = Date.now();
      try {
        await wb!.openFile(probe);
        await waitForCounts(wb!, { errors: plantedErrors + 1, warnings: planted.length - plantedErrors }, 180_000);
        await wb!.shot("02-problems-typescript-probe");
      } finally {
        await wb!.command("View: Close All Editors");
        rmSync(probe, { force: true });
      }
      for (const f of files) await wb!.openFile(f);
      // …and with every file open, the panel settles on the planted findings only.
      await waitForCounts(wb!, { errors: plantedErrors, warnings: planted.length - plantedErrors }, 180_000);
      await wb!.command("View: Toggle Maximized Panel");
      const found = await settledProblems(wb!, planted.length, 120_000);
      figure(`every example file open → Problems settled on ${found.length} findings: ${ms(Date.now() - tsFirst)}`);
      await wb!.shot("02-problems-exactly-planted");
      const text = found.join("\n");
      assert.doesNotMatch(text, /Cannot find module|Cannot find type definition|implicitly has an 'any' type/, "no TypeScript noise");
      assert.deepEqual(found.map(problemKey).sort(), planted.sort(), `Problems panel:\n${text}`);
      await wb!.command("View: Toggle Maximized Panel");
      await wb!.command("View: Close All Editors");
    });

    it("the Run seam lens on the seed machine shows { \"score\": 4 } and the call sources in the results panel", async () => {
      await wb!.openFile(at("stately/email-agent.ts"));
      const lens = await lensAbove(wb!, at("stately/email-agent.ts"), "scoreDraft: {", "Run seam");
      await wb!.shot("03-run-seam-lens");
      const panel = wb!.panel();
      let t0 = Date.now();
      await lens.click();
      await panel.locator('.result[data-status="passed"] .seam-output').waitFor({ timeout: 120_000 });
      figure(`click Run seam → result in the panel (first run, cold bundle): ${ms(Date.now() - t0)}`);
      const output = await panel.locator(".seam-output").first().innerText();
      assert.deepEqual(JSON.parse(output), { score: 4 });
      const sources = await panel.locator("table.calls tbody tr td:nth-child(5)").allInnerTexts();
      assert.deepEqual(sources.map((s) => s.trim()), ["script", "script"]);
      const path = (await panel.locator(".seam-run .path").first().innerText()).replace(/\s+/g, " ");
      assert.match(path, /drafting.*scoring.*seam: scoreDraft.*done/);
      await panel.locator("svg.diagram g.node.seam").first().waitFor({ timeout: 30_000 });
      await wb!.shot("04-run-seam-panel");

      // Again: the bundle is cached now (the figure the ≤ 1.5 s target is about).
      const runId = await panel.locator(".result").first().getAttribute("data-run");
      const lensAgain = await lensAbove(wb!, at("stately/email-agent.ts"), "scoreDraft: {", "Run seam");
      // The click comes once the child started behind the first run has loaded the libraries (a user
      // reading the first result takes longer than that).
      await waitForLog(server!, /harness: email-agent\.test\.ts passed/, 1);
      await new Promise((r) => setTimeout(r, 1500));
      t0 = Date.now();
      await lensAgain.click();
      await panel.locator(`.result[data-status="passed"]:not([data-run="${runId}"]) .seam-output`).waitFor({ timeout: 120_000 });
      figure(`click Run seam → result in the panel (warm): ${ms(Date.now() - t0)}`);
      // What the extension says of that run: it ran on the warm child started behind the first one.
      const lines = await waitForLog(server!, /harness: email-agent\.test\.ts passed/, 2);
      figure(`  the warm click's run, as the extension logs it: ${lines[1]!.replace(/^.*?harness: /, "")}`);
      const jobs = await waitForLog(server!, /\] Run seam · scoreDraft: .* in \d+ ms/, 2);
      figure(`  the warm click's lens job (run, diagrams, panel update), as logged: ${jobs[1]!.replace(/^.*?\] /, "")}`);
      assert.match(lines[1]!, /warm child, started \d+ ms before/);
    });

    it("Run turns shows the falai end-to-end timeline", async () => {
      await wb!.openFile(at("falai/triage-agent.test.ts"));
      const lens = await lensAbove(wb!, at("falai/triage-agent.test.ts"), "await agent.turn(", "Run turns");
      const panel = wb!.panel();
      const t0 = Date.now();
      await lens.click();
      await panel.locator('.result[data-status="passed"] ol.timeline').waitFor({ timeout: 120_000 });
      figure(`click Run turns → timeline in the panel: ${ms(Date.now() - t0)}`);
      const turns = panel.locator("ol.timeline > li.turn");
      assert.equal(await turns.count(), 2);
      const first = (await turns.nth(0).innerText()).replace(/\s+/g, " ");
      assert.match(first, /oi, sou a Ana, quero saber como funciona/);
      assert.match(first, /llmCalls 2/);
      assert.match(first, /triagem#m1:quem:1/);
      assert.match(first, /silence:retomar:s1:1789898400000/);
      const second = (await turns.nth(1).innerText()).replace(/\s+/g, " ");
      assert.match(second, /wake silence:retomar:s1:1789898400000/);
      assert.match(second, /retomar#1789898400000:p1:1/);
      assert.match(second, /waiting/);
      // The run's own flows, from the agent the eval builds (triage-agent.ts), not replay.test.ts's "retomar".
      const diagrams = panel.locator(`.result[data-run="${await panel.locator(".result").first().getAttribute("data-run")}"] figure.diagram-box`);
      await waitForCount(diagrams, 2, 60_000);
      const graphs = await diagrams.evaluateAll((els) => els.map((e) => e.getAttribute("data-graph") ?? ""));
      assert.deepEqual(graphs.map((g) => g.replace(/^.*[\\/]/, "").replace(/#.*$/, "")), ["triage-agent.ts", "triage-agent.ts"], graphs.join(", "));
      assert.deepEqual((await diagrams.locator("figcaption strong").allInnerTexts()).sort(), ["retomar", "triagem"]);
      await panel.locator("figure.diagram-box svg.diagram g.node.visited").first().waitFor({ timeout: 30_000 });
      await wb!.shot("05-run-turns-panel");
    });

    it("Run seam on the broken machine (a transition to a state that does not exist) shows failed, and no generated file", async () => {
      const file = at("stately/mistakes.ts");
      await wb!.openFile(file);
      const lens = await lensAbove(wb!, file, 'src: "summarize",', "Run seam");
      const panel = wb!.panel();
      const before = await panel.locator(".result").first().getAttribute("data-run").catch(() => null);
      const t0 = Date.now();
      await lens.click();
      const result = panel.locator(`.result[data-status="failed"]${before ? `:not([data-run="${before}"])` : ""}`);
      await result.locator(".verdict-subject").waitFor({ timeout: 120_000 });
      figure(`click Run seam (keyless, broken machine) → failed in the panel: ${ms(Date.now() - t0)}`);
      assert.equal((await result.locator(".verdict-subject").innerText()).trim(), "seam ✗");
      assert.match(await result.locator(".error-card").first().innerText(), /reveiw/);
      // The user's names: the state path and "the machine", XState's own words on hover.
      const message = result.locator(".error-card .message").first();
      assert.equal((await message.innerText()).trim(), `Invalid transition for state "summarizing": Child state 'reveiw' does not exist on the machine`);
      assert.equal(await message.getAttribute("title"), "Invalid transition for '(machine).summarizing': Child state 'reveiw' does not exist on '(machine)'");
      assert.doesNotMatch(await result.innerText(), /\(machine\)/, "no XState id in the panel's text");
      const text = await result.innerText();
      assert.doesNotMatch(text, GENERATED, "a generated file name in the panel");
      assert.match(await result.locator(".seam-run .callsite").first().innerText(), /mistakes\.ts:\d+/, "the call site is the lens's place");
      // One verdict everywhere: nothing in the result says "passed" (the generated program's own run is no
      // test of the user's), and the lens and the status bar say the header's line.
      assert.deepEqual(await result.locator(".status-passed").allInnerTexts(), [], "a green \"passed\" beside \"seam ✗\"");
      assert.equal(await result.locator("section.tests").count(), 0, "no Tests section for a generated program");
      await waitForText(await lensAbove(wb!, file, 'src: "summarize",', "Run seam"), /^Run seam \(last run: seam ✗\)$/);
      await waitForText(wb!.page.locator(".statusbar-item", { hasText: "Run seam · summarize" }).first(), /Run seam · summarize: seam ✗/);
      await wb!.shot("11-broken-machine-failed");

      // Explore paths is a generated program too: its panel names the machine's file only.
      const explore = await lensAbove(wb!, file, "export const typoMachine", "Explore paths");
      const runId = await panel.locator(".result").first().getAttribute("data-run");
      await explore.click();
      const explored = panel.locator(`.result:not([data-run="${runId}"]):not([data-status="running"])`);
      await explored.waitFor({ timeout: 120_000 });
      assert.doesNotMatch(await explored.innerText(), GENERATED);
      // The machine cannot move: its only transition names no state. That is an error of the exploration,
      // at the state it leaves, and nothing was pruned by a guard (the machine has none).
      assert.equal((await explored.locator(".verdict-subject").innerText()).trim(), "explore paths ✗");
      // Located at the state's source: the result is drawn first (located at the explorePaths call) and
      // placed at the state once the machine's diagram has come from the server, a moment later.
      const errorCard = await waitForText(explored.locator(".error-card").first(), /mistakes\.ts:22\b/);
      assert.match(errorCard, /From state "summarizing" on done: summarizing: .*reveiw/s);
      assert.equal((await explored.locator(".explore .rejected").innerText()).trim(), "1 transition rejected by XState");
      assert.doesNotMatch(await explored.innerText(), /pruned by guards/);
      assert.equal((await explored.locator("table.terminals tbody tr td:nth-child(4)").innerText()).trim(), "error");
      await wb!.shot("12-explore-no-generated-names");
    });

    it("a file that passed while a result ended in error says exactly that in the panel's header and Tests section, the Testing view and the status bar", async () => {
      const probe = at("stately/errored-probe.test.ts");
      writeFileSync(probe, ERRORED_PROBE);
      try {
        await wb!.openFile(probe);
        const page = wb!.page;
        await wb!.command("Testing: Focus on Test Explorer View");
        const row = page.locator(".test-explorer .monaco-list-row", { hasText: "errored-probe.test.ts" }).first();
        await row.waitFor({ timeout: 120_000 });
        await wb!.openFile(probe);
        const panel = wb!.panel();
        const before = await panel.locator(".result").first().getAttribute("data-run").catch(() => null);
        await wb!.command("Test: Run Tests in Current File");
        const result = panel.locator(`.result[data-status="passed"]${before ? `:not([data-run="${before}"])` : ""}`);
        await result.locator("header .errored").waitFor({ timeout: 120_000 });
        assert.equal((await result.locator("header .verdict-only").innerText()).trim(), "passed");
        assert.equal((await result.locator("header .errored").innerText()).trim(), "1 result ended in error");
        const tests = await result.locator("section.tests li.test").allInnerTexts();
        assert.equal(tests.length, 1, tests.join("\n"));
        assert.match(tests[0]!.replace(/\s+/g, " "), /^passed ?1 result ended in error runs the typo machine/, `the test's row says it beside "passed": ${tests[0]}`);
        // The Testing view: the test passed, and its description says the same.
        const testRow = page.locator(".test-explorer .monaco-list-row", { hasText: "runs the typo machine" }).first();
        if (!(await testRow.isVisible())) await row.locator(".monaco-tl-twistie").click();
        await waitForText(testRow, /1 result ended in error/);
        await testRow.locator(".codicon-testing-passed-icon").waitFor({ timeout: 30_000 });
        await waitForText(page.locator(".statusbar-item", { hasText: "errored-probe.test.ts" }).first(), /passed · 1 result ended in error/);
        await wb!.shot("11b-passed-with-an-errored-result");
      } finally {
        rmSync(probe, { force: true });
        await wb!.command("View: Close All Editors");
      }
    });

    it("badges, status pills and the seam tab reach WCAG AA contrast in light, dark and high-contrast themes", async () => {
      const panel = wb!.panel();
      // Two results between them draw every kind of badge: a seam run (call sources, the seam tab on the
      // diagram, the seam split) and explore paths of a broken machine (counts, an error badge, status pills).
      await wb!.openFile(at("stately/email-agent.ts"));
      const seamBefore = await panel.locator(".result").first().getAttribute("data-run").catch(() => null);
      await (await lensAbove(wb!, at("stately/email-agent.ts"), "scoreDraft: {", "Run seam")).click();
      const seam = panel.locator(`.result[data-status="passed"]${seamBefore ? `:not([data-run="${seamBefore}"])` : ""}`);
      await seam.locator("svg.diagram text.seam-label").waitFor({ timeout: 120_000 });
      const seamRun = (await seam.getAttribute("data-run"))!;
      await wb!.openFile(at("stately/mistakes.ts"));
      await (await lensAbove(wb!, at("stately/mistakes.ts"), "export const typoMachine", "Explore paths")).click();
      const explored = panel.locator(`.result:not([data-run="${seamRun}"]):not([data-status="running"])`);
      await explored.locator(".explore .badge").first().waitFor({ timeout: 120_000 });
      const exploreRun = (await explored.getAttribute("data-run"))!;
      // …and a file that passed while a result ended in error (a warning badge beside "passed").
      const probe = at("stately/contrast-probe.test.ts");
      writeFileSync(probe, ERRORED_PROBE);
      let probeRun = "";
      try {
        await wb!.openFile(probe);
        await wb!.page.locator(".test-explorer .monaco-list-row, .explorer-folders-view .monaco-list-row", { hasText: "contrast-probe.test.ts" }).first().waitFor({ timeout: 60_000 });
        for (const deadline = Date.now() + 120_000; !probeRun; ) {
          await wb!.command("Test: Run Tests in Current File");
          const shown = panel.locator(`.result[data-status="passed"] header .badge.warn`);
          if (await shown.first().waitFor({ timeout: 20_000 }).then(() => true, () => false)) probeRun = (await panel.locator(".result").first().getAttribute("data-run"))!;
          assert.ok(probeRun || Date.now() < deadline, "the probe's Testing view run reached the panel");
        }
      } finally {
        rmSync(probe, { force: true });
      }
      const report: string[] = [];
      try {
        for (const [theme, bodyClass] of THEMES) {
          await setTheme(wb!, theme);
          await panel.locator(`body.${bodyClass}`).waitFor({ timeout: 60_000 });
          for (const runId of [exploreRun, seamRun, probeRun]) {
            await showRecent(panel, runId);
            const samples = await contrastSamples(panel, `.result[data-run="${runId}"]`);
            assert.ok(samples.length >= 5, `badges measured in ${theme}: ${JSON.stringify(samples)}`);
            for (const s of samples) report.push(`${theme} · ${s.what} "${s.text}": ${s.ratio}:1 (${s.color} on ${s.background})`);
            const low = samples.filter((x) => x.ratio < 4.5);
            await wb!.shot(`17-contrast-${slug(theme)}-${runId === seamRun ? "seam" : runId === probeRun ? "errored" : "explore"}`);
            assert.deepEqual(low, [], `below WCAG AA (4.5:1) in ${theme}`);
          }
        }
      } catch (error) {
        console.log(`      contrast measured:\n${report.map((l) => `        ${l}`).join("\n")}`);
        throw error;
      } finally {
        await setTheme(wb!, "Light 2026");
      }
    });

    it("lenses and the Run Seam… palette offer only what can run: no Run seam on a decision (the hover says why), one lens asking which machine on a shared request", async () => {
      const page = wb!.page;
      const triage = at("stately/support-triage.ts");
      await wb!.openFile(triage);
      // The text request keeps its lens (and once one lens of the file is drawn, all of them are).
      await lensAbove(wb!, triage, 'src: "draftReply",', "Run seam");
      assert.deepEqual(await lensTitlesAbove(wb!, triage, "src: agent.decide,"), [], "no lens on the decision");
      // The hover where the lens would be says why.
      const decideLine = page.locator(".editor-instance .view-line", { hasText: "src: agent.decide," }).first();
      // (always: a line in view may still sit under the editor's sticky scroll, which takes the pointer)
      await wb!.goToLine(lineOf(triage, "src: agent.decide,"));
      await decideLine.locator("span", { hasText: /^decide$/ }).last().hover();
      const hover = page.locator(".monaco-hover", { hasText: "No Run seam here" }).first();
      await hover.waitFor({ timeout: 60_000 });
      assert.match(await hover.innerText(), /routes text requests only/);
      await wb!.shot("18-no-lens-on-a-decision-hover-says-why");
      await page.keyboard.press("Escape");

      // A request three machines invoke: one lens asks which machine, and runs the seam under it.
      const mistakes = at("stately/mistakes.ts");
      await wb!.openFile(mistakes);
      const shared = await lensAbove(wb!, mistakes, "summarize: {", "Run seam · 3 machines…");
      assert.deepEqual(await lensTitlesAbove(wb!, mistakes, "summarize: {"), ["Run seam · 3 machines…"]);
      await shared.click();
      await page.locator('.quick-input-widget input[placeholder^="Run seam · summarize: which machine?"]').waitFor({ timeout: 30_000 });
      const machines = page.locator(".quick-input-list .monaco-list-row");
      await waitForCount(machines, 3, 30_000);
      assert.deepEqual((await machines.locator(".label-name").allInnerTexts()).map((t) => t.trim()), ["typoMachine", "orphanMachine", "inlineMachine"]);
      await wb!.shot("19-a-lens-asks-which-machine");
      const panel = wb!.panel();
      const before = await panel.locator(".result").first().getAttribute("data-run").catch(() => null);
      await machines.filter({ hasText: "orphanMachine" }).first().click();
      const ran = panel.locator(`.result:not([data-status="running"])${before ? `:not([data-run="${before}"])` : ""}`).first();
      await ran.locator(".verdict-subject").waitFor({ timeout: 120_000 });
      assert.equal((await ran.locator(".verdict-subject").innerText()).trim(), "seam ✓", "orphanMachine runs summarize and finishes");
      await ran.locator('figure.diagram-box figcaption strong', { hasText: "orphanMachine" }).waitFor({ timeout: 30_000 });

      // The palette lists what the lenses offer: the text requests each machine invokes, never the decision.
      await wb!.command("Agent Lens: Run Seam…");
      await page.locator('.quick-input-widget input[placeholder^="Run seam: pick a request"]').waitFor({ timeout: 60_000 });
      const rows = page.locator(".quick-input-list .monaco-list-row");
      await waitForCount(rows, 6, 30_000);
      // Each row: the request (its label) and "<machine> · <file>:<line>" (its description).
      const entries = (await rows.evaluateAll((els) => els.map((e) => [e.querySelector(".label-name")?.textContent ?? "", e.querySelector(".label-description")?.textContent ?? ""])))
        .map(([label, description]) => `${label.trim()} · ${description.split(" · ")[0]!.trim()}`).sort();
      await wb!.shot("20-run-seam-palette");
      await page.keyboard.press("Escape");
      assert.deepEqual(entries, ["draftEmail · machine", "draftReply · machine", "scoreDraft · machine", "summarize · inlineMachine", "summarize · orphanMachine", "summarize · typoMachine"]);
      await wb!.command("View: Close All Editors");
    });

    it("every name the user reads is theirs: an unnamed request by its state, machines by their variable, XState's ids only on hover", async () => {
      const page = wb!.page;
      const probe = at("stately/names-probe.test.ts");
      writeFileSync(probe, [
        `import { runSeam } from "@statelyai/agent/testing";`,
        `import { inlineMachine } from "./mistakes";`,
        ``,
        `await runSeam(inlineMachine, { scripts: { summarize: ["Notes."], writer: ["A title"] }, seam: { request: "summarize" } });`,
        `await runSeam(inlineMachine, { scripts: {}, seam: { request: "sumarize" } });`,
        ``,
      ].join("\n"));
      try {
        await wb!.openFile(probe);
        const panel = wb!.panel();
        const before = await panel.locator(".result").first().getAttribute("data-run").catch(() => null);
        await (await lensAbove(wb!, probe, 'seam: { request: "summarize" }', "Run seam")).click();
        const result = panel.locator(`.result:not([data-status="running"])${before ? `:not([data-run="${before}"])` : ""}`).first();
        await result.locator("table.calls").waitFor({ timeout: 120_000 });
        assert.equal((await result.locator(".verdict-subject").innerText()).trim(), "seam ✓");
        const unnamed = result.locator("table.calls .request-name").first();
        assert.equal((await unnamed.innerText()).trim(), "unnamed request of titling");
        assert.equal(await unnamed.getAttribute("title"), "0.(machine).titling");
        // The second call's error lists the machine's requests by the user's names too.
        assert.match(await result.locator(".error-card").first().innerText(), /its text requests: summarize, the unnamed request of state "titling"/);
        const shown = (await result.innerText()).split("\n").filter((l) => l.includes("(machine)"));
        assert.deepEqual(shown, [], "no XState id in the panel's text");
        await wb!.shot("21-names-are-the-users");
        // A finding names a machine by its variable and file, not as `machine "machine"`.
        await wb!.openFile(at("stately/mistakes.test.ts"));
        await wb!.command("Problems: Focus on Problems View");
        const row = page.locator(".markers-panel .monaco-list-row", { hasText: "draftEmial" }).first();
        await row.waitFor({ timeout: 120_000 });
        assert.match(await row.innerText(), /of the machine `machine` \(email-agent\.ts\)/);
        assert.doesNotMatch(await row.innerText(), /machine "machine"/);
        await wb!.shot("22-finding-names-the-machine");
      } finally {
        rmSync(probe, { force: true });
        await wb!.command("View: Close All Editors");
      }
    });

    it("diagrams: no edge through a label, a badge or a state's name, and zoom scales the drawing (nothing cut) — in each theme", async () => {
      const panel = wb!.panel();
      const runs: Array<[string, string]> = [];
      /** Clicks a lens and returns the run id of the result (or diagram) it put in the panel. */
      const open = async (file: string, line: string, title: string, ready: string) => {
        await wb!.openFile(file);
        const before = await panel.locator(".result").first().getAttribute("data-run").catch(() => null);
        await (await lensAbove(wb!, file, line, title)).click();
        const shown = panel.locator(`.result${before ? `:not([data-run="${before}"])` : ""}`).first();
        await shown.locator(ready).first().waitFor({ timeout: 120_000 });
        runs.push([file.split("/").slice(-2).join("/"), (await shown.getAttribute("data-run"))!]);
      };
      // a seam run (the seam's badge on its state), a machine with labelled transitions, a flow of 9 labelled edges
      await open(at("stately/email-agent.ts"), "scoreDraft: {", "Run seam", "svg.diagram text.seam-label");
      await open(at("stately/support-triage.ts"), "export const machine = agent.createMachine({", "Show diagram", "svg.diagram text.edge-label");
      await open(at("falai/mistakes.ts"), "const cadastro = f.flow({", "Show diagram", "svg.diagram text.edge-label");
      try {
        for (const [theme, bodyClass] of THEMES) {
          await setTheme(wb!, theme);
          await panel.locator(`body.${bodyClass}`).waitFor({ timeout: 60_000 });
          for (const [name, runId] of runs) {
            await showRecent(panel, runId);
            const root = `.result[data-run="${runId}"]`;
            const figure = panel.locator(`${root} figure.diagram-box`).first();
            await figure.scrollIntoViewIfNeeded();
            const [fit] = await measureDiagrams(panel, root);
            assert.ok(fit && fit.edges > 0 && fit.labels > fit.edges, `${name}: measured ${JSON.stringify(fit)}`);
            assert.deepEqual(fit.crossings, [], `${name} in ${theme}: edges through labels`);
            assert.deepEqual(fit.cut, [], `${name} in ${theme}: states outside the drawing`);
            await wb!.shot(`23-diagram-${slug(theme)}-${slug(name)}`);
            // Zoomed in twice: the drawing's box grows 1.5625×, its viewBox still the whole drawing, the box
            // around it scrolls, and no state is cut.
            await figure.locator('button[title="Zoom in"]').click();
            await figure.locator('button[title="Zoom in"]').click();
            assert.equal((await figure.locator(".zoom-level").innerText()).trim(), "156%");
            const [zoomed] = await measureDiagrams(panel, root);
            assert.equal(zoomed!.drawn.viewBox, fit.drawn.viewBox, "the viewBox holds the whole drawing");
            const natural = Number(fit.drawn.viewBox.split(" ")[2]);
            assert.ok(Math.abs(zoomed!.drawn.width - natural * 1.5625) < 2, `${name}: drawn ${zoomed!.drawn.width}px for ${natural} × 1.5625`);
            assert.ok(zoomed!.scroll.scrollWidth >= zoomed!.drawn.width - 1, `${name}: the scrolling box holds the zoomed drawing`);
            assert.deepEqual(zoomed!.cut, [], `${name} zoomed in ${theme}: states cut`);
            assert.deepEqual(zoomed!.crossings, []);
            await wb!.shot(`24-diagram-zoomed-${slug(theme)}-${slug(name)}`);
            await figure.locator('button[title="Show the whole diagram"]').click();
          }
        }
      } finally {
        await setTheme(wb!, "Light 2026");
        await wb!.command("View: Close All Editors");
      }
    });

    it("the smaller ones: recent runs read apart by time, a flow without an eval gets a page with a way to start one, one hover message, no generated file in the log", async () => {
      const page = wb!.page;
      const panel = wb!.panel();
      const file = at("stately/mistakes.ts");
      await wb!.openFile(file);
      // The same lens twice: two entries of the recent list, told apart by their time.
      for (let i = 0; i < 2; i++) {
        const before = await panel.locator(".result").first().getAttribute("data-run").catch(() => null);
        await (await lensAbove(wb!, file, 'src: "summarize",', "Run seam")).click();
        await panel.locator(`.result:not([data-status="running"])${before ? `:not([data-run="${before}"])` : ""} .verdict-subject`).first().waitFor({ timeout: 120_000 });
        if (i === 0) await page.waitForTimeout(1100); // a second apart, so their times differ
      }
      const options = (await panel.locator("select.recent option").allInnerTexts()).slice(1);
      const same = options.filter((o) => o.startsWith("Run seam · summarize"));
      assert.ok(same.length >= 1, options.join("\n"));
      for (const o of options) assert.match(o, / · \d\d:\d\d:\d\d$/, `a time on "${o}"`);
      assert.equal(new Set(options).size, options.length, `no two entries alike:\n${options.join("\n")}`);
      await wb!.shot("25-recent-with-times");
      // The generated programs ran: the extension's log names them by what they are, never by their file.
      assert.doesNotMatch(outputLog(server!, "Agent Lens"), GENERATED, "a generated program's file in the Output channel");
      assert.match(outputLog(server!, "Agent Lens"), /harness: keyless seam run of summarize (passed|failed)/);

      // The unknown target's hover: its message once (the problem's own hover), then the valid names.
      const line = lineOf(file, '({ target: "reveiw"');
      await wb!.goToLine(line, readFileSync(file, "utf8").split("\n")[line - 1]!.indexOf("reveiw") + 3);
      await wb!.command("Show or Focus Hover");
      const hover = page.locator(".monaco-hover", { hasText: "Valid state names here" }).first();
      await hover.waitFor({ timeout: 60_000 });
      await waitForText(hover, /names no state/);
      const text = await hover.innerText();
      assert.equal(text.match(/names no state/g)?.length, 1, text);
      assert.equal(text.match(/Did you mean/g)?.length, 1, text);
      await wb!.shot("26-hover-once");
      await page.keyboard.press("Escape");

      // Run turns on a flow no eval runs: the flow's own page, why, and a way to start an eval.
      const flows = at("falai/mistakes.ts");
      await wb!.openFile(flows);
      await (await lensAbove(wb!, flows, "const cadastro = f.flow({", "Run turns")).click();
      const flowPage = panel.locator('.result.diagram-only[data-status="diagram"]', { has: panel.locator(".note.no-eval") }).first();
      await flowPage.waitFor({ timeout: 60_000 });
      assert.match(await flowPage.locator(".note.no-eval").innerText(), /No eval file runs the flow "cadastro" yet/);
      assert.match(await flowPage.locator("h1").innerText(), /Run turns · cadastro/);
      await flowPage.locator("svg.diagram g.node").first().waitFor({ timeout: 30_000 });
      assert.match(await flowPage.locator("a.loc").first().innerText(), /mistakes\.ts:\d+/, "a link to the flow");
      await wb!.shot("27-flow-without-eval");
      await flowPage.locator("button.new-eval").click();
      await page.locator(".tabs-container .tab.active", { hasText: "cadastro.test.ts" }).waitFor({ timeout: 60_000 });
      await page.locator(".editor-instance .view-line", { hasText: 'test("cadastro: the first turn"' }).first().waitFor({ timeout: 30_000 });
      await wb!.shot("28-starter-eval");
      await wb!.command("View: Revert and Close Editor");
      await wb!.command("View: Close All Editors");
    });

    it("Show diagram draws a machine with nothing run; a state click reveals its source", async () => {
      const file = at("stately/email-agent.ts");
      await wb!.openFile(file);
      const lens = await lensAbove(wb!, file, "export const machine = agent.createMachine({", "Show diagram");
      const runsBefore = (outputLog(server!, "Agent Lens").match(/\[run\] run /g) ?? []).length;
      const panel = wb!.panel();
      const t0 = Date.now();
      await lens.click();
      const shown = panel.locator('.result.diagram-only[data-status="diagram"]');
      await shown.locator("svg.diagram g.node").first().waitFor({ timeout: 60_000 });
      figure(`click Show diagram → diagram in the panel: ${ms(Date.now() - t0)}`);
      assert.deepEqual((await shown.locator("svg.diagram g.node text").allTextContents()).sort(), ["done", "drafting", "scoring"]);
      assert.equal(await shown.locator("g.node.visited").count(), 0, "nothing ran, so no path");
      assert.equal((outputLog(server!, "Agent Lens").match(/\[run\] run /g) ?? []).length, runsBefore, "no run started");
      // The diagram fits the panel: drawn no wider than its box.
      const fit = await shown.locator("svg.diagram").evaluate((svg) => {
        const box = svg.getBoundingClientRect();
        const parent = (svg.parentElement as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect();
        return { svg: box.width, box: parent.width };
      });
      assert.ok(fit.svg <= fit.box + 1, `diagram ${fit.svg}px in a ${fit.box}px box`);
      await wb!.shot("13-show-diagram");
      await shown.locator('svg.diagram g.node[data-node$="scoring"]').click();
      const line = readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes("scoring: {")) + 1;
      await wb!.page.locator(".statusbar-item", { hasText: new RegExp(`Ln ${line},`) }).first().waitFor({ timeout: 30_000 });
      await wb!.shot("14-diagram-state-revealed");
    });

    it("the Testing view lists the eval files; a run turns them green and the planted failing eval red, with its message", async () => {
      const page = wb!.page;
      await wb!.command("Testing: Focus on Test Explorer View");
      const tree = page.locator(".test-explorer");
      const row = (label: string) => tree.locator(".monaco-list-row", { hasText: label }).first();
      const green = ["stately/email-agent.test.ts", "stately/support-triage.eval.ts", "falai/triage-agent.test.ts", "falai/replay.test.ts"];
      for (const label of [...green, "failing/score-threshold.test.ts"]) await row(label).waitFor({ timeout: 180_000 });
      await wb!.shot("06-testing-view");
      const t0 = Date.now();
      await wb!.command("Test: Run All Tests");
      for (const label of green) await row(label).locator(".codicon-testing-passed-icon").waitFor({ timeout: 240_000 });
      await row("failing/score-threshold.test.ts").locator(".codicon-testing-failed-icon").waitFor({ timeout: 240_000 });
      figure(`Run All Tests (${green.length + 1}+ eval files) → results: ${ms(Date.now() - t0)}`);
      // The failure's message, shown by VS Code's test peek (testing.automaticallyOpenPeekView).
      await page.locator(".monaco-editor .peekview-widget", { hasText: "the judge scored the draft below 5" }).first().waitFor({ timeout: 60_000 });
      await wb!.shot("07-testing-results");
    });

    it("rename of a request updates the executor's case label and the calls assertion; a place it cannot tie shows in the rename preview", async () => {
      const page = wb!.page;
      const agentFile = at("stately/email-agent.ts");
      const evalFile = at("stately/email-agent.test.ts");
      const probe = at("stately/name-probe.test.ts");
      // A rename reaches every eval of the machine (failing/, mistakes.test.ts, …): all of them are put back after.
      const originals = new Map(tsFiles(ws).map((f) => [f, readFileSync(f, "utf8")]));
      /** F2 inside the request name of the first `src: "<name>"` of `file`, type the new name, Enter. (From a
       *  string: on the requests key itself TypeScript's own rename provider may answer first, renaming the
       *  property alone — which provider VS Code asks first depends on which registered last.) */
      const renameAt = async (file: string, name: string, newName: string) => {
        await wb!.openFile(file);
        const lines = readFileSync(file, "utf8").split("\n");
        const needle = `src: "${name}"`;
        const line = lines.findIndex((l) => l.includes(needle));
        await wb!.goToLine(line + 1, lines[line]!.indexOf(needle) + 'src: "'.length + 2);
        // VS Code asks TypeScript's rename provider too: it answers once its project has loaded. Right after
        // start-up the first F2 can still end in TypeScript's "You cannot rename this element": try again.
        await page.locator(".statusbar-item", { hasText: "Initializing" }).first().waitFor({ state: "hidden", timeout: 180_000 });
        const input = page.locator(".rename-box .rename-input");
        for (let attempt = 1; ; attempt++) {
          await page.keyboard.press("F2");
          if (await input.waitFor({ timeout: 15_000 }).then(() => true, () => false)) break;
          assert.ok(attempt < 4, "the rename box opened");
          await page.keyboard.press("Escape");
          await page.waitForTimeout(3000);
          await wb!.goToLine(line + 1, lines[line]!.indexOf(needle) + 'src: "'.length + 2);
        }
        await input.fill(newName);
        await page.keyboard.press("Enter");
        return Date.now();
      };
      try {
        // Every place is tied to the request for sure: the rename applies at once, in every file.
        const t0 = await renameAt(agentFile, "draftEmail", "composeEmail");
        // The edits land in editors (the eval file is not even open): save them, then read the disk.
        for (const deadline = Date.now() + 60_000; ; ) {
          await wb!.command("File: Save All");
          await page.waitForTimeout(500);
          if (readFileSync(evalFile, "utf8").includes('case "composeEmail":')) break;
          assert.ok(Date.now() < deadline, "the executor's case label was renamed");
        }
        figure(`rename a request: Enter → every file renamed and saved (includes Save All's round trips): ${ms(Date.now() - t0)}`);
        const evalText = readFileSync(evalFile, "utf8");
        assert.match(evalText, /assert\.deepEqual\(calls, \["composeEmail", "scoreDraft"\]\);/, "the calls assertion");
        assert.match(evalText, /^\s+composeEmail: \[/m, "the runSeam scripts key");
        assert.doesNotMatch(evalText, /"draftEmail"|\bdraftEmail:/, "no place left behind");
        assert.match(readFileSync(agentFile, "utf8"), /composeEmail: \{[\s\S]*src: "composeEmail"/, "the declaration and the invoke src");
        await wb!.openFile(evalFile);
        await wb!.goToLine(evalText.split("\n").findIndex((l) => l.includes('case "composeEmail":')) + 1);
        await wb!.shot("15-rename-executor-case-and-calls");

        // A comparison no run hands this machine's requests to: the rename preview shows it, needing a check.
        writeFileSync(probe, `import { runAgent } from "@statelyai/agent";\nimport { machine } from "./email-agent";\n\n// Not handed to any run: which machine's requests it sees cannot be told.\nexport const isScoring = (request: { name?: string }) => request.name === "scoreDraft";\nexport { machine, runAgent };\n`);
        await wb!.openFile(probe); // open: analyzed now, whatever the file watcher's timing
        await renameAt(agentFile, "scoreDraft", "judgeDraft");
        const preview = page.locator(".bulk-edit-panel");
        await preview.locator(".monaco-list-row").first().waitFor({ timeout: 60_000 });
        await wb!.command("View: Toggle Maximized Panel"); // every row in view (the list only draws what shows)
        // Each edit row: its text and whether the preview will apply it (the uncertain one waits for a tick).
        // The list draws only the rows in view: page through it, keeping every row seen.
        const seen = new Map<string, boolean>();
        const collect = async () => {
          const drawn = await preview.locator(".monaco-list-row").evaluateAll((els) => els.map((e) => [(e as unknown as { innerText: string }).innerText.replace(/\s+/g, " "), e.querySelector(".edit-checkbox")?.classList.contains("checked") ?? false] as const));
          for (const [text, checked] of drawn) seen.set(text, checked);
        };
        await preview.locator(".monaco-list").first().hover(); // the wheel scrolls what is under the pointer
        for (const deadline = Date.now() + 30_000; ![...seen.keys()].some((t) => t.includes("request.name ===")) && Date.now() < deadline;) {
          await collect();
          await page.mouse.wheel(0, 120);
          await page.waitForTimeout(200);
        }
        await collect();
        const listed = [...seen];
        await wb!.shot("16-rename-preview-needs-confirmation");
        const row = (needle: string) => listed.find(([t]) => t.includes(needle));
        assert.deepEqual(row('request.name === "scoreDraft'), ['(request: { name?: string }) => request.name === "scoreDraftjudgeDraft";', false], "the untied comparison is listed, not ticked");
        assert.equal(row('case "scoreDraft')?.[1], true, "the executor's case label is ticked");
        assert.equal(row('assert.deepEqual(calls, ["composeEmail", "scoreDraft')?.[1], true, "the calls assertion is ticked");
        await wb!.command("View: Toggle Maximized Panel");
        await preview.locator(".buttons .monaco-button", { hasText: "Discard" }).click();
        await preview.waitFor({ state: "hidden", timeout: 30_000 }).catch(() => undefined);
        assert.match(readFileSync(evalFile, "utf8"), /seam: \{ request: "scoreDraft" \}/, "discarded: nothing renamed");
      } finally {
        // Put the examples back for the other checks (the editors are saved, so they reload from disk).
        for (const [f, text] of originals) if (readFileSync(f, "utf8") !== text) writeFileSync(f, text);
        rmSync(probe, { force: true });
        await wb!.command("View: Close All Editors");
      }
    });

    it("a warm child waits behind the last run; deactivating the extension (a window reload) leaves no harness process", async () => {
      const children = () => harnessChildren(server!);
      const waitForChild = async () => {
        for (const until = Date.now() + 30_000; !children().length && Date.now() < until;) await new Promise((r) => setTimeout(r, 200));
        return children().length > 0;
      };
      const warmLog = () => outputLog(server!, "Agent Lens").split("\n").filter((l) => /warm|harness:/.test(l)).slice(-16).join("\n");
      // The child behind the last run is started when that run's result is in, a moment after the Testing
      // view turned green. The Testing view ran files two at a time; if no child waits after that, the log
      // says what became of it (printed), and one lens run on its own must leave one.
      if (!(await waitForChild())) {
        await wb!.openFile(at("stately/email-agent.ts"));
        figure(`no warm child after Run All Tests; the extension's log:\n${warmLog()}\nnode processes:\n${nodeProcesses().join("\n")}`);
        const runs = (outputLog(server!, "Agent Lens").match(/harness: email-agent\.test\.ts /g) ?? []).length;
        await (await lensAbove(wb!, at("stately/email-agent.ts"), "scoreDraft: {", "Run seam")).click();
        await waitForLog(server!, /harness: email-agent\.test\.ts /, runs + 1);
        assert.ok(await waitForChild(), `a warm child is waiting after a lens run\n${warmLog()}`);
      }
      await wb!.command("Developer: Reload Window");
      const deadline = Date.now() + 30_000;
      while (children().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(children(), [], "harness processes left after the extension was deactivated");
    });

    it("an untrusted workspace runs nothing: the lens says it needs trust and a click only explains why", async () => {
      const untrusted = await startCodeServer({ paths, runDir: join(scratch, "cs-untrusted"), workspace: ws, vsix, trust: true });
      servers.push(untrusted);
      const other = await Workbench.open(untrusted.url, join(SHOTS, "untrusted"));
      try {
        await other.openFile(at("stately/email-agent.test.ts"));
        const lens = await lensAbove(other, at("stately/email-agent.test.ts"), "await runSeam(", "(requires trust)");
        assert.match(await lens.innerText(), /^Run seam \(requires trust\)$/);
        await other.shot("08-untrusted-lens");
        await lens.click();
        await other.notifications().filter({ hasText: TRUST_TEXT }).first().waitFor({ timeout: 30_000 });
        await other.shot("09-untrusted-message");
        // Nothing ran: no results panel, and the extension logged the refusal.
        await other.page.waitForTimeout(2000);
        assert.equal(await other.page.locator("iframe.webview").count(), 0, "a results panel opened in an untrusted workspace");
        const log = outputLog(untrusted, "Agent Lens");
        assert.match(log, /refused to run run-seam/);
        assert.doesNotMatch(log, /\[run\] run file:/);
        // Record says so too, and a click asks nothing about models (no run can happen): it only explains.
        const record = await lensAbove(other, at("stately/email-agent.test.ts"), "await runSeam(", "Record (requires trust)");
        await other.command("Notifications: Clear All Notifications");
        await waitForCount(other.notifications().filter({ hasText: TRUST_TEXT }), 0, 30_000);
        await record.click();
        await other.notifications().filter({ hasText: TRUST_TEXT }).first().waitFor({ timeout: 30_000 });
        await other.page.waitForTimeout(1000); // the modal question would be up by now
        assert.equal(await other.page.locator(".monaco-dialog-box").count(), 0, "Record asked its question in an untrusted workspace");
        await other.shot("09b-untrusted-record");
        // No warm child either: not one process of the harness belongs to this instance.
        assert.deepEqual(harnessChildren(untrusted), [], "a harness process in the untrusted workspace");
        // Diagnostics still work there.
        await other.command("Problems: Focus on Problems View");
        await other.openFile(at("stately/mistakes.ts"));
        await other.page.locator(".markers-panel .monaco-list-row", { hasText: "unknown-target" }).first().waitFor({ timeout: 120_000 });
        await other.shot("10-untrusted-diagnostics");
        // Show diagram runs nothing, so it needs no trust: its lens says nothing about trust and draws.
        const diagram = await lensAbove(other, at("stately/mistakes.ts"), "export const typoMachine", "Show diagram");
        assert.equal((await diagram.innerText()).trim(), "Show diagram");
        await diagram.click();
        await other.panel().locator('.result.diagram-only svg.diagram g.node[data-node$="summarizing"]').waitFor({ timeout: 60_000 });
        assert.doesNotMatch(outputLog(untrusted, "Agent Lens"), /\[run\] run /, "nothing ran");
        await other.shot("10b-untrusted-show-diagram");
      } finally {
        await other.close();
        await untrusted.stop();
      }
    });
  });
}

/** The default light and dark themes of VS Code 1.139 and its two high-contrast ones (picker labels), with
 *  the class a webview's body gets in each. */
const THEMES = [["Light 2026", "vscode-light"], ["Dark 2026", "vscode-dark"], ["Dark High Contrast", "vscode-high-contrast"], ["Light High Contrast", "vscode-high-contrast-light"]] as const;

/** A node:test eval whose one test passes while its run ends in error (the typo machine's invalid transition). */
const ERRORED_PROBE = [
  `import { test } from "node:test";`,
  `import { runAgent } from "@statelyai/agent";`,
  `import { typoMachine } from "./mistakes";`,
  ``,
  `test("runs the typo machine and does not look at the result", async () => {`,
  `  await runAgent(typoMachine, { executors: { generateText: async () => ({ result: "a summary" }) } });`,
  `});`,
  ``,
].join("\n");

/** What a generated program's name or folder looks like (none of it may reach the panel). */
const GENERATED = /seam-[A-Za-z0-9_-]+-[A-Za-z0-9_-]+\.ts|explore-[A-Za-z0-9_-]+\.ts|agent-lens-run-/;

/** The workspace's TypeScript files (what TypeScript checks once open). */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** `folder/file:line code` for every `// expect: <code>[, <code>]` comment of the workspace: the planted findings. */
function plantedFindings(dir: string): string[] {
  return tsFiles(dir).flatMap((file) => readFileSync(file, "utf8").split("\n").flatMap((text, i) => {
    const m = /\/\/ expect: ([a-z-]+(?:, [a-z-]+)*)/.exec(text);
    return m ? m[1].split(", ").map((code) => `${file.split("/").slice(-2).join("/")}:${i + 1} ${code}`) : [];
  }));
}

/** A Problems row: its file's row ("mistakes.ts" + "stately") and its own ("<message> agent-lens unknown-target [Ln 26, Col 45]") → `stately/mistakes.ts:26 unknown-target`. */
function problemKey(row: string): string {
  const [fileRow, text] = row.split("\u0000");
  const file = /^(.*?\.(?:[cm]?[jt]sx?|json))\s*(.*)$/.exec(fileRow);
  const line = /\[Ln (\d+), Col \d+\]/.exec(text)?.[1];
  const code = /\b(?:agent-lens|ts)\s*\(?([a-z]+(?:-[a-z]+)+|\d+)\)?\s*\[Ln/.exec(text)?.[1] ?? "?";
  return `${file ? `${file[2].trim()}/${file[1]}` : fileRow}:${line} ${code}`;
}

/** The Problems panel's marker rows (each prefixed with its file's name), once they stop changing at `count`. */
async function settledProblems(wb: Workbench, count: number, timeout: number): Promise<string[]> {
  const read = async () => {
    const rows = await wb.page.locator(".markers-panel .monaco-list-row").evaluateAll((els) => els.map((e) => ({ level: e.getAttribute("aria-level"), text: (e as unknown as { innerText: string }).innerText.replace(/\s+/g, " ").trim() })));
    const out: string[] = [];
    let file = "";
    for (const r of rows) {
      if (r.level === "1") file = r.text.replace(/\s*\d+$/, "");
      else out.push(`${file}\u0000${r.text}`);
    }
    return out;
  };
  const deadline = Date.now() + timeout;
  let last = "";
  let stableSince = Date.now();
  for (;;) {
    const rows = await read();
    const key = rows.join("\n");
    if (key !== last) {
      last = key;
      stableSince = Date.now();
    }
    // Settled: the expected number of findings, unchanged for 5 s (TypeScript checks files one by one).
    if (rows.length >= count && Date.now() - stableSince > 5_000) return rows;
    if (Date.now() > deadline) return rows;
    await wb.page.waitForTimeout(500);
  }
}

/** Codes whose findings are warnings (the rest of the planted ones are errors). */
const WARNING_CODES = ["unreachable-state", "unnamed-request", "unreachable-step", "catch-all-conflict", "untriggered-flow"];

/** The status bar's problem counts (every open file's markers, ours and TypeScript's). */
async function problemCounts(wb: Workbench): Promise<{ errors: number; warnings: number }> {
  const item = wb.page.locator('.statusbar-item[id="status.problems"]').first();
  const label = `${(await item.getAttribute("aria-label").catch(() => "")) ?? ""} ${await item.innerText().catch(() => "")}`;
  const errors = /Errors?: (\d+)/i.exec(label)?.[1] ?? /(\d+)\s+(\d+)/.exec(label)?.[1] ?? "0";
  const warnings = /Warnings?: (\d+)/i.exec(label)?.[1] ?? /(\d+)\s+(\d+)/.exec(label)?.[2] ?? "0";
  return { errors: Number(errors), warnings: Number(warnings) };
}

async function waitForCounts(wb: Workbench, want: { errors: number; warnings: number }, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await problemCounts(wb);
    if (got.errors === want.errors && got.warnings === want.warnings) return;
    assert.ok(Date.now() < deadline, `problem counts ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    await wb.page.waitForTimeout(500);
  }
}

/** Picks a colour theme through "Preferences: Color Theme". */
async function setTheme(wb: Workbench, theme: string): Promise<void> {
  await pickRow(wb, ">Preferences: Color Theme", "Preferences: Color Theme", true);
  await pickRow(wb, theme, theme, false);
}

/** Types `filter` into Quick Open (F1 first when `palette`) and clicks the row whose label is exactly `label`. */
async function pickRow(wb: Workbench, filter: string, label: string, palette: boolean): Promise<void> {
  const input = wb.page.locator(".quick-input-widget input");
  if (palette) await wb.quickInput("F1", filter);
  else {
    await input.waitFor({ state: "visible", timeout: 20_000 });
    await input.fill(filter);
  }
  const rows = wb.page.locator(".quick-input-list .monaco-list-row");
  const theme = label;
  for (const deadline = Date.now() + 20_000; ;) {
    const labels = await rows.evaluateAll((els) => els.map((e) => `${e.getAttribute("aria-label") ?? ""}\u0000${(e as unknown as { innerText: string }).innerText}`));
    const index = labels.findIndex((l) => l.split("\u0000").some((part) => part.split(/[\n,]/)[0]!.trim() === theme));
    if (index >= 0) {
      await rows.nth(index).click();
      break;
    }
    assert.ok(Date.now() < deadline, `"${theme}" among ${JSON.stringify(labels)}`);
    await wb.page.waitForTimeout(250);
  }
}

/** Puts run `runId` on show in the results panel through its "Recent" list (if it is not on show already). */
async function showRecent(panel: import("playwright-core").FrameLocator, runId: string): Promise<void> {
  if (await panel.locator(`.result[data-run="${runId}"]`).count()) return;
  await panel.locator("select.recent").first().selectOption(runId);
  await panel.locator(`.result[data-run="${runId}"]`).waitFor({ timeout: 30_000 });
}

/** Waits until the locator's text matches (returns it). */
async function waitForText(locator: import("playwright-core").Locator, pattern: RegExp, timeout = 60_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = ((await locator.innerText({ timeout: 5_000 }).catch(() => "")) ?? "").replace(/\s+/g, " ").trim();
    if (pattern.test(text)) return text;
    assert.ok(Date.now() < deadline, `${locator} says ${JSON.stringify(text)}, expected ${pattern}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Waits until a locator matches exactly `n` elements. */
async function waitForCount(locator: import("playwright-core").Locator, n: number, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  while ((await locator.count()) !== n) {
    assert.ok(Date.now() < deadline, `expected ${n} of ${locator}, have ${await locator.count()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The lens titled `title` right above the first line of `file` containing `lineText` (scrolled into view). */
async function lensAbove(wb: Workbench, file: string, lineText: string, title: string) {
  const page = wb.page;
  const lineNo = readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(lineText)) + 1;
  assert.ok(lineNo > 0, `"${lineText}" is in ${file}`);
  const lenses = wb.lens(title);
  await wb.goToLine(lineNo);
  const line = page.locator(".editor-instance .view-line", { hasText: lineText }).first();
  await line.waitFor({ timeout: 60_000 });
  for (const deadline = Date.now() + 180_000; ;) {
    const lineBox = await line.boundingBox();
    let best: { index: number; gap: number } | undefined;
    const n = await lenses.count();
    for (let i = 0; i < n && lineBox; i++) {
      const box = await lenses.nth(i).boundingBox();
      if (!box) continue;
      const gap = lineBox.y - (box.y + box.height);
      if (gap >= -2 && gap < lineBox.height * 1.5 && (!best || gap < best.gap)) best = { index: i, gap };
    }
    if (best) return lenses.nth(best.index);
    assert.ok(Date.now() < deadline, `a "${title}" lens above "${lineText}"`);
    await page.waitForTimeout(250);
  }
}

/** The 1-based line of the first line of `file` containing `text`. */
function lineOf(file: string, text: string): number {
  const line = readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(text)) + 1;
  assert.ok(line > 0, `"${text}" is in ${file}`);
  return line;
}

/** The titles of the code lenses right above the first line of `file` containing `lineText` (call once the
 *  file's lenses are drawn: VS Code draws all of a document's lenses at once). */
async function lensTitlesAbove(wb: Workbench, file: string, lineText: string): Promise<string[]> {
  const line = wb.page.locator(".editor-instance .view-line", { hasText: lineText }).first();
  if (!(await line.isVisible())) await wb.goToLine(lineOf(file, lineText));
  await line.waitFor({ timeout: 60_000 });
  // One reading of every lens at once (VS Code redraws a line's lenses when their titles change): read
  // until two readings agree.
  const read = async () => {
    const lineBox = await line.boundingBox();
    if (!lineBox) return ""; // the line was being redrawn: no reading
    const lenses = await wb.page.locator(".editor-instance .codelens-decoration a").evaluateAll((els) => els.map((e) => {
      const r = (e as unknown as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
      return { text: ((e as unknown as { innerText: string }).innerText ?? "").trim(), bottom: r.bottom };
    }));
    return JSON.stringify(lenses.filter((l) => lineBox.y - l.bottom >= -2 && lineBox.y - l.bottom < lineBox.height * 1.5).map((l) => l.text));
  };
  let last = await read();
  for (const deadline = Date.now() + 30_000; ;) {
    await wb.page.waitForTimeout(300);
    const now = await read();
    if ((now === last && now !== "") || Date.now() > deadline) return JSON.parse(now || "[]") as string[];
    last = now;
  }
}

async function timeOpen(open: () => Promise<void>): Promise<number> {
  await open();
  return Date.now();
}

/** The text of an extension output channel, from the log files VS Code writes for it. */
function outputLog(server: CodeServer, channel: string): string {
  const logs = join(server.userDataDir, "logs");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(`${channel}.log`)) found.push(readFileSync(p, "utf8"));
    }
  };
  if (existsSync(logs)) walk(logs);
  return found.join("\n");
}

/** The extension's log lines matching `pattern`, once there are at least `count` of them (VS Code writes
 *  output channel logs with a delay). */
async function waitForLog(server: CodeServer, pattern: RegExp, count: number): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const lines = outputLog(server, "Agent Lens").split("\n").filter((l) => pattern.test(l));
    if (lines.length >= count) return lines;
    assert.ok(Date.now() < deadline, `${count} log lines matching ${pattern}, have ${lines.length}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every process whose command line mentions node, for a failure's message. */
function nodeProcesses(): string[] {
  const r = spawnSync("ps", ["-A", "-ww", "-o", "pid=,ppid=,stat=,args="], { encoding: "utf8" });
  return (r.stdout ?? "").split("\n").filter((l) => /node|child\.js/.test(l)).map((l) => l.slice(0, 300));
}

/** The harness processes (`dist/harness/child.js` of the installed extension) of one code-server instance. */
function harnessChildren(server: CodeServer): string[] {
  const r = spawnSync("ps", ["-A", "-ww", "-o", "pid=,stat=,args="], { encoding: "utf8" });
  return r.stdout.split("\n").filter((l) => l.includes(join(server.runDir, "extensions")) && l.includes("harness/child.js") && !/^\s*\d+\s+Z/.test(l));
}

function ms(n: number): string {
  return n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(2)} s`;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 60);
}
