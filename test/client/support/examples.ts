// The examples/ workspace as the client suites use it: its folder, its eval files, a line of a file.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const EXAMPLES = resolve(__dirname, "../../../examples");
export const EVAL_FILES = ["stately/email-agent.test.ts", "stately/support-triage.eval.ts", "stately/mistakes.test.ts", "falai/triage-agent.test.ts", "falai/replay.test.ts", "failing/score-threshold.test.ts"].map((f) => join(EXAMPLES, f));

/** The 0-based line of the first line of `file` holding `text`. */
export function lineOf(file: string, text: string): number {
  const line = readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(text));
  assert.ok(line >= 0, `${text} in ${file}`);
  return line;
}
