// What reading one definition (a field set, a flow, an agent, an eval site) needs from the extraction
// of its file: the file's reader, unique symbol ids, and the definitions found through the resolver
// (in this file or another). A narrow interface, so the readers depend on it and not on the file
// extractor that calls them.
import type { ts } from "ts-morph";
import type { Parsed } from "../../resolve/declarations";
import type { AgentModel, BuilderRef, FieldSetModel, FlowModel, Registration, RegistrationKind } from "../model";
import type { Reader } from "../reader";

export interface FalaiHost {
  readonly reader: Reader;
  /** The file imports `@falai/agent` (a builder we cannot follow still counts in such a file). */
  readonly importsFalai: boolean;
  /** A symbol id unique in this file: `${file}#${kind}:${base}`; a later duplicate gets `@${offset}`,
   *  the start of `node` (worked out only then). */
  claim(kind: string, base: string, node: ts.Node): string;
  /** What `f` is in `f.flow(...)`: a field set builder (maybe in another file), a bare `falai()`, or
   *  undefined when it is not a falai builder we can follow. */
  builderOf(receiver: ts.Node): BuilderRef | undefined;
  /** The field set, flow or agent a call node (found through the resolver, in any file) defines. */
  fieldSetAt(at: Parsed, node: ts.Node): FieldSetModel | undefined;
  flowAt(at: Parsed, node: ts.Node): FlowModel | undefined;
  agentAt(at: Parsed, node: ts.Node): AgentModel | undefined;
  /** The reader of another file (registrations may live in an imported const). */
  readerFor(at: Parsed): Reader;
  /** One registration per declaring node, whichever agent reads it first. */
  registration(kind: RegistrationKind, at: Parsed, keyNode: ts.Node, build: () => Registration): Registration;
}
