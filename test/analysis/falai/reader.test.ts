// Props: an object literal's properties by key, as the falai extraction reads every definition — keys of
// every kind, spreads of the file's own literals merged in place, later keys winning as at run time.
import assert from "node:assert/strict";
import { ts } from "ts-morph";
import { FileContext } from "../../../server/src/analysis/context";
import { Reader } from "../../../server/src/analysis/falai/reader";
import { Values } from "../../../server/src/analysis/resolve/values";
import { memoryWorkspace } from "./support/project";

const text = `
const base = { b: 1, c: 2 };
export const o = { a: 1, "s-key": 2, 3: "n", [\`t\`]: 4, __x: 5, ...base, c: 6, m() {}, b };
export const withAccessor = { k: 1, get g() { return 1; } };
export const withUnknownSpread = { k: 1, ...someCall() };
export const repeated = { k: 1, j: 2, k: 3 };
export const accessorBeforeSpread = { get g() { return 0; }, k: 1, ...base, k: 2 };
`;

function readerAndLiterals(): { reader: Reader; literal: (name: string) => ts.Node } {
  const ws = memoryWorkspace({ "/w/a.ts": text });
  const sf = ws.workspace.tree("/w/a.ts")!;
  const ctx = new FileContext(ws.workspace, { dependencies: new Set(), contexts: new Map(), evalCalls: 0 }, "/w/a.ts", sf);
  const literal = (name: string) => {
    for (const stmt of sf.statements) {
      if (!ts.isVariableStatement(stmt)) continue;
      for (const d of stmt.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return d.initializer!;
    }
    throw new Error(`no ${name}`);
  };
  return { reader: new Reader(ctx.parsed, new Values(ctx.resolver)), literal };
}

describe("falai reader: Props", () => {
  it("reads keys of every kind, merges a local spread and lets later keys win", () => {
    const { reader, literal } = readerAndLiterals();
    const props = reader.props(literal("o"))!;
    assert.equal(props.complete, true);
    assert.deepEqual([...props.byName.keys()], ["a", "s-key", "3", "t", "__x", "c", "m", "b"]);
    assert.equal(props.get("c")!.getText(), "6");
    assert.equal(props.get("__x")!.getText(), "5");
    assert.equal(props.get("s-key")!.getText(), "2");
    assert.equal(props.get("t")!.getText(), "4");
    assert.ok(ts.isShorthandPropertyAssignment(props.prop("b")!));
    assert.ok(ts.isMethodDeclaration(props.get("m")!));
    assert.equal(props.has("base"), false);
    assert.equal(props.get("nope"), undefined);
  });

  it("is incomplete when an accessor or a spread cannot be read, and keeps what it could", () => {
    const { reader, literal } = readerAndLiterals();
    const accessor = reader.props(literal("withAccessor"))!;
    assert.equal(accessor.complete, false);
    assert.deepEqual([...accessor.byName.keys()], ["k"]);
    const spread = reader.props(literal("withUnknownSpread"))!;
    assert.equal(spread.complete, false);
    assert.equal(spread.get("k")!.getText(), "1");
  });

  it("lets a later key win in a literal without a spread, as with one", () => {
    const { reader, literal } = readerAndLiterals();
    const repeated = reader.props(literal("repeated"))!;
    assert.equal(repeated.complete, true);
    assert.deepEqual([...repeated.byName.keys()], ["j", "k"]);
    assert.equal(repeated.get("k")!.getText(), "3");
    const mixed = reader.props(literal("accessorBeforeSpread"))!;
    assert.equal(mixed.complete, false);
    assert.deepEqual([...mixed.byName.keys()], ["b", "c", "k"]);
    assert.equal(mixed.get("k")!.getText(), "2");
    assert.equal(mixed.get("b")!.getText(), "1");
    assert.equal(mixed.has("g"), false);
  });
});
