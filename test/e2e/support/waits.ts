// Condition-based waits and small lookups for the Testing view's end-to-end checks (no sleeps that decide an
// outcome, no timing assertions: the machine is shared).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import type { CodeServer } from "./codeServer";

/** Polls `probe` until it returns a value other than undefined; fails with `what` after `timeout` ms. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeout = 120_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, `waited ${timeout / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The text of a locator (whitespace folded), or "" when it is not there. */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.innerText({ timeout: 2_000 }).catch(() => "")) ?? "").replace(/\s+/g, " ").trim();
}

/** The 1-based line and column of the first occurrence of `text` in `file`. */
export function positionIn(file: string, text: string): { line: number; column: number } {
  const lines = readFileSync(file, "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes(text));
  assert.ok(line >= 0, `"${text}" is in ${file}`);
  return { line: line + 1, column: lines[line]!.indexOf(text) + 1 };
}

/** Everything the extension's output channel logged so far (VS Code writes it to a log file). */
export function extensionLog(server: CodeServer): string {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith("Agent Lens.log")) out.push(readFileSync(join(dir, e.name), "utf8"));
    }
  };
  const logs = join(server.userDataDir, "logs");
  if (existsSync(logs)) walk(logs);
  return out.join("\n");
}
