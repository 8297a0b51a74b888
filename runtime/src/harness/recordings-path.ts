// Where a file's recording lives, and how a run's recordings mode reaches the child. Shared by the parent
// (which writes the recording) and the child (which reads it); no dependencies.
import { basename, dirname, join } from "node:path";

/** The folder beside an eval file that holds its recording (the `__snapshots__` convention). */
export const RECORDINGS_FOLDER = "__recordings__";

/** The child's environment variable carrying the run's mode (`auto`, `record`, `replay-only`). */
export const RECORDINGS_MODE_VAR = "AGENT_LENS_RECORDINGS";

/** `<folder>/__recordings__/<file name>.json` for the eval file `<folder>/<file name>`. */
export function recordingPathOf(evalFile: string): string {
  return join(dirname(evalFile), RECORDINGS_FOLDER, `${basename(evalFile)}.json`);
}
