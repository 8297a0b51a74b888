// What the language features take from a file's model (Outputs: symbols, references, lenses, graphs),
// and the two ranges they take of a model node: its name's (a string's contents) and its whole text.
import type { AgentGraph, AgentReference, AgentSymbol, LensAnchor } from "../api";
import { contentRangeOfTs, rangeOfTs } from "../ranges";
import type { At } from "./model";

export interface Outputs {
  symbols: AgentSymbol[];
  references: AgentReference[];
  lenses: LensAnchor[];
  graphs: AgentGraph[];
}

export const nameRange = (w: At) => contentRangeOfTs(w.at.sf, w.node);
export const fullRange = (w: At) => rangeOfTs(w.at.sf, w.node);
