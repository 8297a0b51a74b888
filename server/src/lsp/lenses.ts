// Code lenses: the analysis' run lenses ("Run seam", "Run turns", "Explore paths"), each carrying its
// LensTarget to `agentLens.runLens` (none where the analysis refused one: a run that could only fail); and, for clients that draw diagrams (InitializationOptions
// .clientCommands holds `agentLens.showDiagram`), a "Show diagram" lens beside each machine's Explore paths
// lens and each flow's own Run turns lens; for clients that record (clientCommands holds
// `agentLens.recordLens`), a "Record" lens beside each run lens of an eval file. The server runs none of
// these commands: the client does.
import type { CodeLens } from "vscode-languageserver/node";
import { RecordLensCommand, RunLensCommand, ShowDiagramCommand, type DiagramTarget, type RecordLensArgs, type RunLensArgs, type ShowDiagramArgs } from "@agent-lens/protocol";
import { evalFileMatcher } from "@agent-lens/files/eval-files";
import { lensesOf } from "../analysis/features/index";
import type { LensAnchor } from "../analysis/api";
import { toRange } from "./convert";
import { guarded } from "./guard";
import type { ServerParts } from "./parts";

/** The diagram a run lens stands beside: a machine (its Explore paths lens), a flow (its own Run turns lens). */
function diagramTargetOf(anchor: LensAnchor): DiagramTarget | undefined {
  const t = anchor.target;
  if (t.line !== undefined) return undefined; // a call site in an eval file, not a definition
  const at = { file: anchor.file, line: anchor.range.startLine };
  if (t.kind === "explore-paths" && t.machineId) return { kind: "machine", ...at, machineId: t.machineId };
  if (t.kind === "run-turns" && t.flowId) return { kind: "flow", ...at, flowId: t.flowId };
  return undefined;
}

export function registerLenses(parts: ServerParts): void {
  parts.connection.onCodeLens(
    guarded(parts.logError, "codeLens", () => [] as CodeLens[], (params) => {
      const c = parts.docs.contextFor(params?.textDocument?.uri);
      if (!c) return [];
      const diagrams = parts.clientCommands.has(ShowDiagramCommand);
      // Record runs an eval file's test (the Testing view's item): only in files agentLens.testGlobs names.
      const records = parts.clientCommands.has(RecordLensCommand) && evalFileMatcher(c.folder.settings.testGlobs, c.folder.root ? [c.folder.root] : [])(c.file);
      return lensesOf(c.analysis).flatMap((lens): CodeLens[] => {
        const range = toRange(lens.range);
        // A refused anchor's run could only fail: no lens (its hover says why); a diagram still draws.
        const run: CodeLens[] = lens.refused ? [] : [{ range, command: { title: lens.title, command: RunLensCommand, arguments: [lens.target] satisfies RunLensArgs } }];
        // A run lens on a call (target.line) records the test around that call.
        if (records && run.length && lens.target.line !== undefined) {
          run.push({ range, command: { title: "Record", command: RecordLensCommand, arguments: [lens.target] satisfies RecordLensArgs, tooltip: "Run this test with every model call live and write its recording (asks first, naming the models)" } });
        }
        const diagram = diagrams ? diagramTargetOf(lens) : undefined;
        if (!diagram) return run;
        return [...run, { range, command: { title: "Show diagram", command: ShowDiagramCommand, arguments: [diagram] satisfies ShowDiagramArgs, tooltip: "Draw this machine / flow in the results panel (runs nothing)" } }];
      });
    }),
  );
}
