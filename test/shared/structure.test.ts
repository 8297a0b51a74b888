// The shape the core keeps: shared/ is the ground floor (it imports nothing of ours), the three parts
// (server/, runtime/, client/) reach each other only through it and through the harness's public entries,
// no import cycles, small files, and contracts reached through the path aliases (@agent-lens/protocol,
// @agent-lens/settings, @agent-lens/harness), never by climbing out of a layer with ../../../, and no
// comment or README pointing at a test file that is not there.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { importEdges, PRODUCTION, ROOT, tsFiles, type ImportEdge } from "../support/import-graph";

const partOf = (file: string) => file.split("/")[0]!;

/** The harness is the runtime's host API: the one way the editor (client/src/run) and `agent-lens run`
 *  (server/src/cli) start a run of a user's file. These two entries are all of the runtime they may import. */
const HARNESS_ENTRIES = ["runtime/src/harness/index.ts", "runtime/src/harness/early.ts"];

/** Imports from one part into another that are not allowed: into shared/ is always fine; into the runtime
 *  only its harness entries, from the client or the CLI; nothing reaches the server or the client. */
function crossingImports(edges: ImportEdge[]): string[] {
  return edges.flatMap((e) => {
    if (!e.to || partOf(e.to) === "shared" || partOf(e.to) === partOf(e.from)) return [];
    const harnessHost = partOf(e.from) === "client" || e.from.startsWith("server/src/cli/");
    return harnessHost && HARNESS_ENTRIES.includes(e.to) ? [] : [`${e.from} imports ${e.to}`];
  });
}

const MAX_LINES = 300;

/** Production files still over MAX_LINES, each with why it is not split yet (issue 29). */
const STILL_LONG: Record<string, string> = {};

describe("structure: one core, in small parts", () => {
  it("shared/ imports only npm packages, Node builtins and shared/ itself", () => {
    const edges = importEdges().filter((e) => partOf(e.from) === "shared");
    assert.ok(edges.length > 10);
    const ours = edges.filter((e) => !e.external && partOf(e.to ?? "") !== "shared").map((e) => `${e.from} imports ${e.to ?? e.specifier}`);
    assert.deepEqual(ours, []);
  });

  it("server/, runtime/ and client/ import each other only through shared/ (and the harness's public entries)", () => {
    assert.deepEqual(crossingImports(importEdges()), []);
    // The rule can fail: the runtime reaching into the server, or the client past the harness's entries.
    assert.deepEqual(
      crossingImports([
        { from: "runtime/src/harness/bundle.ts", specifier: "x", to: "server/src/analysis/types.ts", external: false },
        { from: "client/src/run/harness.ts", specifier: "x", to: "runtime/src/harness/run-file.ts", external: false },
        { from: "server/src/lsp/server.ts", specifier: "x", to: "runtime/src/harness/index.ts", external: false },
      ]),
      ["runtime/src/harness/bundle.ts imports server/src/analysis/types.ts", "client/src/run/harness.ts imports runtime/src/harness/run-file.ts", "server/src/lsp/server.ts imports runtime/src/harness/index.ts"],
    );
  });

  it("no production file over 300 lines (shared/, server/, runtime/, client/ with media), but the listed ones", () => {
    const lines = (f: string) => readFileSync(join(ROOT, f), "utf8").split("\n").length - 1;
    const long = PRODUCTION.flatMap(tsFiles).filter((f) => lines(f) > MAX_LINES);
    assert.deepEqual(long.filter((f) => !(f in STILL_LONG)), []);
    // the list only shrinks: a listed file that is short now comes off it
    assert.deepEqual(Object.keys(STILL_LONG).filter((f) => !long.includes(f)), []);
  });

  it("the client, the LSP layer and the CLI reach shared contracts through the aliases, not ../../../", () => {
    const climbing = [...tsFiles("client/src"), ...tsFiles("server/src/lsp"), ...tsFiles("server/src/cli")].flatMap((f) =>
      readFileSync(join(ROOT, f), "utf8").split("\n").flatMap((line, i) => (/from "(\.\.\/){2,}(runtime|server|client|shared)\//.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(climbing, []);
  });

  it("a test file a production comment or a README names exists", () => {
    const texts = [...PRODUCTION.flatMap(tsFiles), "scripts/gen-checks.mjs", "scripts/build.mjs", "README.md", "server/README.md", "runtime/README.md"];
    const named = texts.flatMap((f) => [...readFileSync(join(ROOT, f), "utf8").matchAll(/\btest\/[\w./-]+\.test\.ts\b/g)].map((m) => `${f}: ${m[0]}`));
    assert.ok(named.length > 10, `${named.length} test files named`);
    assert.deepEqual(named.filter((n) => !existsSync(join(ROOT, n.split(": ")[1]!))), []);
  });

  it("RuntimeMode and the harness events are declared once, in the protocol module", () => {
    const declared = [...tsFiles("client/src"), ...tsFiles("server/src"), ...tsFiles("runtime/src"), ...tsFiles("shared")].filter((f) =>
      /export type (RuntimeMode|HarnessEvent)\b/.test(readFileSync(join(ROOT, f), "utf8")),
    );
    assert.deepEqual(declared, ["shared/protocol/harness.ts"]);
  });
});
