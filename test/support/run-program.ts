// Runs a user-style program (top-level await, node:assert) against our runtime source, before and
// independently of the harness: esbuild bundles it with the library names aliased to runtime/src, into
// a temporary folder outside the repository, and node runs the bundle.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(__dirname, "../..");

const RUNTIME_ALIASES: Record<string, string> = {
  "@statelyai/agent/ai-sdk": join(root, "runtime/src/stately/ai-sdk.ts"),
  "@statelyai/agent/testing": join(root, "runtime/src/stately/testing.ts"),
  "@statelyai/agent": join(root, "runtime/src/stately/index.ts"),
  "@falai/agent": join(root, "runtime/src/falai/index.ts"),
};

export interface ProgramResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export async function runProgram(entry: string, timeoutMs = 20_000): Promise<ProgramResult> {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-program-"));
  try {
    const outfile = join(dir, "program.mjs");
    await build({
      entryPoints: [entry], outfile, bundle: true, platform: "node", format: "esm", target: "node20",
      alias: RUNTIME_ALIASES, sourcemap: "inline", logLevel: "silent",
      // Bundled CommonJS dependencies may call require(); give the ESM bundle one.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
    const r = spawnSync(process.execPath, ["--enable-source-maps", outfile], { encoding: "utf8", timeout: timeoutMs });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
