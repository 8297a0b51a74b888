// The command palette's way in: pick a machine and request, a flow or an eval, a machine to explore.
import * as vscode from "vscode";
import type { LensTarget } from "@agent-lens/protocol";
import type { ServerQueries } from "./server-queries";
import { toPath } from "./run/uris";
import type { RunController } from "./run/run-controller";

interface TargetPick extends vscode.QuickPickItem {
  target: LensTarget;
}

export async function pickSeam(server: ServerQueries, runs: RunController): Promise<void> {
  const { machines } = await server.catalog();
  // Only what a seam run can address (the machine's own "Run seam" lenses): never an entry that always fails.
  const items: TargetPick[] = machines.flatMap((m) => (m.seams ?? []).map((request) => ({
    label: `$(symbol-event) ${request}`,
    description: `${m.exportName ?? m.name} · ${vscode.workspace.asRelativePath(vscode.Uri.parse(m.uri), false)}:${m.line + 1}`,
    target: { kind: "run-seam" as const, file: toPath(m.uri), machineExport: m.exportName, machineId: m.id, request },
  })));
  await pickAndRun(items, "Run seam: pick a request (the seam) — other requests get schema-shaped answers", "No machines with requests found in this workspace.", runs);
}

export async function pickTurns(server: ServerQueries, runs: RunController): Promise<void> {
  const { flows, evalFiles } = await server.catalog();
  const items: TargetPick[] = [
    ...flows.map((f) => ({
      label: `$(comment-discussion) ${f.name}`,
      description: `flow · ${vscode.workspace.asRelativePath(vscode.Uri.parse(f.uri), false)}:${f.line + 1}`,
      target: { kind: "run-turns" as const, file: toPath(f.uri), flowId: f.name },
    })),
    ...evalFiles.map((e) => ({
      label: `$(beaker) ${vscode.workspace.asRelativePath(vscode.Uri.parse(e.uri), false)}`,
      description: "eval file",
      target: { kind: "run-turns" as const, file: toPath(e.uri) },
    })),
  ];
  await pickAndRun(items, "Run turns: pick a flow or an eval file", "No flows or eval files found in this workspace.", runs);
}

export async function pickExplore(server: ServerQueries, runs: RunController): Promise<void> {
  const { machines } = await server.catalog();
  const items: TargetPick[] = machines.map((m) => ({
    label: `$(type-hierarchy) ${m.exportName ?? m.name}`,
    description: `${vscode.workspace.asRelativePath(vscode.Uri.parse(m.uri), false)}:${m.line + 1}`,
    target: { kind: "explore-paths" as const, file: toPath(m.uri), machineExport: m.exportName, machineId: m.id },
  }));
  await pickAndRun(items, "Explore paths: pick a machine", "No machines found in this workspace.", runs);
}

async function pickAndRun(items: TargetPick[], placeHolder: string, none: string, runs: RunController): Promise<void> {
  if (!items.length) {
    void vscode.window.showInformationMessage(`Agent Lens: ${none}`);
    return;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  if (picked) await runs.runLens(picked.target);
}
