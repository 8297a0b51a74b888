// What reading one machine (or one eval call) needs from the extraction run: value reading through
// the resolver, unique symbol ids, request configs, and machines found elsewhere. A narrow interface, so
// machine.ts and evals.ts depend on it and not on the extractor (which depends on them).
import type { ts } from "ts-morph";
import type { DeclarationResolver, Parsed } from "../resolve/declarations";
import type { Values } from "../resolve/values";
import type { MachineDef, RequestDef, StateDef, TargetDef, Text } from "./model";

export interface StatelyHost {
  readonly values: Values;
  readonly resolver: DeclarationResolver;
  /** A unique symbol id (later duplicates of a name get an `@line` suffix). */
  uniqueId(id: string, at: Parsed, node: ts.Node): string;
  /** A request's config: an object literal, or a createTextLogic/createDecisionLogic call's argument. */
  readRequestConfig(at: Parsed, value: ts.Node, name: Text, symbolId: string, kind?: "text" | "decision"): RequestDef;
  /** The machine created by a createMachine call node found through resolution (in any file). */
  machineAt(at: Parsed, node: ts.Node): MachineDef | undefined;
  /** Records a transition target read from a string literal (an edit of that literal alone can be
   *  re-resolved without extracting again). */
  noteTarget(target: TargetDef, source: StateDef): void;
}
