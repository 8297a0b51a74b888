// Half-typed files: every prefix of the seed programs and of a file full of mistakes, and a few
// hand-made broken snippets, analyze without an exception and keep what can be read.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeSource } from "./support/project";

const programs = join(__dirname, "../../conformance/programs");
const sources = ["falai-end-to-end.test.ts", "falai-replay.test.ts"].map((n) => readFileSync(join(programs, n), "utf8"));

describe("falai analysis of broken input", () => {
  it("never throws on truncations of the seed programs", function () {
    this.timeout(120_000);
    for (const text of sources) {
      const step = Math.max(1, Math.floor(text.length / 150));
      for (let cut = 0; cut <= text.length; cut += step) {
        const r = analyzeSource(text.slice(0, cut));
        assert.ok(Array.isArray(r.findings) && Array.isArray(r.symbols));
      }
    }
  });

  it("never throws on lines removed or characters swapped", function () {
    this.timeout(120_000);
    const lines = sources[0]!.split("\n");
    for (let i = 25; i < 60; i++) {
      analyzeSource([...lines.slice(0, i), ...lines.slice(i + 1)].join("\n"));
      analyzeSource(lines.map((l, j) => (j === i ? l.replace(/[{}\[\]"]/, "") : l)).join("\n"));
    }
  });

  it("keeps the flows that parse when a later one is half-typed", () => {
    const r = analyzeSource(`import { falai } from "@falai/agent";
const f = falai().fields({ nome: { type: "string" } });
const a = f.flow({ id: "a", on: [{ message: [] }], steps: [{ id: "s", collect: ["nome"] }] });
const b = f.flow({ id: "b", on: [{ silence: `);
    assert.ok(r.symbols.some((s) => s.kind === "flow" && s.name === "a"));
    assert.ok(r.symbols.some((s) => s.kind === "step" && s.name === "s"));
  });

  it("reports no unknown name for values still being typed", () => {
    for (const snippet of [`else: `, `else: "`, `then: `, `then: "`, `then: { flow: "`, `then: { step: "`, `collect: [`, `collect: ["`, `wait: `, `wait: "`, `wait: { event: "`, `wait: { event: "x", upTo: "`, `if: { `, `if: { na`, `id: `, `do: "`, `tools: ["`, `branches: [{ when: "x", then: "`]) {
      const r = analyzeSource(`import { falai } from "@falai/agent";
const f = falai().fields({ nome: { type: "string" } });
f.flow({ id: "a", on: [{ message: ["x"] }], steps: [{ id: "s", prompt: "p" }, { ${snippet} }] });
`);
      const codes = r.findings.map((f) => f.code).filter((c) => c.startsWith("unknown-") || c === "bad-duration");
      assert.deepEqual(codes, [], snippet);
    }
  });
});
