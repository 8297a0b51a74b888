// Source locations in the user's own files. Under --enable-source-maps, Error stacks are already mapped
// to the original files; positions Node reports against the bundle itself (node:test's test locations,
// link errors) are mapped here through the bundle's inline source map.
import { findSourceMap } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SourceLocation } from "@agent-lens/protocol";

export interface StackFrame extends SourceLocation {}

const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$/;

function toPath(file: string): string | undefined {
  if (file.startsWith("file://")) {
    try {
      return fileURLToPath(file);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(file) ? file : undefined;
}

function parseStack(stack: string | undefined): StackFrame[] {
  if (!stack) return [];
  const frames: StackFrame[] = [];
  for (const line of stack.split("\n")) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const file = toPath(m[1]!);
    if (file) frames.push({ file, line: Number(m[2]), column: Number(m[3]) });
  }
  return frames;
}

export class UserCode {
  private readonly files: Set<string>;

  constructor(userFiles: string[], private readonly bundle: string) {
    this.files = new Set(userFiles);
  }

  isUserFile(file: string): boolean {
    return this.files.has(file);
  }

  /** Maps a 1-based position in the bundle to the user's source; undefined when it is not user code. */
  mapBundlePosition(line: number, column: number): SourceLocation | undefined {
    try {
      const map = findSourceMap(this.bundle);
      const entry = map?.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
      if (!entry?.originalSource || entry.originalLine === undefined) return undefined;
      const file = toPath(entry.originalSource) ?? resolve(this.bundle, "..", entry.originalSource);
      return { file, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1 };
    } catch {
      return undefined;
    }
  }

  /** A location Node reported: already in a user file, or in the bundle and mapped back. */
  locate(file: string | undefined, line: number | undefined, column: number | undefined): SourceLocation | undefined {
    if (!file || !line) return undefined;
    const path = toPath(file) ?? file;
    if (path === this.bundle) return this.mapBundlePosition(line, column ?? 1);
    return { file: path, line, column: column ?? 1 };
  }

  /** The first frame of a stack that is in the user's code (mapping any raw bundle frames). */
  firstUserFrame(stack: string | undefined): SourceLocation | undefined {
    for (const frame of parseStack(stack)) {
      const located = frame.file === this.bundle ? this.mapBundlePosition(frame.line, frame.column) : frame;
      if (located && this.files.has(located.file)) return located;
    }
    // Link errors name the bundle as "file:///…/x.mjs:12" on the first line.
    const head = /^(file:\/\/\S+?|\/\S+?):(\d+)\s*$/m.exec(stack ?? "");
    if (head && toPath(head[1]!) === this.bundle) {
      const located = this.mapBundlePosition(Number(head[2]), 1);
      if (located && this.files.has(located.file)) return located;
    }
    return undefined;
  }
}
