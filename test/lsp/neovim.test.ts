// A real LSP client nobody here wrote: Debian's Neovim (0.7), headless, starts `agent-lens-server --stdio`
// on a fixture with its built-in client (vim.lsp.start_client) and writes the diagnostics it received.
// They must match what the protocol suite's client receives for the same file.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestClient } from "./support/client";
import { ensureServerBuilt, REPO } from "./support/build";

const WORKSPACE = join(REPO, "test", "fixtures", "lsp", "workspace");
const INIT = join(__dirname, "neovim", "init.lua");

function nvimVersion(): string {
  try {
    return execFileSync("nvim", ["--version"], { encoding: "utf8" }).split("\n")[0];
  } catch {
    throw new Error("nvim is not installed: the LSP suite checks the server against Neovim. Install it with `apt-get install -y neovim` (.ci/run does).");
  }
}

function diagnosticsFromNeovim(server: string, file: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-nvim-"));
  try {
    const out = join(dir, "diagnostics.txt");
    const result = spawnSync("nvim", ["--headless", "-n", "-i", "NONE", "-u", INIT], {
      env: { ...process.env, AGENT_LENS_SERVER: server, AGENT_LENS_FILE: file, AGENT_LENS_ROOT: WORKSPACE, AGENT_LENS_OUT: out, AGENT_LENS_TIMEOUT_MS: "30000", HOME: dir, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir },
      timeout: 60_000,
      encoding: "utf8",
    });
    let text: string;
    try {
      text = readFileSync(out, "utf8");
    } catch {
      throw new Error(`Neovim wrote no result (exit ${result.status}, signal ${result.signal}): ${result.stderr || result.stdout}`);
    }
    const lines = text.trim().split("\n");
    assert.equal(lines[0], "OK", `Neovim reported: ${text}`);
    return lines.slice(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function diagnosticsFromProtocolClient(file: string): Promise<string[]> {
  const client = await TestClient.start({ folders: [WORKSPACE], settings: { diagnostics: { debounceMs: 0 } } });
  try {
    const uri = client.open(file);
    const diagnostics = await client.waitForDiagnostics(uri);
    return diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character}:${String(d.code)}:${d.source}`).sort();
  } finally {
    await client.stop();
  }
}

describe("lsp: Neovim as the client", function () {
  this.timeout(120_000);
  let server: string;

  before(() => {
    nvimVersion(); // fails with a clear message when Neovim is missing: never skipped
    server = ensureServerBuilt();
  });

  for (const name of ["onboarding.ts", "broken.ts"]) {
    it(`reports the same diagnostics as the protocol client for ${name}`, async () => {
      const file = join(WORKSPACE, "src", name);
      const fromNeovim = diagnosticsFromNeovim(server, file);
      const counted = fromNeovim.pop();
      const expected = await diagnosticsFromProtocolClient(file);
      assert.ok(expected.length > 0, `the fixture ${name} is meant to have findings`);
      assert.deepEqual(fromNeovim, expected);
      assert.equal(counted, `vim.diagnostic=${expected.length}`, "Neovim's diagnostic store holds them all");
      assert.ok(fromNeovim.every((line) => line.endsWith(":agent-lens")), "source is agent-lens");
    });
  }
});
