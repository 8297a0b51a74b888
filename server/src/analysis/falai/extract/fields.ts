// `falai().fields({...})`: the field set a builder binds. Each field is `{ type, enum?, ask?,
// description?, extract? }`; spreads of object literals are followed (later keys win, as at run time).
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { bindingNameNode, isMissing, isStringLike } from "../../util/ts-nodes";
import type { FieldModel, FieldSetModel } from "../model";
import type { FalaiHost } from "./host";

export function readFieldSet(host: FalaiHost, call: ts.CallExpression): FieldSetModel {
  const r = host.reader;
  const callee = call.expression as ts.PropertyAccessExpression;
  const varNode = bindingNameNode(call);
  const name = varNode?.text ?? "fields";
  const view = r.object(call.arguments[0]);
  const set: FieldSetModel = {
    symbolId: host.claim("fieldSet", name, call),
    name,
    file: r.file,
    nameRange: r.range(varNode ?? callee.name),
    range: r.range(varNode ? varNode.parent : call),
    fields: [],
    complete: !!view?.complete,
    node: call,
  };
  if (!view) return set;
  for (const entry of view.entries.values()) {
    const prop = entry.node as ts.ObjectLiteralElementLike;
    if (!prop.name || isMissing(prop.name)) {
      set.complete = false;
      continue;
    }
    set.fields.push(readField(host, set, entry.name, prop, entry.value));
  }
  set.insertion = insertionPoint(host, view.node as ts.ObjectLiteralExpression);
  return set;
}

function readField(host: FalaiHost, set: FieldSetModel, name: string, prop: ts.ObjectLiteralElementLike, value: ts.Node): FieldModel {
  const r = host.reader;
  const field: FieldModel = {
    name,
    symbolId: `${r.file}#field:${set.name}.${name}`,
    nameRange: r.keyRange(prop.name!),
    range: r.range(prop),
    type: undefined,
    typeStatic: false,
    ask: undefined,
    description: undefined,
    enumValues: undefined,
    extract: undefined,
  };
  const spec = r.props(value);
  if (!spec) return field;
  const typeNode = spec.get("type");
  field.type = r.str(typeNode);
  field.typeStatic = spec.complete && (!typeNode || !!field.type);
  field.ask = r.text(spec.get("ask"));
  field.description = r.text(spec.get("description"));
  field.extract = r.str(spec.get("extract"))?.text;
  const list = r.local(spec.get("enum"));
  if (list && ts.isArrayLiteralExpression(list)) {
    field.enumValues = list.elements.flatMap((el) => {
      const v = r.local(el);
      return v && (isStringLike(v) || ts.isNumericLiteral(v)) ? [v.text] : [];
    });
  }
  return field;
}

/** Where a new field goes: after the last property, keeping the object's comma and indentation style. */
function insertionPoint(host: FalaiHost, obj: ts.ObjectLiteralExpression): FieldSetModel["insertion"] {
  const r = host.reader;
  const text = r.sf.text;
  const props = obj.properties;
  const open = obj.getStart(r.sf);
  if (props.length === 0) {
    const at = open + 1;
    return { range: r.rangeAt(at, at), prefix: " ", suffix: " " };
  }
  const last = props[props.length - 1]!;
  const lastStart = last.getStart(r.sf);
  const lineStart = text.lastIndexOf("\n", lastStart - 1) + 1;
  const indent = text.slice(lineStart, lastStart);
  const multiline = /^\s*$/.test(indent) && text.lastIndexOf("\n", lastStart) > open;
  if (props.hasTrailingComma) {
    const comma = text.indexOf(",", last.end);
    const at = comma >= 0 ? comma + 1 : last.end;
    return multiline ? { range: r.rangeAt(at, at), prefix: `\n${indent}`, suffix: "," } : { range: r.rangeAt(at, at), prefix: " ", suffix: "," };
  }
  return multiline ? { range: r.rangeAt(last.end, last.end), prefix: `,\n${indent}`, suffix: "" } : { range: r.rangeAt(last.end, last.end), prefix: ", ", suffix: "" };
}
