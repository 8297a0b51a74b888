// Tokenizes agent definitions with the real TextMate engine VS Code uses (vscode-textmate + oniguruma),
// the TypeScript grammar, and our injection, and checks which scopes prompt text gets.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as oniguruma from "vscode-oniguruma";
import { INITIAL, Registry, type IGrammar, type IRawGrammar } from "vscode-textmate";

const root = join(__dirname, "../..");
const injectionPath = join(root, "syntaxes/agent-prompt.injection.tmLanguage.json");

async function loadGrammar(): Promise<IGrammar> {
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scope) => {
      if (scope === "source.ts") return JSON.parse(readFileSync(require.resolve("tm-grammars/grammars/typescript.json"), "utf8")) as IRawGrammar;
      if (scope === "agent-lens.prompt.injection") return JSON.parse(readFileSync(injectionPath, "utf8")) as IRawGrammar;
      return null;
    },
    getInjections: (scope) => (scope === "source.ts" ? ["agent-lens.prompt.injection"] : undefined),
  });
  const grammar = await registry.loadGrammar("source.ts");
  assert.ok(grammar, "the TypeScript grammar loads");
  return grammar;
}

/** Scopes of the token that covers `needle` in `line`. */
function scopesAt(grammar: IGrammar, line: string, needle: string): string[] {
  const at = line.indexOf(needle);
  assert.ok(at >= 0, `"${needle}" is in the line`);
  const { tokens } = grammar.tokenizeLine(line, INITIAL);
  const token = tokens.find((t) => t.startIndex <= at && at < t.endIndex);
  assert.ok(token, "a token covers the needle");
  return token.scopes;
}

describe("prompt injection grammar", () => {
  let grammar: IGrammar;
  before(async () => {
    grammar = await loadGrammar();
  });

  it("marks a prompt arrow function's template as embedded prompt text", () => {
    const line = "  prompt: ({ input }) => `Write a short email about ${input.topic}.`,";
    assert.ok(scopesAt(grammar, line, "Write a short").includes("meta.embedded.prompt.agent-lens"));
    // The substitution keeps TypeScript's own expression scopes.
    const sub = scopesAt(grammar, line, "topic");
    assert.ok(sub.some((s) => s.startsWith("meta.template.expression")), sub.join(" "));
  });

  it("marks a plain prompt template and highlights {{placeholders}}", () => {
    const line = "  system: `You are {{persona}}, be brief.`,";
    assert.ok(scopesAt(grammar, line, "You are").includes("meta.embedded.prompt.agent-lens"));
    assert.ok(scopesAt(grammar, line, "persona").includes("variable.other.placeholder.agent-lens"));
  });

  it("leaves other template strings alone", () => {
    const line = "  const note = `Write a short email`;";
    assert.ok(!scopesAt(grammar, line, "Write a short").includes("meta.embedded.prompt.agent-lens"));
  });

  it("does not fire inside comments", () => {
    const line = "  // prompt: `Write a short email`";
    assert.ok(!scopesAt(grammar, line, "Write a short").includes("meta.embedded.prompt.agent-lens"));
  });
});
