// Protocol hygiene over real stdio: requests after `shutdown` are refused with InvalidRequest, a framing
// error ends the process (the client restarts it) instead of leaving it alive and mute, and nothing is
// skipped silently (a log line and a notice for a file or machine the server does not analyze).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureServerBuilt } from "./support/build";
import { TestClient, uriOf } from "./support/client";
import { FIXTURE_WORKSPACE } from "./support/fixtures";

const frame = (message: unknown) => {
  const body = Buffer.from(JSON.stringify(message));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
};
const INITIALIZE = frame({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });

/** The server on raw stdio: what it wrote back and how it ended (or that it is still running after `waitMs`). */
async function rawSession(writes: Buffer[], waitMs = 4000, env: Record<string, string> = {}): Promise<{ exit?: { code: number | null; signal: string | null }; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [ensureServerBuilt(), "--stdio"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let exit: { code: number | null; signal: string | null } | undefined;
  const exited = new Promise<void>((resolve) => child.once("exit", (code, signal) => {
    exit = { code, signal };
    resolve();
  }));
  for (const [i, w] of writes.entries()) {
    child.stdin.write(w);
    // After initialize, wait for its answer (the server may still be loading).
    if (i === 0) for (let t = 0; t < 100 && !stdout.includes('"id":1') && !exit; t++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 100));
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, waitMs))]);
  if (!exit) child.kill("SIGKILL");
  return { exit, stdout, stderr };
}

describe("lsp: protocol hygiene", function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("after shutdown, requests get InvalidRequest; exit still ends the process with 0", async () => {
    const client = await TestClient.start({ folders: [FIXTURE_WORKSPACE] });
    try {
      await client.waitForReady();
      const uri = uriOf(join(FIXTURE_WORKSPACE, "src", "email.ts"));
      assert.ok(Array.isArray(await client.request("textDocument/documentSymbol", { textDocument: { uri } })), "answers before shutdown");
      assert.equal(await client.request("shutdown", undefined), null);
      for (const [method, params] of [["textDocument/documentSymbol", { textDocument: { uri } }], ["textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 0 } }], ["agentLens/catalog", {}], ["shutdown", undefined]] as const) {
        await assert.rejects(client.request(method, params), (error: { code?: number; message?: string }) => {
          assert.equal(error.code, -32600, `${method}: ${error.message}`);
          assert.match(error.message ?? "", new RegExp(`^${method.replace("/", "\\/")}: the server is shutting down`));
          return true;
        });
      }
      const exited = new Promise<number | null>((resolve) => client.process.once("exit", resolve));
      client.notifyServer("exit", undefined);
      assert.equal(await exited, 0);
    } finally {
      await client.stop();
    }
  });

  it("a framing error ends the process with code 1 and says why on stderr (was: alive and mute)", async () => {
    const cases: Array<[string, Buffer, RegExp]> = [
      ["a Content-Length that is not a number", Buffer.from("Content-Length: abc\r\n\r\n{}"), /Content-Length is not a number: "abc"/],
      ["a header without Content-Length", Buffer.from("Content-Type: application/json\r\n\r\n{}"), /a header without Content-Length/],
      ["a header line that is not Name: value", Buffer.from("hello world\r\n\r\n"), /a header line without "Name: value": "hello world"/],
      ["9 KB of bytes and no end of header", Buffer.alloc(9 * 1024, 0x61), /no end of header within 8192 bytes/],
    ];
    for (const [what, bad, reason] of cases) {
      const r = await rawSession([INITIALIZE, bad, frame({ jsonrpc: "2.0", id: 2, method: "shutdown" })]);
      assert.deepEqual(r.exit, { code: 1, signal: null }, `${what}: the server should have exited; stderr: ${r.stderr}`);
      assert.match(r.stderr, /^agent-lens-server: framing error on stdin \(/, what);
      assert.match(r.stderr, reason, what);
      assert.match(r.stdout, /"id":1,"result":\{"capabilities"/, `${what}: it had answered initialize`);
    }
  });

  it("a message that never arrives in full ends the process with code 1 (was: deaf forever): a Content-Length beyond any message at once, a stalled body or header after the timeout", async () => {
    const huge = await rawSession([INITIALIZE, Buffer.from('Content-Length: 99999999999\r\n\r\n{"jsonrpc":"2.0","id":2,"method":"shutdown"}')]);
    assert.deepEqual(huge.exit, { code: 1, signal: null }, `the server should have exited; stderr: ${huge.stderr}`);
    assert.match(huge.stderr, /^agent-lens-server: framing error on stdin \(Content-Length 99999999999 is larger than a message may be \(268435456 bytes\)\); exiting/);
    const fast = { AGENT_LENS_LSP_STALL_TIMEOUT_MS: "1000" };
    const body = await rawSession([INITIALIZE, Buffer.from(`Content-Length: 500\r\n\r\n${"x".repeat(100)}`)], 6000, fast);
    assert.deepEqual(body.exit, { code: 1, signal: null }, `the server should have exited; stderr: ${body.stderr}`);
    assert.match(body.stderr, /a message body stopped arriving: 100 of its 500 bytes \(Content-Length\) came, then nothing for 1 s/);
    const header = await rawSession([INITIALIZE, Buffer.from("Content-Len")], 6000, fast);
    assert.deepEqual(header.exit, { code: 1, signal: null }, `the server should have exited; stderr: ${header.stderr}`);
    assert.match(header.stderr, /a message header stopped arriving before its end, then nothing for 1 s/);
    // between messages the server waits as long as it likes
    const idle = await rawSession([INITIALIZE], 2500, fast);
    assert.equal(idle.exit, undefined, `it exited while idle: ${idle.stderr}`);
  });

  it("a well-framed body that is not JSON does not end it: the next request is answered", async () => {
    const r = await rawSession([INITIALIZE, Buffer.from("Content-Length: 5\r\n\r\n{{{{{"), frame({ jsonrpc: "2.0", id: 7, method: "shutdown" })], 1500);
    assert.equal(r.exit, undefined, `it exited: ${r.stderr}`);
    assert.match(r.stdout, /"id":7,"result":null/);
  });

  it("a file over the size limit, at indexing and when opened: a log line and one notice naming it", async () => {
    const ws = mkdtempSync(join(tmpdir(), "agent-lens-skip-"));
    dirs.push(ws);
    writeFileSync(join(ws, "package.json"), "{}");
    const huge = 'import { setupAgent } from "@statelyai/agent";\n' + `export const filler = "${"x".repeat(100)}";\n`.repeat(25_000);
    writeFileSync(join(ws, "generated.ts"), huge);
    writeFileSync(join(ws, "agent.ts"), 'import { setupAgent } from "@statelyai/agent";\nexport const agent = setupAgent({ requests: {} });\n');
    const client = await TestClient.start({ folders: [ws], settings: { diagnostics: { debounceMs: 0 } } });
    try {
      await client.waitForReady();
      await client.waitFor("a skip log line", () => client.logs.find((l) => l === `[agent-lens] skipped ${join(ws, "generated.ts")}: it is larger than the 2 MB limit`));
      const notice = await client.waitFor("a notice", () => client.notices.find((n) => n.message.includes("generated.ts")));
      assert.equal(notice.type, 3);
      assert.equal(notice.message, "Agent Lens did not analyze all of generated.ts: it is larger than the 2 MB limit");
      // Opening it says nothing new (once per file and reason); a second large file opened is news.
      const other = client.open(join(ws, "other-generated.ts"), huge);
      await client.waitForDiagnostics(other);
      await client.waitFor("a notice for the opened file", () => client.notices.find((n) => n.message.includes("other-generated.ts")));
      assert.equal(client.notices.filter((n) => n.message.includes(" generated.ts")).length, 1);
    } finally {
      await client.stop();
    }
  });

  it("code nested deeper than the parser reads: an analysis-failed Error diagnostic with the reason; a long + prompt is analyzed (issue 26)", async () => {
    const machine = `import { setupAgent } from "@statelyai/agent";\nconst agent = setupAgent({ requests: { draft: { model: "writer", prompt: "p" } } });\nexport const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draft", onDone: "bb" } }, b: {} } });\n`;
    const client = await TestClient.start({ folders: [FIXTURE_WORKSPACE], settings: { diagnostics: { debounceMs: 0 } } });
    try {
      await client.waitForReady();
      const deep = client.open(join(FIXTURE_WORKSPACE, "src", "deep-parens-unsaved.ts"), `${machine}export const n = ${"(".repeat(5000)}1${")".repeat(5000)};\n`);
      const failed = await client.waitForDiagnostics(deep, (d) => d.length > 0);
      assert.deepEqual(failed.map((d) => [d.code, d.severity, d.range.start.line, d.source]), [["analysis-failed", 1, 0, "agent-lens"]]);
      assert.match(String(failed[0]!.message), /^Analysis failed while parsing the file: the code nests too deeply to be read/);
      const long = client.open(join(FIXTURE_WORKSPACE, "src", "long-prompt-unsaved.ts"), `${machine}export const PROMPT = ${Array.from({ length: 2500 }, (_, i) => JSON.stringify(`line ${i}`)).join(" + ")};\n`);
      const found = await client.waitForDiagnostics(long, (d) => d.length > 0);
      assert.deepEqual(found.map((d) => d.code), ["unknown-target"]);
      client.close(deep);
      client.close(long);
    } finally {
      await client.stop();
    }
  });

  it("a machine nested too deep: an info diagnostic, a log line and a notice", async () => {
    let nested = "{}";
    for (let i = 70; i >= 1; i--) nested = `{ initial: "s${i}", states: { s${i}: ${nested} } }`;
    const client = await TestClient.start({ folders: [FIXTURE_WORKSPACE], settings: { diagnostics: { debounceMs: 0 } } });
    try {
      await client.waitForReady();
      const file = join(FIXTURE_WORKSPACE, "src", "deep-unsaved.ts");
      const uri = client.open(file, `import { setupAgent } from "@statelyai/agent";\nconst agent = setupAgent({ requests: {} });\nexport const deep = agent.createMachine(${nested});\n`);
      const diagnostics = await client.waitForDiagnostics(uri, (d) => d.length > 0);
      assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.range.start.line]), [["analysis-skipped", 3, 2]]);
      assert.match(String(diagnostics[0]!.message), /states nested more than 64 levels deep\. The states inside "s65" \(level 65\) were skipped/);
      await client.waitFor("a log line", () => client.logs.find((l) => l.startsWith(`[agent-lens] skipped ${file}: Not analyzed: states nested more than 64 levels deep`)));
      await client.waitFor("a notice", () => client.notices.find((n) => n.message.startsWith("Agent Lens did not analyze all of deep-unsaved.ts: Not analyzed: states nested")));
      client.close(uri);
    } finally {
      await client.stop();
    }
  });
});
