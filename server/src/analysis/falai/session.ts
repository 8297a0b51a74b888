// One falai analysis: the file asked for, plus every file its definitions lead to through the
// resolver. Each file is extracted once (in its fixed order) and asked for its definitions by node.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import type { ExtractContext } from "../library";
import type { Parsed } from "../resolve/declarations";
import { Values } from "../resolve/values";
import { calledMethod, unwrap } from "../util/ts-nodes";
import { FileExtractor, type SessionLink } from "./extract/file-extractor";
import type { BuilderRef, FalaiFileModel, Registration, RegistrationKind } from "./model";
import { Reader } from "./reader";
import { keepShape } from "../util/shapes";

const LIBRARY = "@falai/agent";

export class Session implements SessionLink {
  private readonly values: Values;
  private readonly readers = new Map<string, Reader>();
  private readonly extractors = new Map<string, FileExtractor>();
  private readonly registrations = new Map<ts.Node, Registration>();
  /** Builders by the value a receiver resolves to (hundreds of flows share one `f`). */
  private readonly builders = new Map<ts.Node, BuilderRef | undefined>();

  constructor(private readonly ctx: ExtractContext) {
    this.values = new Values(ctx.resolver);
  }

  model(): FalaiFileModel | undefined {
    return this.extractorFor(this.ctx.parsed)?.model();
  }

  readerFor(at: Parsed): Reader {
    let reader = this.readers.get(at.file);
    if (!reader) this.readers.set(at.file, (reader = new Reader(at, this.values)));
    return reader;
  }

  /** The extractor of a file, run to completion unless it is already running (an import cycle). */
  extractorFor(at: Parsed): FileExtractor | undefined {
    let ex = this.extractors.get(at.file);
    if (!ex) {
      const parsed = at.file === this.ctx.file ? this.ctx.parsed : this.ctx.contextFor(at.file)?.parsed;
      if (!parsed) return undefined;
      ex = new FileExtractor(this, this.readerFor(parsed));
      this.extractors.set(at.file, ex);
      ex.run();
    }
    return ex;
  }

  builderOf(at: Parsed, receiver: ts.Node): BuilderRef | undefined {
    const v = this.values.valueOf(at, receiver);
    if (!v) return undefined;
    if (this.builders.has(v.node)) return this.builders.get(v.node);
    const builder = this.readBuilder(v.at, v.node);
    this.builders.set(v.node, builder);
    return builder;
  }

  private readBuilder(at: Parsed, node: ts.Node): BuilderRef | undefined {
    if (this.isLibraryCall(at, node, "falai")) return { known: true };
    if (ts.isCallExpression(node) && calledMethod(node) === "fields" && this.isLibraryCall(at, (node.expression as ts.PropertyAccessExpression).expression, "falai", true)) {
      const fieldSet = this.extractorFor(at)?.fieldSetAt(at, node);
      return fieldSet ? { known: true, fieldSet } : undefined;
    }
    return undefined;
  }

  isFakeClock(at: Parsed, node: ts.Node): boolean {
    return this.isLibraryCall(at, node, "fakeClock");
  }

  registration(kind: RegistrationKind, _at: Parsed, keyNode: ts.Node, build: () => Registration): Registration {
    let reg = this.registrations.get(keyNode);
    if (!reg || reg.kind !== kind) this.registrations.set(keyNode, (reg = build()));
    return reg;
  }

  /** `name()` (or `ns.name()`) where `name` is the library's export — or an undeclared global of that
   *  name. With `follow`, the call may also be behind a const. */
  private isLibraryCall(at: Parsed, node: ts.Node, name: string, follow = false): boolean {
    let e = unwrap(node);
    if (follow) {
      const v = this.values.valueOf(at, e);
      if (!v) return false;
      at = v.at;
      e = v.node;
    }
    if (!ts.isCallExpression(e)) return false;
    const callee = unwrap(e.expression);
    const r = this.ctx.resolver.resolveExpression(at, callee);
    if (r?.kind === "library") return r.module === LIBRARY && (r.name === name || r.name === `*.${name}`);
    return !r && ts.isIdentifier(callee) && callee.text === name;
  }
}

// Kept so the class's map (and its Values') outlives each analysis (util/shapes.ts); it has read nothing.
keepShape(new Session({} as ExtractContext));
