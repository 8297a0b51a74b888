// A rename's edits as an LSP WorkspaceEdit. Places tied to the symbol for sure are plain edits; places
// that may name it but are not tied for sure (RenameEdit.certain false) become annotated edits whose
// change annotation needs confirmation, so the editor shows them in its rename preview instead of applying
// them silently. A client without change annotations gets the sure edits only, and a message naming the
// places left unchanged (never dropped silently).
import type { AnnotatedTextEdit, ChangeAnnotation, TextDocumentEdit, TextEdit, WorkspaceEdit } from "vscode-languageserver/node";
import type { RenameEdit } from "../analysis/features/index";
import { toRange } from "./convert";

export interface RenameEditTarget {
  toUri(file: string): string;
  /** The version of an open document (its edits must match it), or null when the file is not open. */
  versionOf(uri: string): number | null;
  /** The client applies `documentChanges` with change annotations (`workspace.workspaceEdit`). */
  annotations: boolean;
}

export interface ConvertedRename {
  edit: WorkspaceEdit;
  /** Uncertain places left out because the client cannot ask about them: say so to the user. */
  leftOut: RenameEdit[];
}

export function toRenameWorkspaceEdit(edits: RenameEdit[], target: RenameEditTarget): ConvertedRename {
  const uncertain = edits.filter((e) => !e.certain);
  if (!uncertain.length || !target.annotations) {
    const changes: Record<string, TextEdit[]> = {};
    for (const e of edits) if (e.certain) (changes[target.toUri(e.file)] ??= []).push({ range: toRange(e.range), newText: e.newText });
    return { edit: { changes }, leftOut: uncertain };
  }
  const changeAnnotations: Record<string, ChangeAnnotation> = {};
  const annotationFor = new Map<string, string>(); // reason → annotation id (one group per reason)
  const byUri = new Map<string, Array<TextEdit | AnnotatedTextEdit>>();
  for (const e of edits) {
    const uri = target.toUri(e.file);
    let list = byUri.get(uri);
    if (!list) byUri.set(uri, (list = []));
    const edit: TextEdit = { range: toRange(e.range), newText: e.newText };
    if (e.certain) {
      list.push(edit);
      continue;
    }
    const reason = e.reason ?? "not tied to the renamed symbol for sure";
    let id = annotationFor.get(reason);
    if (!id) {
      id = `agent-lens.uncertain.${annotationFor.size + 1}`;
      annotationFor.set(reason, id);
      changeAnnotations[id] = { label: "Check before renaming: may name something else", needsConfirmation: true, description: reason };
    }
    list.push({ ...edit, annotationId: id });
  }
  const documentChanges: TextDocumentEdit[] = [...byUri].map(([uri, list]) => ({ textDocument: { uri, version: target.versionOf(uri) }, edits: list }));
  return { edit: { documentChanges, changeAnnotations }, leftOut: [] };
}

/** The message for places a client without change annotations could not be asked about. */
export function leftOutMessage(leftOut: RenameEdit[], name: string, show: (file: string) => string): string {
  const places = leftOut.slice(0, 5).map((e) => `${show(e.file)}:${e.range.startLine + 1}`);
  const more = leftOut.length > places.length ? ` and ${leftOut.length - places.length} more` : "";
  return `Rename: ${leftOut.length} place${leftOut.length === 1 ? "" : "s"} may also name "${name}" but could not be tied to it for sure, so they were left unchanged: ${places.join(", ")}${more}.`;
}
