// Code lenses: the analysis' run lenses ("Run seam", "Run turns", "Explore paths"), each carrying its
// LensTarget to `agentLens.runLens` (none where the analysis refused one: a run that could only fail); and, for clients that draw diagrams (InitializationOptions
// .clientCommands holds `agentLens.showDiagram`), a "Show diagram" lens beside each machine's Explore paths
// lens and each flow's own Run turns lens. The server runs neither command: the client does.
import type { CodeLens } from "vscode-languageserver/node";
import { RunLensCommand, ShowDiagramCommand, type DiagramTarget, type RunLensArgs, type ShowDiagramArgs } from "@agent-lens/protocol";
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
      return lensesOf(c.analysis).flatMap((lens): CodeLens[] => {
        const range = toRange(lens.range);
        // A refused anchor's run could only fail: no lens (its hover says why); a diagram still draws.
        const run: CodeLens[] = lens.refused ? [] : [{ range, command: { title: lens.title, command: RunLensCommand, arguments: [lens.target] satisfies RunLensArgs } }];
        const diagram = diagrams ? diagramTargetOf(lens) : undefined;
        if (!diagram) return run;
        return [...run, { range, command: { title: "Show diagram", command: ShowDiagramCommand, arguments: [diagram] satisfies ShowDiagramArgs, tooltip: "Draw this machine / flow in the results panel (runs nothing)" } }];
      });
    }),
  );
}
