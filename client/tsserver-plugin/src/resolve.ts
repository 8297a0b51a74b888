// Where TypeScript finds a module the workspace has no copy of: the declarations Agent Lens ships under
// dist/types/node_modules (generated and copied by scripts/build.mjs). Pure: TypeScript's own module is
// passed in (tsserver hands the plugin the one it runs), so the same logic serves the plugin and tests.
//
// Rules, in order:
//   1. whatever the workspace resolves itself wins (its own installed copy, its tsconfig paths);
//   2. an import it cannot resolve whose package we ship resolves to ours;
//   3. inside our declarations, zod / ai / xstate / @types/node come from the workspace when it has the
//      major version ours are built on (so its schemas and ours are one type), else from ours.
import type * as ts from "typescript";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";

export type TS = typeof ts;

/** The packages we ship declarations for (`@scope/name` or `name`), read from the types folder. */
function shippedPackages(nodeModules: string): Map<string, string> {
  const out = new Map<string, string>(); // name → version
  const add = (name: string, dir: string) => {
    try {
      out.set(name, String(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version ?? ""));
    } catch {
      // not a package
    }
  };
  if (!existsSync(nodeModules)) return out;
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (entry.name.startsWith("@")) {
      for (const sub of readdirSync(join(nodeModules, entry.name), { withFileTypes: true })) if (sub.isDirectory()) add(`${entry.name}/${sub.name}`, join(nodeModules, entry.name, sub.name));
    } else add(entry.name, join(nodeModules, entry.name));
  }
  return out;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`; relative or absolute specifiers → undefined. */
function packageNameOf(specifier: string): string | undefined {
  if (!specifier || specifier.startsWith(".") || specifier.startsWith("/") || /^[a-z]:[\\/]/i.test(specifier) || specifier.includes(":")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? (parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined) : parts[0];
}

/** The libraries our own declarations import, which the workspace's copy may stand in for. */
const PEERS = new Set(["zod", "ai", "xstate", "@types/node"]);

function major(version: string | undefined): string | undefined {
  return version ? /^(\d+)/.exec(version)?.[1] : undefined;
}

export interface Fallback {
  /** The folder holding our packages (`…/dist/types/node_modules`). */
  readonly nodeModules: string;
  module(name: string, containingFile: string, options: ts.CompilerOptions, mode: ts.ResolutionMode, redirected: ts.ResolvedProjectReference | undefined, original: ts.ResolvedModuleWithFailedLookupLocations): ts.ResolvedModuleWithFailedLookupLocations;
  typeReference(name: string, containingFile: string, options: ts.CompilerOptions, mode: ts.ResolutionMode, redirected: ts.ResolvedProjectReference | undefined, original: ts.ResolvedTypeReferenceDirectiveWithFailedLookupLocations): ts.ResolvedTypeReferenceDirectiveWithFailedLookupLocations;
}

/**
 * @param nodeModules our `dist/types/node_modules`
 * @param projectDir the workspace project's folder (where its own node_modules are looked up)
 */
export function createFallback(typescript: TS, host: ts.ModuleResolutionHost, nodeModules: string, projectDir: () => string): Fallback {
  const shipped = shippedPackages(nodeModules);
  const ours = nodeModules.endsWith(sep) ? nodeModules : nodeModules + sep;
  const isOurs = (file: string | undefined) => !!file && (file.startsWith(ours) || file.replace(/\\/g, "/").startsWith(ours.replace(/\\/g, "/")));
  // A file inside our folder: node_modules lookups from it find our packages.
  const fromOurs = join(nodeModules, "..", "__agent_lens__.ts");
  const fromProject = () => join(projectDir(), "__agent_lens__.ts");
  const ourTypeRoots = [join(nodeModules, "@types")];

  return {
    nodeModules,
    module(name, containingFile, options, mode, redirected, original) {
      const pkg = packageNameOf(name);
      if (!pkg) return original;
      if (isOurs(containingFile)) {
        // Rule 3: a peer the workspace has in the same major as ours.
        if (!PEERS.has(pkg) || (original.resolvedModule && !isOurs(original.resolvedModule.resolvedFileName))) return original;
        const theirs = typescript.resolveModuleName(name, fromProject(), options, host, undefined, redirected, mode);
        const found = theirs.resolvedModule;
        if (found && !isOurs(found.resolvedFileName) && major(found.packageId?.version) === major(shipped.get(pkg))) return theirs;
        return original;
      }
      // Rules 1 and 2.
      if (original.resolvedModule || !shipped.has(pkg) || pkg.startsWith("@types/")) return original;
      const resolved = typescript.resolveModuleName(name, fromOurs, options, host, undefined, redirected, mode);
      return resolved.resolvedModule ? resolved : original;
    },
    typeReference(name, containingFile, options, mode, redirected, original) {
      const pkg = `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
      if (!shipped.has(pkg)) return original;
      if (isOurs(containingFile)) {
        if (!PEERS.has(pkg) || (original.resolvedTypeReferenceDirective?.resolvedFileName && !isOurs(original.resolvedTypeReferenceDirective.resolvedFileName))) return original;
        const theirs = typescript.resolveTypeReferenceDirective(name, fromProject(), options, host, redirected, undefined, mode);
        const found = theirs.resolvedTypeReferenceDirective;
        if (found?.resolvedFileName && !isOurs(found.resolvedFileName) && major(found.packageId?.version) === major(shipped.get(pkg))) return theirs;
        return original;
      }
      if (original.resolvedTypeReferenceDirective?.resolvedFileName) return original;
      const resolved = typescript.resolveTypeReferenceDirective(name, fromOurs, { ...options, typeRoots: ourTypeRoots }, host, redirected, undefined, mode);
      return resolved.resolvedTypeReferenceDirective?.resolvedFileName ? resolved : original;
    },
  };
}
