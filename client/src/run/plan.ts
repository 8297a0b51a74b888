// What clicking a lens runs. Pure: a LensTarget (from the server) plus what the workspace holds becomes a
// RunPlan the runner executes through the harness. Unit-tested without VS Code.
import type { LensTarget, SourceLocation } from "@agent-lens/protocol";

/** A lens's target as the client passes it on: plus where the lens sits (1-based), when it came from one. */
export type RunTarget = LensTarget & { anchor?: SourceLocation };

export type RunPlan =
  /** Run an eval file; when `focus` is set, the panel shows the results that came from that call. */
  | { kind: "file"; title: string; file: string; focus?: { file: string; line: number }; target: LensTarget }
  /** Run a program we generate (keyless seam run, explore paths); `source` imports the agent file.
   *  `label` names it wherever the panel would otherwise show the generated file. */
  | { kind: "generated"; title: string; source: string; entryName: string; agentFile: string; label: string; target: LensTarget }
  /** Run several eval files one after another (Run turns on a flow: the evals that use it). */
  | { kind: "files"; title: string; files: string[]; target: LensTarget }
  /** Nothing to run; say why. */
  | { kind: "none"; title: string; reason: string; target: LensTarget };

export interface PlanContext {
  /** Is `file` an eval file (matches the test globs / the server's eval-file list)? */
  isEvalFile(file: string): boolean;
  /** Eval files whose turn calls run the flow (the catalog's answer: the analysis followed their agents). */
  evalFilesUsingFlow(flowId: string, flowFile: string): string[];
  /** The user's own runSeam call that puts this machine's request under the seam, if an eval has one. */
  evalCallFor?(target: LensTarget): { file: string; line: number } | undefined;
}

/** The helpers of @statelyai/agent/testing a keyless run uses: schema-shaped scripts and example values. */
export const KEYLESS_HELPER = "keylessScripts";
const EXAMPLE_HELPER = "exampleOf";

export function planRun(target: LensTarget, ctx: PlanContext): RunPlan {
  const file = target.file;
  switch (target.kind) {
    case "run-seam": {
      const title = `Run seam · ${target.request ?? target.machineExport ?? basename(file)}`;
      if (ctx.isEvalFile(file) || (target.line !== undefined && !target.machineExport)) {
        return { kind: "file", title, file, focus: target.line !== undefined ? { file, line: target.line } : undefined, target };
      }
      // The machine already has an eval for this seam: run the user's own call rather than a keyless one.
      const call = ctx.evalCallFor?.(target);
      if (call) return { kind: "file", title, file: call.file, focus: call, target };
      if (!target.machineExport) return { kind: "none", title, reason: "This machine is not exported, so a seam run cannot import it. Export it (export const machine = …) and run again.", target };
      if (!target.request) return { kind: "none", title, reason: "No request to put under the seam.", target };
      return { kind: "generated", title, source: keylessSeamEntry(file, target.machineExport, target.request), entryName: `seam-${safe(target.machineExport)}-${safe(target.request)}.ts`, agentFile: file, label: `keyless seam run of ${target.request}`, target };
    }
    case "explore-paths": {
      const title = `Explore paths · ${target.machineExport ?? basename(file)}`;
      if (target.line !== undefined) return { kind: "file", title, file, focus: { file, line: target.line }, target };
      if (!target.machineExport) return { kind: "none", title, reason: "This machine is not exported, so explorePaths cannot import it. Export it and run again.", target };
      return { kind: "generated", title, source: explorePathsEntry(file, target.machineExport), entryName: `explore-${safe(target.machineExport)}.ts`, agentFile: file, label: `explore paths of ${target.machineExport}`, target };
    }
    case "run-turns": {
      const title = `Run turns · ${target.flowId ?? basename(file)}`;
      // A lens on the user's own call (it has a line) sits in the file to run.
      if (ctx.isEvalFile(file) || target.line !== undefined) return { kind: "file", title, file, focus: target.line !== undefined ? { file, line: target.line } : undefined, target };
      if (target.flowId) {
        const files = ctx.evalFilesUsingFlow(target.flowId, file);
        if (files.length === 1) return { kind: "file", title, file: files[0], target };
        if (files.length > 1) return { kind: "files", title, files, target };
        return { kind: "none", title, reason: `No eval file runs the flow "${target.flowId}" yet, so there is nothing to run. An eval builds the agent, scripts what the model answers and drives turns on a fake clock; once one runs this flow, "Run turns" here runs it.`, target };
      }
      return { kind: "file", title, file, target };
    }
  }
}

/** A keyless seam run: every request answered with a schema-shaped example, the seam on `request`. */
export function keylessSeamEntry(agentFile: string, machineExport: string, request: string): string {
  return [
    `// Generated by Agent Lens: a keyless seam run of "${request}". Scripted answers come from the requests' output schemas.`,
    `import { runSeam, ${KEYLESS_HELPER}, ${EXAMPLE_HELPER} } from "@statelyai/agent/testing";`,
    `import { ${machineExport} as machine } from ${JSON.stringify(agentFile)};`,
    ``,
    `const inputSchema = (machine as { schemas?: { input?: unknown } }).schemas?.input;`,
    `const input = inputSchema ? ${EXAMPLE_HELPER}(inputSchema) : {};`,
    `await runSeam(machine, { input, scripts: ${KEYLESS_HELPER}(machine), seam: { request: ${JSON.stringify(request)} }, repeatLast: true });`,
    ``,
  ].join("\n");
}

export function explorePathsEntry(agentFile: string, machineExport: string): string {
  return [
    `// Generated by Agent Lens: explorePaths over the machine's transitions.`,
    `import { explorePaths, ${EXAMPLE_HELPER} } from "@statelyai/agent/testing";`,
    `import { ${machineExport} as machine } from ${JSON.stringify(agentFile)};`,
    ``,
    `const inputSchema = (machine as { schemas?: { input?: unknown } }).schemas?.input;`,
    `explorePaths(machine, inputSchema ? { input: ${EXAMPLE_HELPER}(inputSchema) } : {});`,
    ``,
  ].join("\n");
}

/** What a run is about, for its own verdict beside the file's ("seam ✓ · file ✗"). */
export function subjectOf(target: LensTarget): string {
  return target.kind === "run-seam" ? "seam" : target.kind === "explore-paths" ? "explore paths" : target.line !== undefined ? "turns" : "flow";
}

/** A stable key for "this lens is running" (lens titles change while it runs; a second click cancels). */
export function targetKey(target: LensTarget): string {
  return [target.kind, target.file, target.line ?? "", target.machineExport ?? "", target.request ?? "", target.flowId ?? ""].join("|");
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, "_");
}

function basename(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** How many leading folders two files share (more = closer): picks the eval nearest a machine. */
export function closeness(a: string, b: string): number {
  const x = a.split(/[\\/]/).slice(0, -1);
  const y = b.split(/[\\/]/).slice(0, -1);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}
