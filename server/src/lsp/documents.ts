// Open documents: the editor's text wins over the disk's. An edit only marks a document dirty; its text
// reaches the analysis lazily (`flush`), right before something needs it, so a burst of keystrokes costs
// one analysis. Also answers "the analysis of this URI" for every handler (`contextFor`), and keeps each
// open document's last analysis with the text it was computed from (`snapshotFor`): deliberately stale,
// used only while the user types inside a string (completion), never where a current answer is needed.
import type { Position } from "vscode-languageserver/node";
import { TextDocuments } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { FileAnalysis } from "../analysis/api";
import { MAX_FILE_BYTES, readSourceFileSync } from "./files";
import { isSourcePath, SOURCE_LANGUAGES, UriMap } from "./paths";
import type { Folder, Project } from "./project";
import type { SkipReporter } from "./skips";

/** What a handler needs: the analysis of a document, its folder and the document itself. */
export interface DocumentContext {
  uri: string;
  file: string;
  folder: Folder;
  document: TextDocument;
  analysis: FileAnalysis;
}

export const TOO_LARGE = `it is larger than the ${MAX_FILE_BYTES / 1048576} MB limit`;

function isTooLarge(text: string): boolean {
  return text.length > MAX_FILE_BYTES / 4 && Buffer.byteLength(text, "utf8") > MAX_FILE_BYTES;
}

export class OpenDocuments {
  readonly documents = new TextDocuments(TextDocument);
  readonly uris = new UriMap();
  private readonly dirty = new Set<string>(); // open document URIs whose text the analysis has not seen yet
  private readonly openFiles = new Map<string, string>(); // path → URI of open (analyzable) documents
  private readonly skipped = new Map<string, string>(); // URI → why it is not analyzed (logged once per reason)
  private readonly snapshots = new Map<string, { text: string; analysis: FileAnalysis }>();

  constructor(private readonly project: Project, private readonly skips: SkipReporter, private readonly log: (message: string) => void) {}

  /** The path of an analyzable open document (logging once why another is not). */
  fileOf(doc: TextDocument): string | undefined {
    const file = this.uris.toFile(doc.uri, doc.languageId);
    if (!file) return this.skip(doc.uri, `scheme not analyzed`);
    if (!SOURCE_LANGUAGES.has(doc.languageId) && !(isSourcePath(file) && doc.languageId === "")) return this.skip(doc.uri, `language "${doc.languageId}" is not TypeScript or JavaScript`);
    if (isTooLarge(doc.getText())) {
      this.skips.report(file, TOO_LARGE); // logged there, with a notice
      this.skipped.set(doc.uri, TOO_LARGE);
      return undefined;
    }
    this.skips.forget(file, TOO_LARGE);
    this.skipped.delete(doc.uri);
    return file;
  }

  private skip(uri: string, reason: string): undefined {
    if (this.skipped.get(uri) !== reason) {
      this.skipped.set(uri, reason);
      this.log(`[agent-lens] skipped ${uri}: ${reason}`);
    }
    return undefined;
  }

  opened(doc: TextDocument): void {
    const file = this.fileOf(doc);
    if (!file) return;
    this.uris.remember(doc.uri, file);
    this.openFiles.set(file, doc.uri);
  }

  changed(uri: string): void {
    this.dirty.add(uri);
  }

  /** Forgets a closed document; returns its path when it was an analyzable open document. */
  closed(doc: TextDocument): string | undefined {
    this.dirty.delete(doc.uri);
    this.snapshots.delete(doc.uri);
    this.skipped.delete(doc.uri);
    const file = this.uris.toFile(doc.uri, doc.languageId);
    if (!file || this.openFiles.get(file) !== doc.uri) return undefined;
    this.openFiles.delete(file);
    this.uris.forget(file);
    return file;
  }

  isOpen(file: string): boolean {
    return this.openFiles.has(file);
  }

  uriOfOpen(file: string): string | undefined {
    return this.openFiles.get(file);
  }

  openPaths(): IterableIterator<[string, string]> {
    return this.openFiles.entries();
  }

  /** After a folder's workspace was rebuilt (or folders changed), open documents must be set again. */
  markDirty(folder?: Folder): void {
    for (const [file, uri] of this.openFiles) if (!folder || this.project.folderFor(file) === folder) this.dirty.add(uri);
  }

  /** Bring every edited open document's text into the analysis. */
  flush(): void {
    if (!this.dirty.size) return;
    for (const uri of [...this.dirty]) {
      this.dirty.delete(uri);
      const doc = this.documents.get(uri);
      const file = doc ? this.fileOf(doc) : undefined;
      if (doc && file) this.project.setText(file, doc.getText(), true);
    }
  }

  /** Current text of a file: the editor's when open, else the disk's. */
  textOf(file: string): string | undefined {
    const uri = this.openFiles.get(file);
    const doc = uri ? this.documents.get(uri) : undefined;
    if (doc) return doc.getText();
    const r = readSourceFileSync(file);
    return "text" in r ? r.text : undefined;
  }

  /** The analysis of a document (open, or read from disk); undefined for unknown, skipped or disabled files. */
  contextFor(uri: unknown): DocumentContext | undefined {
    if (typeof uri !== "string") return undefined;
    let document = this.documents.get(uri);
    let file: string | undefined;
    if (document) {
      file = this.fileOf(document);
    } else {
      // Not open: answer from the disk when it is a source file we can read (clients rarely ask this).
      file = this.uris.toFile(uri);
      if (!file || !isSourcePath(file)) return undefined;
      const r = readSourceFileSync(file);
      if (!("text" in r)) return undefined;
      document = TextDocument.create(uri, "typescript", 0, r.text);
    }
    if (!file) return undefined;
    const folder = this.project.folderFor(file);
    if (!folder.settings.enable) return undefined;
    this.flush();
    const analysis = this.project.analyze(file);
    if (this.documents.get(uri) === document) this.remember(uri, document.getText(), analysis);
    return { uri, file, folder, document, analysis };
  }

  remember(uri: string, text: string, analysis: FileAnalysis): void {
    this.snapshots.set(uri, { text, analysis });
  }

  /** The last analysis of an open document and the text it was computed from (for completion while typing). */
  snapshotFor(uri: string): { text: string; analysis: FileAnalysis } | undefined {
    const snapshot = this.snapshots.get(uri);
    const file = snapshot ? this.uris.toFile(uri) : undefined;
    if (!snapshot || (file && !this.project.folderFor(file).settings.enable)) return undefined;
    return snapshot;
  }

  offsetOf(document: TextDocument, position: Position): number | undefined {
    if (!position || typeof position.line !== "number" || typeof position.character !== "number") return undefined;
    if (position.line < 0 || position.character < 0 || position.line >= document.lineCount) return undefined;
    return document.offsetAt(position);
  }
}
