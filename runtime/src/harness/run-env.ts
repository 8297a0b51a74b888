// The environment a file's child gets: the caller's (the CLI's, the extension host's) plus the variables of a
// dotenv file (`--env-file`, `agentLens.run.envFile`; parsed with dotenv's own parser, never loaded into this
// process), plus the caller's additions, plus the run's recordings mode (unset for the default, `auto`). As
// dotenv itself does by default, a variable the environment already has wins over the file's. Shared by
// runEvalFile and the CLI's early child, so both start exactly the same process (the warm / early child is
// taken only when it matches).
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { parse } from "dotenv";
import type { RecordingsMode } from "@agent-lens/protocol";
import { RECORDINGS_MODE_VAR } from "./recordings-path";

export interface ChildEnvOptions {
  /** Added to (and overriding) everything else but the mode. */
  env?: Record<string, string | undefined>;
  recordings?: RecordingsMode;
  /** A dotenv file (absolute, or relative to `workspace`). */
  envFile?: string;
  workspace: string;
}

export type ChildEnv = { env: Record<string, string | undefined>; problem?: undefined } | { env?: undefined; problem: string };

/** The child's environment, or why it cannot be made (an env file that is missing or unreadable). */
export function childEnvironment(base: Record<string, string | undefined>, options: ChildEnvOptions): ChildEnv {
  let fromFile: Record<string, string> = {};
  if (options.envFile !== undefined) {
    const file = isAbsolute(options.envFile) ? options.envFile : resolve(options.workspace, options.envFile);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      return { problem: `the env file ${file} ${missing ? "does not exist" : `cannot be read (${(error as Error).message})`}` };
    }
    fromFile = parse(text);
  }
  // The default mode is the variable's absence (so a default run's environment is exactly the caller's).
  const mode = options.recordings && options.recordings !== "auto" ? options.recordings : undefined;
  return { env: { ...fromFile, ...base, ...options.env, [RECORDINGS_MODE_VAR]: mode } };
}
