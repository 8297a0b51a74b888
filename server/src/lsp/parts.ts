// What the request handlers share: the connection, the folders' analyses and the open documents, plus
// what the client said it can do. Each handler module registers its own requests on these.
import type { Connection } from "vscode-languageserver/node";
import type { OpenDocuments } from "./documents";
import type { Project } from "./project";

export interface ServerParts {
  connection: Connection;
  project: Project;
  docs: OpenDocuments;
  logError(message: string): void;
  /** Lens commands the client implements beyond agentLens.runLens (InitializationOptions.clientCommands). */
  clientCommands: ReadonlySet<string>;
  /** The client applies workspace edits with change annotations (known after `initialize`). */
  annotatedEdits(): boolean;
}
