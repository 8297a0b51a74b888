// The transports the server supports besides stdio: node IPC (what the VS Code client uses) and the
// command line of the `agent-lens-server` bin.
import assert from "node:assert/strict";
import { execFileSync, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter, type PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { ensureServerBuilt } from "./support/build";
import { uriOf } from "./support/client";
import { FIXTURE_WORKSPACE } from "./support/fixtures";

describe("lsp: transports", function () {
  this.timeout(60_000);

  it("serves over node IPC, as the VS Code client starts it", async () => {
    const server = ensureServerBuilt();
    const child = fork(server, ["--node-ipc"], { silent: true });
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    try {
      connection.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => ({ diagnostics: { debounceMs: 0 } })));
      connection.onRequest("client/registerCapability", () => null);
      const diagnostics = new Promise<PublishDiagnosticsParams>((resolve) => connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => resolve(p)));
      connection.listen();
      const init = await connection.sendRequest<{ capabilities: { textDocumentSync: { change: number }; renameProvider: unknown } }>("initialize", {
        processId: process.pid,
        rootUri: null,
        capabilities: { workspace: { configuration: true } },
        workspaceFolders: [{ uri: uriOf(FIXTURE_WORKSPACE), name: "fixture" }],
      });
      assert.equal(init.capabilities.textDocumentSync.change, 2, "incremental sync");
      assert.deepEqual(init.capabilities.renameProvider, { prepareProvider: true });
      await connection.sendNotification("initialized", {});
      const file = join(FIXTURE_WORKSPACE, "src", "broken.ts");
      await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: uriOf(file), languageId: "typescript", version: 1, text: readFileSync(file, "utf8") } });
      const published = await diagnostics;
      assert.deepEqual(published.diagnostics.map((d) => d.code).sort(), ["unknown-request", "unknown-target"]);
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      assert.equal(code, 0, "exits cleanly after shutdown + exit");
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    }
  });

  it("answers --version and --help on the command line", () => {
    const server = ensureServerBuilt();
    assert.match(execFileSync(process.execPath, [server, "--version"], { encoding: "utf8" }), /^agent-lens-server \d+\.\d+\.\d+/);
    assert.match(execFileSync(process.execPath, [server, "--help"], { encoding: "utf8" }), /--stdio/);
  });
});
