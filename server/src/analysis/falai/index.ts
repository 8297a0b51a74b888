// The @falai/agent analyzer: extract the file's flows, field sets and agents (following imports through
// the workspace), then derive findings, symbols, references, lenses and graphs. Never throws.
import { reportAnalysisError } from "../errors";
import type { LibraryAnalysis, LibraryAnalyzer } from "../library";
import { runChecks } from "./checks";
import { Session } from "./session";
import { graphsOf } from "./graphs";
import { lensesOf } from "./lenses";
import type { FalaiFileModel } from "./model";
import { nameUseReferences } from "./nameUses";
import { referencesOf } from "./references";
import { symbolsOf } from "./symbols";

const EMPTY = (): LibraryAnalysis => ({ symbols: [], references: [], findings: [], lenses: [], graphs: [] });

/** Cheap pre-filter: a file that never names the library's builder or agent methods has nothing for us. */
function mayHoldFalai(text: string): boolean {
  return text.includes("falai") || text.includes(".flow(") || text.includes(".agent(") || text.includes(".turn") || text.includes(".fields(") || text.includes(".fromSpec(");
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
    if (!mayHoldFalai(ctx.parsed.sf.text)) return EMPTY();
    const model = extractFalai(ctx);
    if (!model) return EMPTY();
    const out = EMPTY();
    const parts: Array<[string, () => void]> = [
      ["checks", () => (out.findings = runChecks(model))],
      ["symbols", () => (out.symbols = symbolsOf(model))],
      ["references", () => (out.references = referencesOf(model))],
      ["lenses", () => (out.lenses = lensesOf(model))],
      ["graphs", () => (out.graphs = graphsOf(model))],
      ["name uses", () => (model.turnSites.length || ctx.isTestFile()) && nameUseReferences(ctx.parsed, out.references)],
    ];
    for (const [name, part] of parts) {
      try {
        part();
      } catch (error) {
        reportAnalysisError(error, `falai ${name}`); // keep what the other parts found
      }
    }
    return out;
  } catch (error) {
    reportAnalysisError(error, "falai analyzer");
    return EMPTY();
  }
};

export { parseDuration, formatDuration } from "./duration";
