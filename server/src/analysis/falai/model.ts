// What the falai extractor reads out of a file, in @falai/agent's v4 shapes: field sets, flows with
// their triggers, steps and jumps, agents with the flows and registries (tools, actions, events,
// conditions) they carry, and the places that run turns. Pure data plus the compiler nodes the extractor
// needs to look entities up again (never handed out of this folder).
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
  /** The allowed values, when `enum` is a literal list. */
  enumValues?: string[];
  /** `extract: "anywhere" | "asked"` as written. */
  extract?: string;
}

export interface FieldSetModel {
  symbolId: string;
  /** The const the builder is assigned to, or "fields". */
  name: string;
  file: string;
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

/** A JSON predicate (`ConditionSpec`) as far as it names things: fields read by the built-ins `equals`
 *  and `known`, and keys naming the agent's conditions. A function predicate names nothing. */
export interface PredModel {
  fields: Str[];
  conditions: Str[];
}

/** Where a step sends the run (`Next`): a step id, "end", `{ step, clear }`, or `{ flow, input }`. */
export type NextModel =
  | { kind: "step"; step: Str; clear: Str[] }
  | { kind: "end"; str: Str; clear: Str[] }
  /** `{ flow }`: `flow` is absent when it is a template or an expression (any flow may start). */
  | { kind: "flow"; flow?: Str }
  /** An expression we cannot read: the run may go anywhere. */
  | { kind: "dynamic" };

export type TriggerKind = "message" | "mention" | "silence" | "event" | "other";

export interface TriggerModel {
  kind: TriggerKind;
  range: SourceRange;
  /** message / mention phrases; an empty, static message list is a catch-all. */
  phrases: string[];
  phrasesStatic: boolean;
  catchAll: boolean;
  /** The trigger's key (`message`, ...), where catch-all-conflict points. */
  keyRange?: SourceRange;
  silence?: DurationValue;
  /** The event an event trigger waits for. */
  event?: Str;
  after?: DurationValue;
  /** "once" | "always" | "cooldown", when written literally. */
  repeat?: string;
  cooldown?: DurationValue;
  /** The trigger has an `if` (a function or a JSON predicate). */
  hasIf: boolean;
  if?: PredModel;
  /** Names of a mention's `extract` parameters (run input, not fields). */
  extractKeys: string[];
}

export interface BranchModel {
  range: SourceRange;
  when?: string;
  hasWhen: boolean;
  hasIf: boolean;
  if?: PredModel;
  then?: NextModel;
}

/** Told apart by which property is present: prompt / collect (talk), say, do, wait (a duration or
 *  `{ event, upTo }`), if. */
export type StepKind = "talk" | "say" | "do" | "wait" | "wait-event" | "if" | "unknown";

export interface StepModel {
  symbolId: string;
  index: number;
  id?: Str;
  range: SourceRange;
  kind: StepKind;
  prompt?: string;
  say?: string;
  collect: Str[];
  /** Keys of a talk step's `ask` (fields). */
  askKeys: Str[];
  /** A `collect` or `ask` is written (read or not: `collect` and `askKeys` hold what could be read). */
  asksFields: boolean;
  tools: Str[];
  /** The action a do step runs. */
  do?: Str;
  wait?: DurationValue;
  waitEvent?: Str;
  upTo?: DurationValue;
  if?: PredModel;
  then?: NextModel;
  else?: NextModel;
  onFail?: NextModel;
  branches: BranchModel[];
  /** False when `branches` holds something we cannot read. */
  branchesStatic: boolean;
  /** Predicates of the step's instructions. */
  instructionPreds: PredModel[];
  /** False when the step object has parts we cannot read (an unresolved spread, a computed key). */
  complete: boolean;
}

export interface FlowModel {
  symbolId: string;
  file: string;
  id?: Str;
  name?: string;
  range: SourceRange;
  builder: BuilderRef;
  /** Written as `f.fromSpec({...})`: a stored JSON flow. */
  fromSpec: boolean;
  onPresent: boolean;
  triggers: TriggerModel[];
  /** False when `on` (or one trigger) is an expression we cannot read. */
  triggersStatic: boolean;
  while?: PredModel;
  clearOnStart: Str[];
  onEnd?: string;
  tools: Str[];
  instructionPreds: PredModel[];
  steps: StepModel[];
  stepsStatic: boolean;
  /** False when the flow object has parts we cannot read (a spread of another flow, a computed key). */
  complete: boolean;
  /** Not inside any function: a module-level definition. */
  topLevel: boolean;
  /** Something may start this flow by hand (`turn({ start })` or `then: { flow }`), or that cannot be
   *  ruled out (the flow or its agent is used where this file cannot see). Only computed for flows
   *  with no triggers. */
  startable: boolean;
  node: ts.CallExpression;
}

export type RegistrationKind = "tool" | "action" | "event" | "condition";

export interface Registration {
  kind: RegistrationKind;
  name: string;
  symbolId: string;
  file: string;
  nameRange: SourceRange;
  range: SourceRange;
  description?: string;
  /** Declared as a shorthand property (`{ notify }`): a rename must keep the value's name. */
  shorthand?: boolean;
  /** The agent whose options declare it. */
  ownerId?: string;
}

/** The names an agent registers of one kind. `complete` is false when some cannot be read. */
export interface Registry {
  entries: Registration[];
  complete: boolean;
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
  tools: Registry;
  actions: Registry;
  events: Registry;
  conditions: Registry;
  /** `idle.tools`: tool ids the idle speaker may call. */
  idleTools: Str[];
  /** Predicates of the agent's and the idle speaker's `instructions`. */
  instructionPreds: PredModel[];
  hasClock: boolean;
  persona?: string;
  goal?: string;
  node: ts.CallExpression;
}

/** `agent.turn(...)` / `agent.turnStream(...)`: an eval site. */
export interface TurnSite {
  method: "turn" | "turnStream";
  range: SourceRange;
  /** 1-based line of the call. */
  line: number;
  agent?: AgentModel;
  /** `start: { flow }` as a literal. */
  startFlow?: Str;
  /** `event` as a literal. */
  event?: Str;
  /** The input could start a flow we cannot name (not a readable object, or `start.flow` computed). */
  startsUnknown: boolean;
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
  /** Registrations declared in this file (agents' tools, actions, events, conditions). */
  registrations: Registration[];
  turnSites: TurnSite[];
  /** Keys of scripted understand replies that name the eval's flows and fields. */
  scriptKeys: ScriptKeyRef[];
  /** Other duration strings worth checking, e.g. `clock.advance("24h")` on a fakeClock. */
  durations: DurationValue[];
  /** Some symbol id of this file carries an offset (`@123`, a duplicate name): ids move with the text. */
  positionalIds: boolean;
}
