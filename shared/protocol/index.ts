// The one protocol module: every contract that crosses a process boundary, imported as
// `@agent-lens/protocol` (a path alias in tsconfig.json, which esbuild and tsx follow too).
//   lsp.ts       client ↔ language server: our typed requests and notifications, initialization options
//   commands.ts  server → client: the commands lenses carry and their arguments
//   harness.ts   harness child → parent → callers: the event stream of a run, RuntimeMode
//   panel.ts     extension host ↔ results panel webview: messages and the view model
//   analysis.ts, reports.ts  data owned by the analysis / the runtime that travels inside the above
//   coverage.ts  agent coverage across runs (agent-lens run --coverage, the editor's coverage view)
//   repeats.ts   what N runs of a test add up to (agent-lens run --repeat)
export * from "./lsp";
export * from "./commands";
export type * from "./harness";
export type * from "./panel";
export type * from "./analysis";
export type * from "./reports";
export type * from "./coverage";
export type * from "./repeats";
