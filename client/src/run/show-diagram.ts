// "Show diagram": draws a machine or flow in the results panel, as the language server's analysis has
// it. Nothing of the workspace runs, so it needs no trust. Its lens comes from the server (argument: a
// DiagramTarget); without a target (the command palette) it offers the workspace's machines and flows.
// "Run turns" on a flow no eval file runs yet shows the same page, saying so, with a way to start an eval
// (flow-eval.ts).
import * as vscode from "vscode";
import type { DiagramTarget } from "@agent-lens/protocol";
import type { ServerQueries } from "../server-queries";
import type { ResultsPanel } from "../panel/results-panel";
import { diagramFor } from "../panel/view-model";
import { starterEval } from "./flow-eval";
import type { RunTarget } from "./plan";
import { newRunId } from "./run-ids";
import { toPath } from "./uris";

export async function showDiagram(server: ServerQueries, panel: ResultsPanel, target: DiagramTarget | undefined): Promise<void> {
  const chosen = target ?? (await pickDiagram(server));
  if (!chosen || typeof chosen.file !== "string") return;
  const graph = await server.diagram(chosen);
  if (!graph) {
    panel.showMessage(`No diagram for this ${chosen.kind} yet: the language server has not analysed ${vscode.workspace.asRelativePath(chosen.file, false)} (or it no longer defines it).`);
    return;
  }
  panel.showDiagram({
    runId: newRunId(),
    title: `${graph.kind === "machine" ? "Machine" : "Flow"} · ${graph.name}`,
    file: chosen.file,
    line: chosen.line + 1,
    diagrams: [diagramFor(graph, { seams: [], agentRuns: [], turns: [] })],
  });
}

async function pickDiagram(server: ServerQueries): Promise<DiagramTarget | undefined> {
  const { machines, flows } = await server.catalog();
  const where = (uri: string, line: number) => `${vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false)}:${line + 1}`;
  const items: Array<vscode.QuickPickItem & { target: DiagramTarget }> = [
    ...machines.map((m) => ({
      label: `$(type-hierarchy) ${m.exportName ?? m.name}`,
      description: `machine · ${where(m.uri, m.line)}`,
      target: { kind: "machine" as const, file: toPath(m.uri), line: m.line, machineId: m.id },
    })),
    ...flows.map((f) => ({
      label: `$(comment-discussion) ${f.name}`,
      description: `flow · ${where(f.uri, f.line)}`,
      target: { kind: "flow" as const, file: toPath(f.uri), line: f.line, flowId: f.name },
    })),
  ];
  if (!items.length) {
    void vscode.window.showInformationMessage("Agent Lens: no machines or flows found in this workspace.");
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder: "Show the diagram of a machine or flow", matchOnDescription: true }))?.target;
}

/** The flow's page where a run's result would be: its diagram and source link, why nothing ran, and a
 *  button that starts an eval file for it. */
export async function showFlowWithoutEval(server: ServerQueries, panel: ResultsPanel, target: RunTarget & { flowId: string }, reason: string): Promise<void> {
  const line = target.anchor ? target.anchor.line - 1 : undefined;
  const graph = await server.diagram({ kind: "flow", file: target.file, flowId: target.flowId, line });
  panel.showDiagram({
    runId: newRunId(),
    title: `Run turns · ${target.flowId}`,
    file: target.file,
    line: target.anchor?.line,
    diagrams: graph ? [diagramFor(graph, { seams: [], agentRuns: [], turns: [] })] : [],
    note: reason,
    newEval: { flowId: target.flowId, file: target.file },
  });
}

/** Opens an unsaved eval file for the flow beside it (its suggested name matches the test globs). */
export async function openStarterEval(flowId: string, flowFile: string): Promise<void> {
  const { file, content } = starterEval(flowId, flowFile);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file).with({ scheme: "untitled" }));
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
  if (!doc.getText()) await editor.edit((b) => b.insert(new vscode.Position(0, 0), content));
}
