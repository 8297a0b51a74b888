// Fixture workspaces for the protocol suites. Suites that edit files on disk work on a temp copy.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./build";
import { positionOf } from "./client";

export const FIXTURE_WORKSPACE = join(REPO, "test", "fixtures", "lsp", "workspace");

export function copyWorkspace(from = FIXTURE_WORKSPACE): { root: string; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), "agent-lens-lsp-"));
  cpSync(from, root, { recursive: true });
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/** `{ textDocument, position }` params for the `nth` occurrence of `needle` (+ delta) in a file. */
export function at(uri: string, file: string, needle: string, delta = 0, nth = 0) {
  return { textDocument: { uri }, position: positionOf(readFileSync(file, "utf8"), needle, delta, nth) };
}
