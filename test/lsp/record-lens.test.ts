// The "Record" lens over the real server (stdio), for a client that records (clientCommands holds
// agentLens.recordLens): one beside each run lens on a call in an eval file, carrying the same target;
// none on a definition, none in a file agentLens.testGlobs does not name. (A client that does not list the
// command gets none: test/lsp/catalog.test.ts's onboarding.test.ts has its "Run turns" lens alone.)
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CodeLens } from "vscode-languageserver-protocol";
import { RecordLensCommand, RunLensCommand } from "@agent-lens/protocol";
import { TestClient, uriOf } from "./support/client";
import { copyWorkspace } from "./support/fixtures";

describe("lsp: Record lenses", function () {
  this.timeout(60_000);
  let ws: ReturnType<typeof copyWorkspace>;
  let client: TestClient;
  const file = (name: string) => join(ws.root, "src", name);

  before(async () => {
    ws = copyWorkspace();
    const turns = 'import { agent } from "./onboarding";\nawait agent.turn({ sessionId: "s1", message: "oi" });\nawait agent.turn({ sessionId: "s1", message: "tchau" });\n';
    writeFileSync(file("onboarding.test.ts"), turns);
    writeFileSync(file("onboarding-script.ts"), turns);
    client = await TestClient.start({ folders: [ws.root], settings: { diagnostics: { debounceMs: 0 } }, initializationOptions: { clientCommands: [RecordLensCommand] } });
    await client.waitForReady();
  });
  after(async () => {
    await client?.stop();
    ws?.dispose();
  });

  const lenses = (name: string) => client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: uriOf(file(name)) } });
  const shape = (l: CodeLens) => [l.command?.title, l.command?.command, l.range.start.line];

  it("puts Record beside each run lens on a call in an eval file, with that lens's target", async () => {
    const turns = await lenses("onboarding.test.ts");
    assert.deepEqual(turns.map(shape), [["Run turns", RunLensCommand, 1], ["Record", RecordLensCommand, 1], ["Run turns", RunLensCommand, 2], ["Record", RecordLensCommand, 2]]);
    for (let i = 0; i < turns.length; i += 2) assert.deepEqual(turns[i + 1]!.command!.arguments, turns[i]!.command!.arguments);
    const seam = await lenses("email.eval.ts");
    assert.deepEqual(seam.map((l) => l.command?.title), ["Run seam", "Record"]);
  });

  it("puts none on a definition, nor on a call in a file that is not an eval file", async () => {
    assert.ok(!(await lenses("email.ts")).some((l) => l.command?.command === RecordLensCommand));
    assert.ok(!(await lenses("onboarding.ts")).some((l) => l.command?.command === RecordLensCommand));
    assert.deepEqual((await lenses("onboarding-script.ts")).map((l) => l.command?.title), ["Run turns", "Run turns"]);
  });
});
