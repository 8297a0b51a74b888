// `on: [...]`: the triggers that start a run — `{ message }`, `{ mention, extract? }`, `{ silence }`,
// `{ event, after? }`, each with an optional `repeat` (`"once" | "always" | { cooldown }`) and `if`.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { isMissing, isStringLike } from "../../util/ts-nodes";
import type { FlowModel, TriggerModel } from "../model";
import type { Props } from "../props";
import type { Reader } from "../reader";
import { readPred } from "./predicates";

export function readTriggers(r: Reader, onNode: ts.Node, flow: FlowModel): void {
  if (isMissing(onNode)) return;
  flow.onPresent = true;
  const { items, complete } = r.elements(onNode);
  if (!complete) flow.triggersStatic = false;
  for (const item of items) {
    const props = r.props(item);
    if (!props) {
      flow.triggersStatic = false;
      continue;
    }
    if (!props.complete) flow.triggersStatic = false;
    flow.triggers.push(readTrigger(r, props));
  }
}

function keyRangeOf(r: Reader, entries: Props, key: string, fallback: TriggerModel["range"]): TriggerModel["range"] {
  const prop = entries.prop(key);
  return prop?.name ? r.range(prop.name) : fallback;
}

/** A trigger's phrases (a string or a list of strings); true when the list is empty (a catch-all). */
function readPhrases(r: Reader, node: ts.Node, t: TriggerModel): boolean {
  const list = r.local(node);
  if (list && ts.isArrayLiteralExpression(list)) {
    const strs = r.strList(list);
    t.phrases = strs.map(textOf);
    t.phrasesStatic = strs.length === list.elements.length;
    return list.elements.length === 0;
  }
  if (list && isStringLike(list)) t.phrases = [list.text];
  else t.phrasesStatic = false;
  return false;
}

const textOf = (s: { text: string }) => s.text;

function readTrigger(r: Reader, entries: Props): TriggerModel {
  // every field set up front: one object shape for all triggers
  const t: TriggerModel = { kind: "other", range: r.range(entries.node), phrases: [], phrasesStatic: true, catchAll: false, keyRange: undefined, silence: undefined, event: undefined, after: undefined, repeat: undefined, cooldown: undefined, hasIf: false, if: undefined, extractKeys: [] };
  // (no closures here: this runs once per trigger)
  if (entries.has("message")) {
    t.kind = "message";
    t.keyRange = keyRangeOf(r, entries, "message", t.range);
    t.catchAll = readPhrases(r, entries.get("message")!, t);
  } else if (entries.has("mention")) {
    t.kind = "mention";
    t.keyRange = keyRangeOf(r, entries, "mention", t.range);
    readPhrases(r, entries.get("mention")!, t);
    const extract = r.props(entries.get("extract"));
    t.extractKeys = extract ? [...extract.byName.keys()] : [];
  } else if (entries.has("silence")) {
    t.kind = "silence";
    t.keyRange = keyRangeOf(r, entries, "silence", t.range);
    t.silence = r.duration(entries.get("silence"));
  } else if (entries.has("event")) {
    t.kind = "event";
    t.keyRange = keyRangeOf(r, entries, "event", t.range);
    t.event = r.str(entries.get("event"));
    t.after = r.duration(entries.get("after"));
  }
  const repeat = entries.get("repeat");
  if (repeat) {
    const word = r.str(repeat);
    if (word) t.repeat = word.text;
    else {
      const cooldown = r.props(repeat)?.get("cooldown");
      if (cooldown) {
        t.repeat = "cooldown";
        t.cooldown = r.duration(cooldown);
      }
    }
  }
  const pred = entries.get("if");
  if (pred && !isMissing(pred)) {
    t.hasIf = true;
    t.if = readPred(r, pred);
  }
  return t;
}
