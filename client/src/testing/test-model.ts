// The Test Explorer's model, without VS Code types: ids for the statically discovered tests, and the
// mapping from a harness run's events to per-test results. Unit-tested in mocha.
import type { StaticTest } from "@agent-lens/protocol";
import type { FailureInfo, HarnessEvent } from "@agent-lens/protocol";
import { attributeResults } from "../panel/attribution";
import { erroredByTest, isErrored } from "../panel/verdict";

export interface FlatTest {
  id: string;
  /** Names from the outermost suite to the test. */
  path: string[];
  kind: StaticTest["kind"];
  /** 0-based start line of the test's declaration. */
  line: number;
  test: StaticTest;
  parentId: string;
}

export const SEPARATOR = " › ";

export function testId(fileId: string, path: string[]): string {
  return `${fileId}::${path.join(SEPARATOR)}`;
}

/** Every suite and test below an eval file, parents before children. A plain script has none. */
export function flattenTests(fileId: string, tests: readonly StaticTest[]): FlatTest[] {
  const out: FlatTest[] = [];
  const walk = (list: readonly StaticTest[], parentPath: string[], parentId: string) => {
    for (const t of list) {
      if (t.kind === "file") {
        walk(t.children ?? [], parentPath, parentId);
        continue;
      }
      const path = [...parentPath, t.name];
      const id = testId(fileId, path);
      out.push({ id, path, kind: t.kind, line: t.range.startLine, test: t, parentId });
      walk(t.children ?? [], path, id);
    }
  };
  walk(tests, [], fileId);
  return out;
}

export interface TestOutcome {
  /** The item the result belongs to: a test id, or the file id for a plain script / a file-level failure. */
  id: string;
  status: "passed" | "failed" | "skipped" | "errored";
  durationMs?: number;
  failure?: FailureInfo;
  /** Results of this item that ended in error (status "error"), said beside a pass. */
  erroredResults?: number;
}

/** Which static test a harness test name / location refers to. */
export function matchTest(tests: readonly FlatTest[], name: string, line1?: number, path?: readonly string[]): FlatTest | undefined {
  if (path?.length) {
    const byPath = tests.find((t) => t.path.length === path.length && t.path.every((p, i) => p === path[i]));
    if (byPath) return byPath;
  }
  const full = tests.find((t) => t.path.join(SEPARATOR) === name || t.path.join(" > ") === name || t.path.join(" ") === name);
  if (full) return full;
  if (line1 !== undefined) {
    const atLine = tests.filter((t) => t.line + 1 === line1);
    if (atLine.length === 1) return atLine[0];
    const named = atLine.find((t) => t.path.at(-1) === name || name.endsWith(t.path.at(-1) ?? "\u0000"));
    if (named) return named;
  }
  const leaf = tests.filter((t) => t.path.at(-1) === name);
  if (leaf.length === 1) return leaf[0];
  const suffix = tests.filter((t) => name.endsWith(t.path.at(-1) ?? "\u0000"));
  return suffix.length === 1 ? suffix[0] : undefined;
}

/**
 * Results per item from one file's events. A file without static tests (a plain script) is one test: the
 * file item passes or fails with the run. Failures outside any test (a syntax error, a crash, a timeout)
 * fail the file item; otherwise files and suites take their state from their tests (VS Code computes it).
 */
export function outcomesOf(fileId: string, tests: readonly FlatTest[], events: readonly HarnessEvent[]): TestOutcome[] {
  const out = new Map<string, TestOutcome>();
  const end = events.find((e): e is Extract<HarnessEvent, { type: "end" }> => e.type === "end");
  const plain = tests.length === 0;
  const errored = erroredByTest(attributeResults(events));
  for (const e of events) {
    if (e.type === "test-end" && !plain) {
      const t = matchTest(tests, e.test, e.location?.line, e.path);
      if (!t) continue;
      const count = errored.get(e.test);
      out.set(t.id, { id: t.id, status: e.status, durationMs: e.durationMs, failure: e.failure, ...(count ? { erroredResults: count } : {}) });
    }
  }
  const loose = events.filter((e): e is Extract<HarnessEvent, { type: "fail" }> => e.type === "fail" && (plain || e.test === undefined || !matchTest(tests, e.test)));
  if (plain) {
    // A plain script may still report test-end for itself; the end event decides.
    const failed = end ? end.status !== "passed" : loose.length > 0;
    const failure = loose[0]?.failure ?? events.flatMap((e) => (e.type === "test-end" && e.failure ? [e.failure] : []))[0] ?? (end && end.status !== "passed" ? endFailure(end.status) : undefined);
    const count = events.filter((e) => e.type === "result" && isErrored(e)).length;
    out.set(fileId, { id: fileId, status: failed ? "failed" : "passed", durationMs: end?.durationMs, failure: failed ? failure : undefined, ...(count ? { erroredResults: count } : {}) });
    return [...out.values()];
  }
  if (end && end.status !== "passed" && end.status !== "failed") {
    // The file did not finish (timeout / crash / cancel): tests that never reported did not run.
    out.set(fileId, { id: fileId, status: end.status === "cancelled" ? "skipped" : "errored", durationMs: end.durationMs, failure: loose[0]?.failure ?? endFailure(end.status) });
  } else if (loose.length) {
    out.set(fileId, { id: fileId, status: "failed", durationMs: end?.durationMs, failure: loose[0].failure });
  }
  // Otherwise the file and its suites get no result of their own: VS Code shows the worst of their tests.
  return [...out.values()];
}

function endFailure(status: string): FailureInfo {
  const message = ({ timeout: "The eval did not finish within the time limit (agentLens.run.timeoutSeconds).", crashed: "The eval process crashed.", cancelled: "Cancelled.", failed: "The eval failed." } as Record<string, string>)[status] ?? `The eval ended: ${status}.`;
  return { message, code: status };
}
