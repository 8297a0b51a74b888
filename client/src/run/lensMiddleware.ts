// The server's run lenses, as the user sees them: a lens whose run is going says so (and a click cancels
// it), and in an untrusted workspace every run lens says it needs trust. Each run target also learns where
// its lens sits (so a generated program's locations map back there), and every machine and flow gets a
// "Show diagram" lens beside its own (it runs nothing, so it needs no trust). Done as language-client
// middleware, so the server stays unaware of runs and trust.
import * as vscode from "vscode";
import type { BaseLanguageClient, Middleware } from "vscode-languageclient";
import { CodeLensRequest } from "vscode-languageclient";
import type { LensTarget } from "../../../server/src/analysis/api";
import { RunLensCommand } from "../../../server/src/lsp/protocol";
import { SHOW_DIAGRAM_COMMAND, diagramTargetOf } from "./diagramTarget";
import { lensTitle } from "./lensTitles";
import type { RunTarget } from "./plan";

export interface LensState {
  isRunning(target: LensTarget): boolean;
  readonly onDidChangeRunning: vscode.Event<void>;
}

export function installLensMiddleware(client: BaseLanguageClient, state: LensState): vscode.Disposable {
  // clientOptions.middleware is the object the client consults on every request, so adding to it after
  // construction takes effect from the next lens request on.
  const middleware = (client.clientOptions.middleware ??= {}) as Middleware;
  const previousProvide = middleware.provideCodeLenses;
  const previousResolve = middleware.resolveCodeLens;
  const decorate = (lens: vscode.CodeLens, document?: vscode.TextDocument): vscode.CodeLens => {
    const command = lens.command;
    if (!command || command.command !== RunLensCommand) return lens;
    const given = command.arguments?.[0] as RunTarget | undefined;
    const target: RunTarget | undefined = given && document && !given.anchor
      ? { ...given, anchor: { file: document.uri.fsPath, line: lens.range.start.line + 1, column: lens.range.start.character + 1 } }
      : given;
    const base = (command as { __agentLensTitle?: string }).__agentLensTitle ?? command.title;
    const title = lensTitle(base, { running: !!target && state.isRunning(target), trusted: vscode.workspace.isTrusted });
    lens.command = Object.assign({ ...command, title, arguments: target ? [target, ...(command.arguments?.slice(1) ?? [])] : command.arguments }, { __agentLensTitle: base });
    return lens;
  };
  middleware.provideCodeLenses = async (document, token, next) => {
    const lenses = previousProvide ? await previousProvide(document, token, next) : await next(document, token);
    return lenses?.flatMap((lens) => {
      const decorated = decorate(lens, document);
      const diagram = diagramTargetOf(lens.command?.arguments?.[0] as LensTarget | undefined, lens.command?.command === RunLensCommand, document.uri.fsPath, lens.range.start.line);
      return diagram ? [decorated, new vscode.CodeLens(lens.range, { title: "Show diagram", command: SHOW_DIAGRAM_COMMAND, arguments: [diagram], tooltip: "Draw this machine / flow in the results panel (runs nothing)" })] : [decorated];
    });
  };
  middleware.resolveCodeLens = async (lens, token, next) => {
    const resolved = previousResolve ? await previousResolve(lens, token, next) : await next(lens, token);
    return resolved ? decorate(resolved) : resolved;
  };

  const refresh = () => refreshLenses(client);
  const subscriptions = [state.onDidChangeRunning(refresh), vscode.workspace.onDidGrantWorkspaceTrust(refresh)];
  return vscode.Disposable.from(...subscriptions, {
    dispose: () => {
      middleware.provideCodeLenses = previousProvide;
      middleware.resolveCodeLens = previousResolve;
    },
  });
}

/** Asks VS Code to re-request the lenses of every visible document. */
export function refreshLenses(client: BaseLanguageClient): void {
  try {
    const feature = client.getFeature(CodeLensRequest.method);
    for (const editor of vscode.window.visibleTextEditors) feature.getProvider(editor.document)?.onDidChangeCodeLensEmitter.fire();
  } catch {
    // the client is not started (or the server has no lens support): nothing to refresh
  }
}
