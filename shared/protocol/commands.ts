// The commands the language server puts in its code lenses, with their arguments. The VS Code client
// registers them; the server never runs them (so the language client does not claim them).
import type { LensTarget } from "./analysis";

/** A run lens ("Run seam", "Run turns", "Explore paths"); its single argument is a LensTarget. */
export const RunLensCommand = "agentLens.runLens";
export type RunLensArgs = [LensTarget];

/** "Show diagram" on a machine or flow: draws it, runs nothing (so it needs no trust). Sent only to clients
 *  that list it in `InitializationOptions.clientCommands`. */
export const ShowDiagramCommand = "agentLens.showDiagram";
export type ShowDiagramArgs = [DiagramTarget];

/** "Record" beside each run lens of an eval file (one on a call in it): runs the test holding that call with
 *  every model call live and writes its recording, after a confirmation naming the models. Its single
 *  argument is the run lens's LensTarget. Sent only to clients that list it in `clientCommands`. */
export const RecordLensCommand = "agentLens.recordLens";
export type RecordLensArgs = [LensTarget];

/** What a "Show diagram" lens (or the command palette) asks to draw. */
export interface DiagramTarget {
  kind: "machine" | "flow";
  /** The file defining it (absolute path). */
  file: string;
  /** 0-based line of the machine's / flow's definition (where its lens sits). */
  line: number;
  /** The machine's symbol id (kind "machine"). */
  machineId?: string;
  /** The flow's id as written (kind "flow"); `line` tells two flows of one file with the same id apart. */
  flowId?: string;
}
