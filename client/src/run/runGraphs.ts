// Which diagrams belong to a run: the flows of the agent the eval actually used, not every flow of the
// workspace that happens to share an id. A turn reports the ids of its flows; the agent instance behind
// it is built from flows the eval file defines or imports, so each id is looked up in the files the eval
// reaches through its relative imports, nearest first (the file itself, then what it imports, ...). A flow
// of the same id in a file the eval never imports is not part of the run. Pure: file reading is injected.
import type { AgentGraph } from "../../../server/src/analysis/api";

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** Relative module specifiers a file imports or re-exports (static and dynamic imports). */
export function relativeImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
  const out = new Set<string>();
  for (const m of code.matchAll(/\b(?:import|export)\b[^"'`;]*?\bfrom\s*["'](\.{1,2}\/[^"']*)["']|\bimport\s*\(\s*["'](\.{1,2}\/[^"']*)["']\s*\)|\bimport\s+["'](\.{1,2}\/[^"']*)["']/g)) {
    out.add(m[1] ?? m[2] ?? m[3]);
  }
  return [...out];
}

/** A relative specifier → the file it names (TypeScript's rules: extension optional, `.js` may mean `.ts`, folder index). */
export function resolveRelative(fromFile: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  const dir = fromFile.replace(/[\\/][^\\/]*$/, "");
  const base = normalize(`${dir}/${specifier}`);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e)];
  const js = /\.(m|c)?jsx?$/.exec(base);
  if (js) {
    const stem = base.slice(0, -js[0].length);
    candidates.push(...(js[1] === "m" ? [".mts"] : js[1] === "c" ? [".cts"] : [".ts", ".tsx"]).map((e) => stem + e));
  }
  candidates.push(...EXTENSIONS.map((e) => `${base}/index${e}`));
  return candidates.find((c) => /\.[cm]?[jt]sx?$/.test(c) && exists(c));
}

function normalize(path: string): string {
  const absolute = path.startsWith("/");
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, "/").split("/")) {
    if (!part || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `${absolute ? "/" : ""}${parts.join("/")}`;
}

/** The eval file and the files it reaches through relative imports, breadth first (nearest first). */
export function reachableFiles(entry: string, read: (file: string) => string | undefined, exists: (file: string) => boolean, limit = 200): string[] {
  const seen = new Set([entry]);
  const order = [entry];
  for (let i = 0; i < order.length && order.length < limit; i++) {
    const text = read(order[i]);
    if (text === undefined) continue;
    for (const spec of relativeImports(text)) {
      const file = resolveRelative(order[i], spec, exists);
      if (file && !seen.has(file)) {
        seen.add(file);
        order.push(file);
      }
    }
  }
  return order;
}

/**
 * The flow graphs of a run: for each flow id the run reported, the graph of that id in the nearest
 * reachable file defining one. `graphsOf` answers a file's graphs (the language server's agentLens/graphs).
 */
export async function flowGraphsOfRun(flowIds: Iterable<string>, reachable: readonly string[], graphsOf: (file: string) => Promise<readonly AgentGraph[]>, definesFlows: (file: string) => boolean): Promise<AgentGraph[]> {
  const wanted = new Set(flowIds);
  const found = new Map<string, AgentGraph>();
  for (const file of reachable) {
    if (found.size === wanted.size) break;
    if (!definesFlows(file)) continue;
    for (const g of await graphsOf(file)) {
      if (g.kind === "flow" && wanted.has(g.name) && !found.has(g.name)) found.set(g.name, g);
    }
  }
  return [...wanted].flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
}
