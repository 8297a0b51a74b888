// What the falai extractor reads out of a file: field sets, flows with their steps and triggers, agents
// with the flows, tools and actions they register, and the places that run turns. Pure data plus the
// compiler nodes the extractor needs to look entities up again (never handed out of this folder).
import type { ts } from "ts-morph";
import type { SourceRange } from "../types";

/**
 * A string as written: its value, the range of its contents (inside the quotes) and of the literal.
 * `full` is derived from `range` when asked (only findings need it), unless given (multi-line literals, keys).
 */
export class Str {
  constructor(
    readonly text: string,
    readonly range: SourceRange,
    private readonly literal?: SourceRange,
    /** A literal still being typed (no closing quote): kept for completion, never reported. */
    readonly unterminated?: boolean,
  ) {}

  get full(): SourceRange {
    if (this.literal) return this.literal;
    const r = this.range;
    const close = this.unterminated ? 0 : 1;
    return { start: r.start - 1, end: r.end + close, startLine: r.startLine, startColumn: r.startColumn - 1, endLine: r.endLine, endColumn: r.endColumn + close };
  }
}

/** A duration value: a string ("24h") or a number of milliseconds. `ms` is undefined when it does not parse. */
export interface DurationValue {
  text: string;
  ms: number | undefined;
  full: SourceRange;
}

export interface FieldModel {
  name: string;
  symbolId: string;
  nameRange: SourceRange;
  range: SourceRange;
  /** The `type` string; undefined when absent or not a literal (see `typeStatic`). */
  type?: Str;
  /** False when the spec or its `type` is an expression we cannot read. */
  typeStatic: boolean;
  ask?: string;
  description?: string;
  /** Enum values when `values` is a literal array of strings. */
  values?: string[];
  hasValues: boolean;
}

export interface FieldSetModel {
  symbolId: string;
  /** The const the builder is assigned to, or "fields". */
  name: string;
  file: string;
  /** The const's name, or the `fields` method name when the builder is not assigned. */
  nameRange: SourceRange;
  range: SourceRange;
  fields: FieldModel[];
  /** True when every field is statically known (no spreads or computed keys we could not follow). */
  complete: boolean;
  /** Where "add a field declaration" inserts, and how. */
  insertion?: { range: SourceRange; prefix: string; suffix: string };
  node: ts.CallExpression;
}

/** The `f` a flow or agent is made from. `known` is false when the builder could not be followed. */
export interface BuilderRef {
  known: boolean;
  fieldSet?: FieldSetModel;
}

export type TriggerKind = "message" | "silence" | "mention" | "other";

export interface TriggerModel {
  kind: TriggerKind;
  range: SourceRange;
  /** message: the example phrases; an empty, static list is a catch-all. */
  phrases: string[];
  phrasesStatic: boolean;
  catchAll: boolean;
  /** The `message` key (where catch-all-conflict points). */
  keyRange?: SourceRange;
  silence?: DurationValue;
  /** mention: what the customer brings up; extract: fields to fill from it. */
  mention?: string;
  extract: Str[];
}

export interface BranchModel {
  range: SourceRange;
  when?: string;
  /** False when `when` is absent: the branch is the unconditional "otherwise" arm. */
  hasWhen: boolean;
  goto?: Str;
  /** True when `goto` is an expression we cannot read (it may go anywhere). */
  gotoDynamic: boolean;
}

export interface StepModel {
  symbolId: string;
  index: number;
  id?: Str;
  range: SourceRange;
  prompt?: string;
  collect: Str[];
  wait?: DurationValue;
  hasWait: boolean;
  else?: Str;
  elseDynamic: boolean;
  do: Str[];
  tools: Str[];
  branches: BranchModel[];
  /** False when `branches` holds something we cannot read. */
  branchesStatic: boolean;
}

export interface FlowModel {
  symbolId: string;
  file: string;
  id?: Str;
  name?: string;
  range: SourceRange;
  builder: BuilderRef;
  onPresent: boolean;
  triggers: TriggerModel[];
  /** False when `on` (or one trigger) is an expression we cannot read. */
  triggersStatic: boolean;
  steps: StepModel[];
  stepsStatic: boolean;
  node: ts.CallExpression;
}

export interface Registration {
  kind: "tool" | "action";
  name: string;
  symbolId: string;
  file: string;
  nameRange: SourceRange;
  range: SourceRange;
  description?: string;
  /** The agent whose `tools` / `actions` object declares it (absent for f.tool / f.action calls). */
  ownerId?: string;
}

/** A flow an agent includes, with the place in the agent's file that names it. */
export interface AgentFlowEntry {
  flow: FlowModel;
  refRange: SourceRange;
}

export interface AgentModel {
  symbolId: string;
  file: string;
  name?: string;
  varName?: string;
  range: SourceRange;
  nameRange: SourceRange;
  builder: BuilderRef;
  flows: AgentFlowEntry[];
  flowsStatic: boolean;
  tools: Registration[];
  toolsStatic: boolean;
  actions: Registration[];
  actionsStatic: boolean;
  hasClock: boolean;
  node: ts.CallExpression;
}

/** `agent.turn(...)` / `agent.turnStream(...)`: an eval site. */
export interface TurnSite {
  method: "turn" | "turnStream";
  range: SourceRange;
  /** 1-based line of the call. */
  line: number;
  agent?: AgentModel;
}

/** A key of a scripted understand reply naming a flow (`flows`, `mentions`, `extract`) or a field (`fields`). */
export interface ScriptKeyRef {
  kind: "flow" | "field";
  key: Str;
  targetId?: string;
  candidates: Array<{ name: string; symbolId: string; detail?: string }>;
}

export interface FalaiFileModel {
  file: string;
  fieldSets: FieldSetModel[];
  flows: FlowModel[];
  agents: AgentModel[];
  /** Tools and actions declared in this file (f.tool / f.action calls and agent registrations). */
  registrations: Registration[];
  turnSites: TurnSite[];
  /** Keys of scripted understand replies that name the eval's flows and fields. */
  scriptKeys: ScriptKeyRef[];
  /** Other duration strings worth checking, e.g. `clock.advance("24h")` on a fakeClock. */
  durations: DurationValue[];
}
