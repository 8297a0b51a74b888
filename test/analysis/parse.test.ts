// The analysis parse: parent links, and the line map filled by lineStartsOf — the compiler's numbers for
// every kind of line break, since every range and every LSP position is computed from them.
import assert from "node:assert/strict";
import { ts } from "ts-morph";
import { lineStartsOf, parseWithParents } from "../../server/src/analysis/parse";

const texts: Record<string, string> = {
  "empty": "",
  "one line, no break": "const a = 1;",
  "\\n breaks, trailing break": "const a = 1;\nconst b = 2;\n\n// end\n",
  "\\n breaks, no trailing break": "a\nb\n\nc",
  "only breaks": "\n\n\n",
  "\\r\\n breaks": "const a = 1;\r\nconst b = 2;\r\n",
  "lone \\r": "a\rb\r\nc\nd",
  "U+2028 and U+2029": "a\u2028b\u2029c\nd",
  "a non-ASCII text with \\n breaks": "const é = 'ação';\n// 日本語\nconst b = \"\\u2028 written as an escape\";\n",
};

describe("analysis parse", () => {
  for (const [name, text] of Object.entries(texts)) {
    it(`gives the compiler's line starts: ${name}`, () => {
      const sf = parseWithParents("/p/a.ts", text);
      const compilers = ts.createSourceFile("/p/b.ts", text, ts.ScriptTarget.Latest).getLineStarts(); // computed by the compiler
      assert.deepEqual([...sf.getLineStarts()], [...compilers]);
    });
  }

  it("computes the line map itself only for texts that break lines with \\n alone", () => {
    assert.deepEqual(lineStartsOf("a\nbc\n"), [0, 2, 5]);
    assert.equal(lineStartsOf("a\r\nb"), undefined);
    assert.equal(lineStartsOf("a\u2028b"), undefined);
  });

  it("sets every node's parent", () => {
    const sf = parseWithParents("/p/a.ts", "const m = f({ a: [1, { b: g(2) }] });\n");
    const orphans: ts.Node[] = [];
    const visit = (node: ts.Node, parent: ts.Node): void => {
      if (node.parent !== parent) orphans.push(node);
      ts.forEachChild(node, (child) => visit(child, node));
    };
    ts.forEachChild(sf, (child) => visit(child, sf));
    assert.deepEqual(orphans.map((n) => ts.SyntaxKind[n.kind]), []);
  });
});
