// The shape the core keeps: small files in the server's LSP layer and the VS Code client, and contracts
// reached through the path aliases (@agent-lens/protocol, @agent-lens/settings, @agent-lens/harness), never
// by climbing out of a layer with ../../../.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

describe("structure: one core, in small parts", () => {
  it("no file over 300 lines in server/src/lsp or client/src", () => {
    const long = [...tsFiles("server/src/lsp"), ...tsFiles("client/src")]
      .map((f) => [f, readFileSync(join(ROOT, f), "utf8").split("\n").length - 1] as const)
      .filter(([, lines]) => lines > 300);
    assert.deepEqual(long, []);
  });

  it("the client, the LSP layer and the CLI reach shared contracts through the aliases, not ../../../", () => {
    const climbing = [...tsFiles("client/src"), ...tsFiles("server/src/lsp"), ...tsFiles("server/src/cli")].flatMap((f) =>
      readFileSync(join(ROOT, f), "utf8").split("\n").flatMap((line, i) => (/from "(\.\.\/){2,}(runtime|server|client|shared)\//.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(climbing, []);
  });

  it("RuntimeMode and the harness events are declared once, in the protocol module", () => {
    const declared = [...tsFiles("client/src"), ...tsFiles("server/src"), ...tsFiles("runtime/src"), ...tsFiles("shared")].filter((f) =>
      /export type (RuntimeMode|HarnessEvent)\b/.test(readFileSync(join(ROOT, f), "utf8")),
    );
    assert.deepEqual(declared, ["shared/protocol/harness.ts"]);
  });
});
