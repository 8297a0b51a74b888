// Tests the Test Explorer can list before anything runs: node:test / mocha-style `describe` / `suite`
// blocks with `test` / `it` inside (including `.skip`, `.only`, `.todo` variants), nested as written. A
// file with none is a plain script: the whole file is one "file" test.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import * as path from "node:path";
import type { StaticTest } from "./api";
import { rangeAt, rangeOfTs } from "./ranges";
import { isFunctionLike, unwrap } from "./util/ts-nodes";
import { SKIP, walkDescendants } from "./util/walk";

const SUITES = new Set(["describe", "suite", "context"]);
const TESTS = new Set(["test", "it", "specify"]);
const VARIANTS = new Set(["skip", "only", "todo", "concurrent", "serial"]);

export function staticTests(file: string, sf: ts.SourceFile): StaticTest[] {
  const blocks = collect(file, sf, sf);
  if (blocks.length > 0) return blocks;
  return [{ kind: "file", name: path.basename(file), file, range: rangeAt(sf, 0, sf.text.length) }];
}

function collect(file: string, sf: ts.SourceFile, root: ts.Node): StaticTest[] {
  const out: StaticTest[] = [];
  walkDescendants(root, (node) => {
    if (ts.isCallExpression(node)) {
      const kind = blockKind(node);
      const name = kind && testName(sf, node.arguments[0]);
      if (kind && name !== undefined) {
        const fn = node.arguments.find((a) => isFunctionLike(unwrap(a)));
        const test: StaticTest = { kind, name, file, range: rangeOfTs(sf, node) };
        if (kind === "suite") test.children = fn ? collect(file, sf, unwrap(fn)) : [];
        out.push(test);
        return SKIP;
      }
    }
    return undefined;
  });
  return out;
}

function blockKind(call: ts.CallExpression): "suite" | "test" | undefined {
  let callee = unwrap(call.expression);
  if (ts.isPropertyAccessExpression(callee) && VARIANTS.has(callee.name.text)) callee = unwrap(callee.expression);
  if (!ts.isIdentifier(callee)) return undefined;
  if (SUITES.has(callee.text)) return "suite";
  if (TESTS.has(callee.text)) return "test";
  return undefined;
}

/** A test's name: a string or template as written (substitutions kept as `${...}` source text). */
function testName(sf: ts.SourceFile, arg: ts.Node | undefined): string | undefined {
  if (!arg) return undefined;
  const n = unwrap(arg);
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  if (ts.isTemplateExpression(n)) {
    const text = n.getText(sf);
    return text.slice(1, text.endsWith("`") ? -1 : undefined);
  }
  return undefined;
}
