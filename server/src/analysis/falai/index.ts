// The @falai/agent analyzer: extract the file's flows, field sets and agents (following imports through
// the workspace), then derive findings, and on first need symbols, references, lenses and graphs. Never
// throws.
import { mentionsLibrary } from "@agent-lens/files/agent-markers";
import { reportAnalysisError } from "../errors";
import { shiftFindings, shiftOutputs } from "../incremental/shift";
import { NO_OUTPUTS, once, type LibraryAnalysis, type LibraryAnalyzer, type LibraryOutputs } from "../library";
import type { Finding } from "../types";
import { runChecks } from "./checks";
import { Session } from "./session";
import { graphsOf } from "./graphs";
import { lensesOf } from "./lenses";
import type { FalaiFileModel } from "./model";
import { nameUseReferences } from "./name-uses";
import { referencesOf } from "./references";
import { symbolsOf } from "./symbols";

/** Cheap pre-filter: a file that never names the library's builder or agent methods has nothing for us. */
const mayHoldFalai = (text: string) => mentionsLibrary("@falai/agent", text);

/** A file with nothing for this analyzer; after an edit, still nothing unless the pre-filter now passes. */
function nothing(): LibraryAnalysis {
  return { findings: [], definitions: 0, outputs: NO_OUTPUTS, reuse: (_edit, _place, text) => (mayHoldFalai(text) ? undefined : nothing()) };
}

/** The extracted model of a file (for tests and tools); undefined when extraction failed. */
export function extractFalai(ctx: Parameters<LibraryAnalyzer>[0]): FalaiFileModel | undefined {
  try {
    return new Session(ctx).model();
  } catch (error) {
    reportAnalysisError(error, `falai extraction of ${ctx.file}`);
    return undefined;
  }
}

export const analyzeFalai: LibraryAnalyzer = (ctx) => {
  try {
    if (!mayHoldFalai(ctx.parsed.sf.text)) return nothing();
    const model = extractFalai(ctx);
    if (!model) return nothing();
    let findings: Finding[] = [];
    guard("checks", () => (findings = runChecks(model)));
    return falaiAnalysis(findings, once(() => outputsOf(ctx, model)), model);
  } catch (error) {
    reportAnalysisError(error, "falai analyzer");
    return nothing();
  }
};

function outputsOf(ctx: Parameters<LibraryAnalyzer>[0], model: FalaiFileModel): LibraryOutputs {
  const out: LibraryOutputs = { symbols: [], references: [], lenses: [], graphs: [] };
  const parts: Array<[string, () => void]> = [
    ["symbols", () => (out.symbols = symbolsOf(model))],
    ["references", () => (out.references = referencesOf(model))],
    ["lenses", () => (out.lenses = lensesOf(model))],
    ["graphs", () => (out.graphs = graphsOf(model))],
    ["name uses", () => (model.turnSites.length || ctx.isTestFile()) && nameUseReferences(ctx.parsed, out.references)],
  ];
  for (const [name, part] of parts) guard(name, part);
  return out;
}

/** How many of `defs` are defined in `file` (a loop, not a closure made per analysis: util/shapes.ts). */
function countIn(file: string, defs: ReadonlyArray<{ file: string }>): number {
  let n = 0;
  for (const d of defs) if (d.file === file) n++;
  return n;
}

/** The model holds absolute ranges (read when it was extracted), so after an edit of a comment between
 *  statements its findings and outputs move with the text; any other edit is analyzed again. */
function falaiAnalysis(findings: Finding[], outputs: () => LibraryOutputs, model: FalaiFileModel): LibraryAnalysis {
  return {
    findings,
    definitions: countIn(model.file, model.flows) + countIn(model.file, model.agents),
    outputs,
    reuse: (edit, place, text) => {
      if (edit.kind !== "comment" || !edit.topLevel || model.positionalIds || !mayHoldFalai(text)) return undefined;
      return falaiAnalysis(shiftFindings(findings, place), once(() => shiftOutputs(outputs(), place)), model);
    },
  };
}

function guard(name: string, part: () => void): void {
  try {
    part();
  } catch (error) {
    reportAnalysisError(error, `falai ${name}`); // keep what the other parts found
  }
}
