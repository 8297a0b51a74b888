// Drives the VS Code workbench in Debian's Chromium through playwright-core: open files, run commands,
// read the results panel webview, take screenshots. Selectors from shared/reference/vscode-e2e.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type FrameLocator, type Locator, type Page } from "playwright-core";

export class Workbench {
  private constructor(readonly context: BrowserContext, readonly page: Page, private readonly profile: string, readonly shots: string) {}

  static async open(url: string, shots: string): Promise<Workbench> {
    mkdirSync(shots, { recursive: true });
    const profile = mkdtempSync(join(tmpdir(), "agent-lens-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.AGENT_LENS_CHROMIUM ?? "/usr/bin/chromium", headless: true,
      env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile },
      viewport: { width: 1500, height: 950 },
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const wb = new Workbench(context, page, profile, shots);
    await page.goto(url, { timeout: 180_000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 180_000 });
    await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: 180_000 });
    return wb;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    rmSync(this.profile, { recursive: true, force: true });
  }

  async shot(name: string): Promise<string> {
    const path = join(this.shots, `${name}.png`);
    await this.page.screenshot({ path }).catch(() => undefined);
    return path;
  }

  private async focusWorkbench(): Promise<void> {
    await this.page.keyboard.press("Escape");
  }

  /** Quick Open (Ctrl+P) a file by its absolute path (no file search needed); waits for its editor. */
  async openFile(absPath: string): Promise<void> {
    const parts = absPath.split("/");
    const name = parts.at(-1)!;
    const folder = parts.at(-2)!;
    await this.quickInput("Control+P", absPath);
    // The row for this very file (a recently opened file of the same name in another folder looks alike).
    const row = this.page.locator(".quick-input-list .monaco-list-row", { hasText: name }).filter({ hasText: folder }).first();
    await row.waitFor({ timeout: 60_000 });
    await row.click();
    await this.page.locator(".tabs-container .tab.active", { hasText: name }).first().waitFor({ timeout: 60_000 });
    await this.page.locator(".editor-group-container.active .breadcrumbs-control", { hasText: folder }).first().waitFor({ timeout: 60_000 });
    await this.page.locator(".editor-instance .view-lines").first().waitFor({ timeout: 60_000 });
  }

  /** Opens a quick input with `key` once the focus has settled, and types `text` into it. The focus can
   *  still move a moment after a click or an editor change (an editor taking the focus its tab handed it),
   *  and a quick input that loses the focus closes (inert, then hidden): such a try is made again, at most
   *  four times. */
  async quickInput(key: string, text: string): Promise<void> {
    const input = this.page.locator(".quick-input-widget input");
    for (let attempt = 1; ; attempt++) {
      try {
        await this.focusWorkbench();
        await this.focusSettled();
        await this.page.keyboard.press(key);
        await input.waitFor({ state: "visible", timeout: 20_000 });
        await input.fill(text, { timeout: 5_000 });
        return;
      } catch (error) {
        if (attempt >= 4) throw error;
      }
    }
  }

  /** Waits until the element with the keyboard focus has stayed the same for 300 ms (at most 5 s). */
  private async focusSettled(): Promise<void> {
    await this.page.evaluate(`new Promise((done) => {
      let last = document.activeElement, since = Date.now();
      const started = since;
      const tick = () => {
        if (document.activeElement !== last) { last = document.activeElement; since = Date.now(); }
        if (Date.now() - since >= 300 || Date.now() - started > 5000) done(undefined); else setTimeout(tick, 50);
      };
      tick();
    })`);
  }

  /** Moves the cursor to a 1-based line (and column) with Ctrl+G, which scrolls it into view; done when the
   *  status bar shows the line. Ctrl+G is pressed only once the active group's editor has the keyboard focus:
   *  a click on its tab leaves the focus on the page's body and hands it to the editor a moment later, and
   *  a Go to Line box opened in between lost the focus to the editor and closed (inert, then hidden — the
   *  focus trail of a failing CI run showed exactly that). A try that still does not land is made again, at
   *  most four times. */
  async goToLine(line: number, column?: number): Promise<void> {
    const input = this.page.locator(".quick-input-widget input");
    const at = this.page.locator(".statusbar-item", { hasText: new RegExp(`Ln ${line},`) }).first();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.focusActiveEditor();
        await this.page.keyboard.press("Control+G");
        await input.waitFor({ state: "visible", timeout: 20_000 });
        await input.fill(column ? `:${line}:${column}` : `:${line}`, { timeout: 10_000 });
        await this.page.keyboard.press("Enter");
        await at.waitFor({ timeout: 10_000 });
        await this.page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: 20_000 }).catch(() => undefined);
        return;
      } catch (error) {
        if (attempt >= 4) throw error;
        await this.page.keyboard.press("Escape");
      }
    }
  }

  /** Gives the active group's text editor the keyboard focus, through its tab (a click into the text could
   *  land on a lens or a widget), and waits until the editor really has it. */
  private async focusActiveEditor(): Promise<void> {
    const editorFocused = `!!document.activeElement?.closest?.(".editor-group-container.active .monaco-editor")`;
    if (await this.page.evaluate(editorFocused)) return;
    await this.page.locator(".editor-group-container.active .tabs-container .tab.active").first().click();
    await this.page.waitForFunction(editorFocused, undefined, { timeout: 10_000 });
  }

  /** Runs a command from the command palette by its title. */
  async command(title: string): Promise<void> {
    await this.quickInput("F1", `>${title}`);
    const row = this.page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
    await row.waitFor({ timeout: 20_000 });
    await this.page.keyboard.press("Enter");
  }

  /** The code lens links of the active editor whose title matches. */
  lens(text: string | RegExp): Locator {
    return this.page.locator(".editor-instance .codelens-decoration a", { hasText: text });
  }

  /** The results panel's content (the webview's inner frame). */
  panel(): FrameLocator {
    return this.page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
  }

  /** Notification toasts currently shown. */
  notifications(): Locator {
    return this.page.locator(".notifications-toasts .notification-toast");
  }
}
