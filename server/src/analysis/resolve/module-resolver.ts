// Resolves import specifiers to workspace files without the TypeScript program: relative paths (with the
// usual extension and index probing, `.js` written for `.ts`), and tsconfig.json `baseUrl` / `paths`
// (the nearest tsconfig.json above the importing file, inside a workspace root). Bare package names
// that no `paths` entry maps are not followed (libraries are recognised by name, not by reading them).
import { ts } from "ts-morph";
import * as path from "node:path";

export interface ResolverHost {
  fileExists(file: string): boolean;
  readFile(file: string): string | undefined;
}

interface PathsConfig {
  baseUrl: string;
  hasBaseUrl: boolean;
  paths: Array<{ prefix: string; suffix: string; wildcard: boolean; targets: string[] }>;
}

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".d.ts", ".js", ".jsx", ".mjs", ".cjs"];

/** Library entry points: never followed into, even when a tsconfig maps them somewhere. */
function isLibrarySpecifier(specifier: string): boolean {
  return specifier === "@statelyai/agent" || specifier.startsWith("@statelyai/agent/") || specifier === "@falai/agent" || specifier.startsWith("@falai/agent/") || specifier === "xstate" || specifier.startsWith("xstate/");
}

export class ModuleResolver {
  private readonly configByDir = new Map<string, PathsConfig | null>();
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly roots: string[], private readonly host: ResolverHost) {}

  /** Forget cached results (a file appeared or disappeared, a tsconfig changed). */
  invalidate(): void {
    this.cache.clear();
    this.configByDir.clear();
  }

  resolve(fromFile: string, specifier: string): string | undefined {
    if (isLibrarySpecifier(specifier) || specifier.startsWith("node:")) return undefined;
    const key = `${path.dirname(fromFile)}\0${specifier}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const result = this.resolveUncached(fromFile, specifier);
    this.cache.set(key, result ?? null);
    return result;
  }

  private resolveUncached(fromFile: string, specifier: string): string | undefined {
    if (specifier.startsWith(".") || path.isAbsolute(specifier)) {
      return this.probe(path.resolve(path.dirname(fromFile), specifier));
    }
    const config = this.configFor(path.dirname(fromFile));
    if (!config) return undefined;
    for (const entry of config.paths) {
      let star: string | undefined;
      if (entry.wildcard) {
        if (specifier.startsWith(entry.prefix) && specifier.endsWith(entry.suffix) && specifier.length >= entry.prefix.length + entry.suffix.length) {
          star = specifier.slice(entry.prefix.length, specifier.length - entry.suffix.length);
        } else continue;
      } else if (specifier !== entry.prefix) continue;
      for (const target of entry.targets) {
        const resolved = this.probe(path.resolve(config.baseUrl, star === undefined ? target : target.replace("*", star)));
        if (resolved) return resolved;
      }
    }
    // An explicit baseUrl makes non-relative specifiers resolvable from it.
    return config.hasBaseUrl ? this.probe(path.resolve(config.baseUrl, specifier)) : undefined;
  }

  private probe(base: string): string | undefined {
    const candidates: string[] = [];
    const ext = path.extname(base);
    if (ext === ".js" || ext === ".jsx") candidates.push(base.slice(0, -ext.length) + ".ts", base.slice(0, -ext.length) + ".tsx");
    if (ext === ".mjs") candidates.push(base.slice(0, -4) + ".mts");
    if (ext === ".cjs") candidates.push(base.slice(0, -4) + ".cts");
    if (ext && EXTENSIONS.includes(ext)) candidates.push(base);
    for (const e of EXTENSIONS) candidates.push(base + e);
    for (const e of EXTENSIONS) candidates.push(path.join(base, "index" + e));
    return candidates.find((c) => this.host.fileExists(c));
  }

  private configFor(dir: string): PathsConfig | undefined {
    const cached = this.configByDir.get(dir);
    if (cached !== undefined) return cached ?? undefined;
    let result: PathsConfig | null = null;
    const file = path.join(dir, "tsconfig.json");
    const text = this.host.readFile(file);
    if (text !== undefined) result = parsePaths(file, text);
    else {
      const parent = path.dirname(dir);
      const insideRoot = this.roots.some((r) => isWithin(r, parent));
      if (parent !== dir && insideRoot) result = this.configFor(parent) ?? null;
    }
    this.configByDir.set(dir, result);
    return result ?? undefined;
  }
}

function isWithin(root: string, dir: string): boolean {
  const rel = path.relative(root, dir);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function parsePaths(file: string, text: string): PathsConfig | null {
  const parsed = ts.parseConfigFileTextToJson(file, text);
  const options = (parsed.config?.compilerOptions ?? {}) as { baseUrl?: unknown; paths?: unknown };
  const dir = path.dirname(file);
  const baseUrl = typeof options.baseUrl === "string" ? path.resolve(dir, options.baseUrl) : dir;
  const paths: PathsConfig["paths"] = [];
  if (options.paths && typeof options.paths === "object") {
    for (const [pattern, targets] of Object.entries(options.paths as Record<string, unknown>)) {
      if (!Array.isArray(targets)) continue;
      const star = pattern.indexOf("*");
      paths.push({
        prefix: star >= 0 ? pattern.slice(0, star) : pattern,
        suffix: star >= 0 ? pattern.slice(star + 1) : "",
        wildcard: star >= 0,
        targets: targets.filter((t): t is string => typeof t === "string"),
      });
    }
    // Longest prefix first, as TypeScript matches.
    paths.sort((a, b) => b.prefix.length - a.prefix.length);
  }
  return { baseUrl, hasBaseUrl: typeof options.baseUrl === "string", paths };
}
