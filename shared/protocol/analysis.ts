// The analysis' data that reaches clients: ranges, findings with their fixes, diagrams, run targets of
// lenses, statically found tests, eval call sites. Defined here, at the ground floor: the analysis
// (server/src/analysis) fills them in and re-exports them from its api.ts / types.ts, the language server,
// the CLI and the VS Code client read them.
import type { FindingCode, Severity } from "./codes";

/** A span of source text. Offsets are UTF-16 code units; lines and columns are 0-based (LSP-style). */
export interface SourceRange {
  start: number;
  end: number;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A text edit in one file; the file is absolute. */
export interface TextEdit {
  file: string;
  range: SourceRange;
  newText: string;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** The fix a user most likely wants (editors apply it with the "preferred fix" shortcut). */
  preferred?: boolean;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  /** Absolute path of the file the finding is in. */
  file: string;
  range: SourceRange;
  fixes?: QuickFix[];
}

/** Where a code lens runs: the client turns it into a harness run. */
export interface LensTarget {
  kind: "run-seam" | "run-turns" | "explore-paths";
  /** The file to run: the eval file holding the call, or the agent file for a keyless run. */
  file: string;
  /** 1-based line of the user's own call (runSeam / agent.turn / test block) when the lens sits on one. */
  line?: number;
  /** The machine (by export name from `file`) for keyless seam runs and explore paths. */
  machineExport?: string;
  /** The machine's symbol id (for the diagram). */
  machineId?: string;
  /** The request the seam is on. */
  request?: string;
  /** The flow id for "Run turns" on a flow. */
  flowId?: string;
  /** A request several machines invoke: the machines its seam can run under (the lens asks which; the
   *  target's own machine fields are the first's). `line`: 1-based, of the machine. */
  choices?: Array<{ name: string; machineExport: string; machineId: string; file: string; line: number }>;
}

/** A test the Test Explorer can show before anything runs. */
export interface StaticTest {
  /** "file" for a plain script (the whole file is one test); "test" for a node:test test/it; "suite" for describe. */
  kind: "file" | "suite" | "test";
  name: string;
  file: string;
  range: SourceRange;
  children?: StaticTest[];
}

/** A diagram of a machine or a flow: nodes and edges with the source ranges to reveal on click. */
export interface AgentGraph {
  kind: "machine" | "flow";
  id: string; // the machine or flow symbol id
  name: string;
  /** The machine's / flow's own definition (the `createMachine(...)` / `f.flow(...)` call). */
  range?: SourceRange;
  nodes: Array<{ id: string; path: string; label: string; type?: "atomic" | "compound" | "parallel" | "final" | "history" | "step"; parent?: string; initial?: boolean; range: SourceRange; file: string }>;
  /** `range` / `file`: where the transition (or the flow step's jump) is written. `exit` (flows): which way
   *  out of the step the edge is — "then" (also the fall-through), "else", "onFail", "branch:<index>". */
  edges: Array<{ source: string; target: string; label: string; range?: SourceRange; file?: string; exit?: string }>;
}

/** A call of an eval file that runs something: a runSeam / explorePaths call (its machine), a turn call (its flows). */
export interface EvalSite {
  kind: "run-seam" | "run-turns" | "explore-paths";
  /** 1-based line of the call (as LensTarget.line and harness call sites). */
  line: number;
  machineId?: string;
  request?: string;
  /** Symbol ids of the flows the call's agent includes (turn calls whose agent is known statically). */
  flows?: string[];
}
