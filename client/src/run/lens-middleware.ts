// The server's run lenses, as the user sees them: a lens whose run is queued or going says so (and a
// click cancels it), and in an untrusted workspace every run lens (and Record) says it needs trust. Each run target
// also learns where its lens sits (so a generated program's locations map back there). Done as
// language-client middleware, so the server stays unaware of runs and trust. ("Show diagram" lenses come
// from the server itself: they run nothing.)
import * as vscode from "vscode";
import type { BaseLanguageClient, Middleware } from "vscode-languageclient";
import { CodeLensRequest } from "vscode-languageclient";
import { RecordLensCommand, RunLensCommand, type LensTarget } from "@agent-lens/protocol";
import { lensTitle } from "./lens-titles";
import type { RunTarget } from "./plan";

export interface LensState {
  stateOf(target: LensTarget): "queued" | "running" | undefined;
  /** The verdict line of the target's last finished run, if it ran in this session. */
  lastVerdictOf(target: LensTarget): string | undefined;
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
    if (command?.command === RecordLensCommand) {
      lens.command = { ...command, title: lensTitle(command.title, { running: false, trusted: vscode.workspace.isTrusted }) };
      return lens;
    }
    if (!command || command.command !== RunLensCommand) return lens;
    const given = command.arguments?.[0] as RunTarget | undefined;
    const target: RunTarget | undefined = given && document && !given.anchor
      ? { ...given, anchor: { file: document.uri.fsPath, line: lens.range.start.line + 1, column: lens.range.start.character + 1 } }
      : given;
    const base = (command as { __agentLensTitle?: string }).__agentLensTitle ?? command.title;
    const run = target ? state.stateOf(target) : undefined;
    const title = lensTitle(base, { running: run === "running", queued: run === "queued", trusted: vscode.workspace.isTrusted, last: target ? state.lastVerdictOf(target) : undefined });
    lens.command = Object.assign({ ...command, title, arguments: target ? [target, ...(command.arguments?.slice(1) ?? [])] : command.arguments }, { __agentLensTitle: base });
    return lens;
  };
  middleware.provideCodeLenses = async (document, token, next) => {
    const lenses = previousProvide ? await previousProvide(document, token, next) : await next(document, token);
    return lenses?.map((lens) => decorate(lens, document));
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
function refreshLenses(client: BaseLanguageClient): void {
  try {
    const feature = client.getFeature(CodeLensRequest.method);
    for (const editor of vscode.window.visibleTextEditors) feature.getProvider(editor.document)?.onDidChangeCodeLensEmitter.fire();
  } catch {
    // the client is not started (or the server has no lens support): nothing to refresh
  }
}
