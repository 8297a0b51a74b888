// The statically known shape of @statelyai/agent and xstate definitions in a file: agents
// (setupAgent configs), machines with their state trees, transitions and invokes, and eval call sites.
// Every node keeps the file it was read from (a definition may be spread over imported consts).
import type { ts } from "ts-morph";
import type { Parsed } from "../resolve/declarations";
import type { At, Text } from "../resolve/values";

export type { At, Text };

export interface AgentDef extends At {
  symbolId: string;
  name: string;
  requests: Map<string, RequestDef>;
  /** False when `requests` could not be read completely (an unresolved spread, a computed value). */
  requestsComplete: boolean;
  models: Map<string, ModelDef>;
  actors: Map<string, ActorDef & { symbolId: string }>;
  actorsComplete: boolean;
  /** Event types declared by `events` (or a `schemas` pack's `events`); undefined when they cannot be read. */
  events?: Set<string>;
}

export interface RequestDef extends At {
  symbolId: string;
  name: string;
  /** The key (or `name` string) that names it. */
  nameNode: ts.Node;
  kind: "text" | "decision";
  model?: Text;
  inputSchema?: string;
  outputSchema?: string;
  prompt?: string;
  system?: string;
  /** Declared inline in a machine (createTextLogic / createDecisionLogic / agent.decide with a name). */
  inline?: boolean;
  /** The config may name a model this analysis cannot read (not an object literal it reads, a `model`
   *  that is no string it reads, or a spread that may carry one): its model keys cannot all be known. */
  modelOpen?: boolean;
}

/** What an actor source registered in a setup is, as far as request names go: request logic
 *  (createTextLogic / createDecisionLogic) with the name and model it carries (`open`: it may carry ones
 *  this analysis cannot read), other actor logic, or something it cannot tell. */
export type ActorLogic = { kind: "request"; logic: "text" | "decision"; name?: string; model?: string; open: boolean } | { kind: "other" } | { kind: "unknown" };

/** An actor source registered in a setup, by its key. */
export interface ActorDef extends Text {
  logic: ActorLogic;
}

export interface ModelDef extends At {
  symbolId: string;
  name: string;
}

export type MachineKind = "agent" | "setup" | "plain";

export interface MachineDef extends At {
  symbolId: string;
  name: string;
  kind: MachineKind;
  exportName?: string;
  agent?: AgentDef;
  /** `setup({ actors })` keys for xstate machines. */
  setupActors?: Map<string, ActorDef>;
  setupActorsComplete?: boolean;
  /** The `createMachine` callee, where lenses go. */
  calleeNode: ts.Node;
  configId?: string;
  root: StateDef;
  states: StateDef[];
  /** `#id` lookup: explicit ids and default ids (`machineId.a.b`). */
  idMap: Map<string, StateDef>;
  /** Some state id is not a literal: `#id` targets cannot be judged. */
  idsComplete: boolean;
  invokes: InvokeDef[];
  /** Inline named requests (createTextLogic / agent.decide with `name`). */
  inlineRequests: Map<string, RequestDef>;
  /** Memo: the states entered from the initial state (null when it cannot be judged). */
  reachable?: Set<StateDef> | null;
  /** Reachability was not judged because a guess it needed was cut (util/name-index.ts). */
  guessesCut?: boolean;
  /** The first state whose children were not read because it is nested too deep (analysis-skipped). */
  nestingSkipped?: StateDef;
}

export type StateType = "atomic" | "compound" | "parallel" | "final" | "history";

export interface StateDef extends At {
  symbolId: string;
  key: string;
  /** Keys from the root (the root's path is empty). */
  path: string[];
  parent?: StateDef;
  machine: MachineDef;
  keyNode?: ts.Node;
  type: StateType;
  id?: Text;
  initial?: Text;
  /** `initial` is present but not a literal. */
  initialDynamic: boolean;
  children: Map<string, StateDef>;
  /** False when the state's config (or its `states`) had parts that could not be read. */
  childrenComplete: boolean;
  configComplete: boolean;
  /** Event keys handled in `on` (to judge whether decisions can be delivered). */
  handledEvents: string[];
  transitions: TransitionDef[];
  invokes: InvokeDef[];
}

export interface TransitionDef extends At {
  source: StateDef;
  /** The event as a label: "SUBMIT", "always", "after 1000", "done", "error", ... */
  event: string;
  targets: TargetDef[];
  /** Some target is computed at run time. */
  dynamic: boolean;
}

export interface TargetDef extends Text {
  status: "ok" | "unknown" | "open";
  state?: StateDef;
}

export type SrcDef =
  | ({ kind: "string" } & Text)
  | ({ kind: "request"; logic: "text" | "decision"; via: string; name?: Text; arg?: ts.ObjectLiteralExpression; argAt?: Parsed; model?: Text; modelOpen?: boolean; request?: RequestDef } & At)
  | ({ kind: "object"; what: string } & At)
  | { kind: "none" }
  | { kind: "unknown" };

export interface InvokeDef extends At {
  state: StateDef;
  id?: Text;
  /** An `id` key is written, literal or computed: the id then names an unnamed inline request. */
  hasId: boolean;
  src: SrcDef;
  hasOnError: boolean;
  hasOnDone: boolean;
}

export type EvalApi = "runSeam" | "runAgent" | "simulateAgent" | "explorePaths" | "canReach" | "matchesTrajectory" | "executeAgentRequest";

export interface EvalCall extends At {
  api: EvalApi;
  machine?: MachineDef;
  scripts: Text[];
  scriptsComplete: boolean;
  seamRequest?: Text;
  /** State names: canReach's target, and the expected items of a trajectory over a state path. */
  stateRefs: Text[];
  /** Expected state values written as objects (`{ review: "editing" }`), one key path per leaf. */
  stateValueRefs: Text[][];
  /** Expected event types of a trajectory over an event log (`"SEND"`, `{ type: "SEND", ... }`). */
  eventRefs: Text[];
  /** matchesTrajectory's expected list (or canReach's target) when it is an empty array literal. */
  emptyTrajectory?: At;
  /** runAgent / runSeam `executors`: the functions given for each request kind (their first parameter
   *  is the request, so `request.name` names this machine's requests). */
  executorFns: Array<{ at: Parsed; node: ts.SignatureDeclaration }>;
  /** `createScriptedExecutors(...)` calls given as `executors` (their `.calls` carry request names). */
  scriptedExecutors: ts.Node[];
  /** Keys naming requests outside `scripts`: `createScriptedExecutors({ text, decisions })` and
   *  simulateAgent's `script: { text, decisions }`. */
  requestKeys: Text[];
  /** The `createScriptedExecutors(...)` calls given as `executors` directly or through a const (not
   *  through a factory), with their request-name keys: judged by `unknown-script-key`. */
  scriptedKeys: ScriptedKeys[];
}

export interface ScriptedKeys {
  at: Parsed;
  call: ts.CallExpression;
  keys: Text[];
}

export interface FileModel {
  agents: AgentDef[];
  machines: MachineDef[];
  evalCalls: EvalCall[];
}
