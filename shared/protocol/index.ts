// The one protocol module: every contract that crosses a process boundary, imported as
// `@agent-lens/protocol` (a path alias in tsconfig.json, which esbuild and tsx follow too).
//   lsp.ts       client ↔ language server: our typed requests and notifications, initialization options
//   commands.ts  server → client: the commands lenses carry and their arguments
//   harness.ts   harness child → parent → callers: the event stream of a run, RuntimeMode
//   panel.ts     extension host ↔ results panel webview: messages and the view model
//   analysis.ts  the analysis' data that travels inside the above: findings, ranges, diagrams, lens targets
//   codes.ts     the finding codes, their default severities, severity overrides
//   reports.ts   what the runtime reports about each result of a user's test (inside `result` events)
//   limits.ts    the limits a run takes (time, heap, memory) and their rules
//   coverage.ts  agent coverage across runs (agent-lens run --coverage, the editor's coverage view)
//   repeats.ts   what N runs of a test add up to (agent-lens run --repeat)
// A part that needs one file only imports it by itself (`@agent-lens/protocol/codes`): this index loads
// vscode-languageserver-protocol (lsp.ts), which the analysis and the harness have no use for.
export * from "./lsp";
export * from "./commands";
export * from "./codes";
export * from "./limits";
export * from "./harness";
export type * from "./panel";
export type * from "./analysis";
export type * from "./reports";
export type * from "./coverage";
export type * from "./repeats";
