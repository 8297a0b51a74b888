// The contract between the analysis (server/src/analysis) and its adapters (the LSP layer, the CLI, the
// VS Code client through the LSP). Pure data. The analysis fills these in; adapters only convert them.
//
// Design: the extractors turn a file into an AgentModel (machines, states, transitions, requests; flows,
// steps, fields; eval call sites). From that model the analysis derives, for every file:
//   - symbols: every named thing a user can refer to (a state, a request, a field, a step, a flow, ...)
//   - references: every string in the source that names one of them (a target, a src, a scripts key, ...)
//   - findings (diagnostics), lenses, static tests, graphs
// Language features (definition, references, rename, completion, hover, outline) are computed from
// symbols and references by server/src/analysis/features, so the LSP layer stays a thin adapter.
import type { AgentGraph, LensTarget, StaticTest } from "@agent-lens/protocol/analysis";
import type { SeverityOverrides } from "@agent-lens/protocol/codes";
import type { Finding, SourceRange } from "./types";

export type { AgentGraph, LensTarget, SeverityOverrides, StaticTest };

export type SymbolKind =
  | "machine" // an X.createMachine({...}) / createMachine({...}) value
  | "state"
  | "request" // a setupAgent requests key, a named createTextLogic / createDecisionLogic / agent.decide
  | "model" // a model key used by requests (scripts may route by it)
  | "actor" // a setupAgent actors key
  | "agent" // a setupAgent({...}) config, or an f.agent({...})
  | "fieldSet" // a falai().fields({...}) builder
  | "field"
  | "flow"
  | "step"
  | "tool"
  | "action"
  | "event" // a key of an f.agent's `events`
  | "condition"; // a key of an f.agent's `conditions`

export interface AgentSymbol {
  /** Unique within a workspace: `${file}#${kind}:${qualified path}`, e.g. `/w/a.ts#state:machine.scoring`. */
  id: string;
  kind: SymbolKind;
  /** As written: the state key, the request key, the field name, the step id, the flow id. */
  name: string;
  file: string;
  /** The text a rename replaces: the key (without quotes) or the id string's contents. */
  nameRange: SourceRange;
  /** The whole declaration (the outline's range). */
  range: SourceRange;
  /** The containing symbol: machine for top-level states, parent state for children, flow for steps,
   *  agent for requests, fieldSet for fields. */
  parentId?: string;
  /** One line for the outline and completion lists, e.g. "final", "model: judge", "string". */
  detail?: string;
  /** Markdown for hover: a state's incoming/outgoing transitions and reachability; a request's model,
   *  schemas and prompt; a field's type and ask; a flow's triggers. */
  summary?: string;
  /** For machine symbols: the exported name the machine is reachable by from other files, if any. */
  exportName?: string;
  /** Declared as a shorthand property (`actions: { notify }`): a rename writes `newName: notify`. */
  shorthand?: boolean;
}

export type ReferenceRole =
  | "target" // a transition target (object, array, string or function-return syntax)
  | "initial"
  | "src" // invoke.src naming a request or actor
  | "script-key" // a runSeam / simulateAgent scripts key (request name or model key)
  | "seam-request" // runSeam seam.request
  | "state-ref" // canReach / matchesTrajectory / explorePaths state names
  | "collect" // a collect entry naming a field
  | "field" // any other place a flow names a field: ask keys, clear lists, clearOnStart, equals / known
  | "next" // a step named by then / else / onFail / a branch's then / { step }
  | "flow-ref" // a flow named by then: { flow }, turn({ start: { flow } }) or a scripted understand key
  | "tool"
  | "action"
  | "event" // an event named by a trigger, a wait step or turn({ event })
  | "condition" // a condition named by a JSON predicate
  | "name-use"; // a name code routes or asserts on: an executor's `case "x":` / `request.name === "x"`, an expected list of call names, `flowId: "x"`

export interface AgentReference {
  role: ReferenceRole;
  /** What kind of symbol this reference names. A script key may name a request or a model. */
  kind: SymbolKind;
  file: string;
  /** The text that names the symbol, inside the quotes (what rename replaces and completion fills). */
  range: SourceRange;
  text: string;
  /** The declaration it resolves to; absent when it names nothing (a finding usually says so) or when
   *  it cannot be known statically. */
  targetId?: string;
  /** Candidates for completion here: the symbols of `kind` that are valid at this place
   *  (already resolved relative to the source state, the flow, the machine of the eval). */
  candidates?: CompletionCandidate[];
  /** A string that probably names a symbol but cannot be tied to it with certainty (eval code shared by
   *  several machines, a name in a test the analysis cannot follow to its agent). `ids`: the symbols it
   *  may name; empty when it may name any symbol of `kind` called `text` that the file can see (its own
   *  file or one it imports, directly or not). Rename offers these places for confirmation; definition,
   *  references and checks leave them out. Never set together with `targetId`. */
  uncertain?: { ids: string[]; reason: string };
}

export interface CompletionCandidate {
  /** The text to insert (e.g. ".child", "#id", "scoring"). */
  insertText: string;
  kind: SymbolKind;
  symbolId?: string;
  detail?: string;
}

/** Where a code lens goes and what clicking it runs. The client turns `target` into a harness run. */
export interface LensAnchor {
  kind: "run-seam" | "run-turns" | "explore-paths";
  file: string;
  range: SourceRange;
  title: string; // "Run seam", "Run turns", "Explore paths"
  target: LensTarget;
  /** On a turn call: the symbol ids of the flows its agent includes, when all of them are known statically. */
  flows?: string[];
  /** Set where a lens would go but is not offered, because its run could only fail: why (markdown; the
   *  hover says it). No code lens is drawn for such an anchor, and the catalog does not list it. */
  refused?: string;
}

export interface FileAnalysis {
  file: string;
  /** False when the cheap pre-filter found no mention of either library (nothing else was done). */
  isAgentFile: boolean;
  symbols: AgentSymbol[];
  references: AgentReference[];
  /** After suppression comments and severity settings. */
  findings: Finding[];
  lenses: LensAnchor[];
  tests: StaticTest[];
  graphs: AgentGraph[];
  /** Files whose content this analysis used (imports followed), for dependency tracking. */
  dependencies: string[];
  /** Machines, flows and agents defined in this file (the definition symbols, counted without building
   *  the symbols). */
  definitions: number;
}

export interface WorkspaceOptions {
  /** Workspace folders (absolute). tsconfig.json `paths` are read from each root. */
  roots: string[];
  /** Reads a file from disk when it is not open; defaults to fs. Returns undefined when missing. */
  readFile?: (file: string) => string | undefined;
  severity?: SeverityOverrides;
  /** Globs (relative to a root) of eval/test files whose static tests are listed; default
   *  `**\/*.{test,spec,eval}.{ts,mts,js,mjs}`. Files that call an eval API are eval files as well. */
  testGlobs?: string[];
  /** Files not being edited keep their findings (and counts) only; their symbols, references, lenses,
   *  tests and graphs are rebuilt from a fresh analysis when first read. For readers of findings (`check`,
   *  a cold index). Default false: every part is read when the file is analyzed. */
  outputsOnDemand?: boolean;
}

export interface AnalysisWorkspace {
  /** Set (or replace) a file's text: an open document's contents, or a file read from disk. With
   *  `editing` (an open document being typed in), its syntax tree and analysis are kept between versions
   *  and a small edit (inside one string or one comment) is analyzed incrementally. */
  setFile(file: string, text: string, options?: { editing?: boolean }): void;
  removeFile(file: string): void;
  /** Analyze one file, resolving imports through the workspace. Never throws. */
  analyze(file: string): FileAnalysis;
  /** Files whose analysis may change when `file` changes (they import from it, directly or not). */
  dependentsOf(file: string): string[];
  /** Every reference to a symbol, across the indexed files. */
  referencesTo(symbolId: string): AgentReference[];
  /** Every place that may name the symbol without being tied to it for sure (AgentReference.uncertain),
   *  across the indexed files: those listing its id, and those naming any `kind` called its name in a
   *  file that sees the symbol's file (the file itself, or one importing it directly or not). */
  uncertainReferencesTo(symbol: AgentSymbol): AgentReference[];
  symbol(symbolId: string): AgentSymbol | undefined;
  setSeverity(overrides: SeverityOverrides): void;
}
