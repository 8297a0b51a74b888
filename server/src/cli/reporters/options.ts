// `--reporter` (repeatable) and `--output-file` of `agent-lens run` and `merge-reports`: which reports are
// made and where they go. The default is the text report alone; a list replaces it (as Vitest's does).
// `junit` writes to --output-file, else to stdout (then the text report cannot be there too); `blob`
// writes to --output-file when junit does not take it, else agent-lens-reports/blob[-i-n].json; `github` (on by itself when
// GITHUB_ACTIONS=true) prints annotations.
import { join } from "node:path";
import { blobName, DEFAULT_BLOB_DIR } from "./blob";
import { inGithubActions } from "./github";

const REPORTERS = ["text", "junit", "blob", "github"] as const;

export interface ReporterChoice {
  text: boolean;
  junit?: { file?: string };
  blob?: { file: string; shard?: { index: number; count: number } };
  github: boolean;
}

/** Throws an Error with the usage message when the choice cannot be honoured. */
export function chooseReporters(names: string[] | undefined, outputFile: string | undefined, shard?: { index: number; count: number }, allowBlob = true): ReporterChoice {
  const list = names?.length ? names : ["text"];
  for (const n of list) if (!(REPORTERS as readonly string[]).includes(n) || (n === "blob" && !allowBlob)) throw new Error(`--reporter must be one of ${REPORTERS.filter((r) => allowBlob || r !== "blob").join(", ")}, got "${n}"`);
  const junit = list.includes("junit");
  const blob = list.includes("blob");
  if (outputFile !== undefined && !junit && !blob) throw new Error("--output-file needs --reporter junit or --reporter blob");
  const text = list.includes("text");
  if (junit && text && outputFile === undefined) throw new Error("--reporter junit and text both want stdout: give the JUnit report a file with --output-file");
  return {
    text,
    ...(junit ? { junit: { ...(outputFile !== undefined ? { file: outputFile } : {}) } } : {}),
    ...(blob ? { blob: { file: outputFile !== undefined && !junit ? outputFile : join(DEFAULT_BLOB_DIR, blobName(shard)), ...(shard ? { shard } : {}) } } : {}),
    github: list.includes("github") || inGithubActions(),
  };
}
