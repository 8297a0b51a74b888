// What a file not being edited (indexing, the watcher, a closed document, the CLI) keeps of its analysis:
// its data, and nothing it was built from (the model, the syntax tree). Its hover summaries are rebuilt
// from a fresh analysis of the same text when first read. Its other parts (symbols, references, lenses,
// tests, graphs) are read at once — or, with `outputsOnDemand`, rebuilt the same way when first read:
// `check` prints findings only, and a cold index needs findings and counts until a file is asked about.
import type { AgentSymbol, FileAnalysis } from "./api";
import { reportAnalysisError } from "./errors";
import { LAZY_PARTS, materialize } from "./file-analysis";

/** What a settled analysis is rebuilt from: the file's current version, and a fresh analysis of it. */
export interface FreshAnalyses {
  /** Undefined when the file is gone. */
  versionOf(file: string): number | undefined;
  analyze(file: string): FileAnalysis;
}

interface Fresh {
  file: string;
  version: number;
  raw: FileAnalysis;
  /** Its symbols by id (made when a summary is first asked for). */
  byId?: Map<string, AgentSymbol>;
}

export class Settler {
  /** The last fresh analysis made to rebuild something (of one file's one version). */
  private fresh: Fresh | undefined;

  constructor(
    private readonly host: FreshAnalyses,
    private readonly outputsOnDemand: boolean,
  ) {}

  /** Lets go of everything `raw` (the analysis of `file` at `version`) was built from. */
  settle(file: string, version: number, raw: FileAnalysis): void {
    if (!this.outputsOnDemand) {
      materialize(raw);
      for (const symbol of raw.symbols) this.summaryOnDemand(symbol, file);
      return;
    }
    let parts: Partial<FileAnalysis> | undefined;
    const rebuilt = (): Partial<FileAnalysis> => (parts ??= this.rebuild(file, version));
    for (const key of LAZY_PARTS) {
      if (!Object.getOwnPropertyDescriptor(raw, key)?.get) continue; // read already
      Object.defineProperty(raw, key, {
        enumerable: true,
        configurable: true,
        get() {
          const value = rebuilt()[key] ?? [];
          Object.defineProperty(raw, key, { value, enumerable: true, writable: true, configurable: true });
          return value;
        },
      });
    }
  }

  /** Every part of a fresh analysis of the same text (its symbols copied, their summaries on demand);
   *  nothing when the text changed since (as a sealed analysis reads). */
  private rebuild(file: string, version: number): Partial<FileAnalysis> {
    const fresh = this.freshOf(file, version);
    if (!fresh) return {};
    materialize(fresh.raw);
    const symbols = fresh.raw.symbols.map((s) => this.summaryOnDemand(copySymbol(s), file));
    return { symbols, references: fresh.raw.references, lenses: fresh.raw.lenses, tests: fresh.raw.tests, graphs: fresh.raw.graphs };
  }

  /** A symbol whose summary is not built yet builds it from a fresh analysis of the file when first read. */
  private summaryOnDemand(symbol: AgentSymbol, file: string): AgentSymbol {
    const d = Object.getOwnPropertyDescriptor(symbol, "summary");
    if (!d?.get) return symbol;
    const id = symbol.id;
    Object.defineProperty(symbol, "summary", {
      enumerable: true,
      configurable: true,
      get: () => {
        const summary = this.summaryOf(file, id);
        Object.defineProperty(symbol, "summary", { value: summary, enumerable: true, writable: true, configurable: true });
        return summary;
      },
    });
    return symbol;
  }

  private summaryOf(file: string, symbolId: string): string | undefined {
    const fresh = this.freshOf(file, this.host.versionOf(file));
    if (!fresh) return undefined;
    fresh.byId ??= new Map(fresh.raw.symbols.map((s) => [s.id, s]));
    return fresh.byId.get(symbolId)?.summary;
  }

  /** A fresh analysis of the file's text at `version`, when that is still its text. */
  private freshOf(file: string, version: number | undefined): Fresh | undefined {
    if (version === undefined || this.host.versionOf(file) !== version) return undefined;
    if (this.fresh?.file === file && this.fresh.version === version) return this.fresh;
    try {
      return (this.fresh = { file, version, raw: this.host.analyze(file) });
    } catch (error) {
      reportAnalysisError(error, `rebuilding the analysis of ${file}`);
      return undefined;
    }
  }
}

/** The symbol with the same properties (a summary not built yet stays a getter of the original). */
function copySymbol(symbol: AgentSymbol): AgentSymbol {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(symbol)) as AgentSymbol;
}
