// The esbuild plugin that decides where every bare import of a user's eval file goes:
// - the libraries (@statelyai/agent*, @falai/agent): the workspace's installed copy when it provides the
//   documented API, else our runtime (dist/runtime);
// - zod / ai / xstate: the user's own imports resolve like Node would (the workspace's copy, else ours);
//   our runtime's imports get the workspace's copy when it is a compatible version, else ours (dist/vendor);
// - the managed packages are bundled (pure JavaScript; one file loads several times faster than the
//   hundreds of modules zod or xstate ship, and the bundle is cached): with `split`, the user's bundle
//   imports them from their own build (libraries.ts) and this records what they resolved to;
// - every other installed package stays external, imported by absolute path from the workspace's
//   node_modules, so packages with native parts or on-disk assets work as under plain Node;
// - Node built-ins stay external.
import type { Plugin, PluginBuild, OnResolveArgs, OnResolveResult } from "esbuild";
import { existsSync } from "node:fs";
import { isBuiltin } from "node:module";
import { extname, join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { HarnessAssets } from "./assets";
import { libraryUrl } from "./library-urls";
import type { RuntimeChoice, RuntimeMode } from "@agent-lens/protocol";
import { managedGroupOf, packageNameOf, type GroupDecision, type ManagedPackage } from "./packages";

const SKIP = "agentLensSkip";
const EXTERNAL_EXTENSIONS = new Set([".js", ".mjs", ".cjs", ".node", ""]);

export interface ResolveContext {
  mode: RuntimeMode;
  assets: HarnessAssets;
  /** Folder the workspace-side decisions were made from (the entry's folder). */
  fromDir: string;
  decisions: Map<string, GroupDecision>;
  /** Filled while building: which copy each managed group resolved to. */
  used: Map<string, RuntimeChoice>;
  /** Package roots of library copies bundled from the workspace (their frames are not user code). */
  libraryRoots: Set<string>;
  /** Building the user's code alone: managed imports become imports of the library layer. */
  split?: SplitImports;
}

export interface SplitImports {
  cacheDir: string;
  /** Specifier → the file it resolved to. */
  imports: Map<string, string>;
  /** Why this file cannot be split (its bundle then holds the libraries, as one file). */
  problem?: string;
}

function inNodeModules(file: string): boolean {
  return file.includes(`${sep}node_modules${sep}`);
}

export function resolvePlugin(ctx: ResolveContext): Plugin {
  return {
    name: "agent-lens-resolve",
    setup(build) {
      // The falai providers' vendor SDKs (dist/vendor/sdk-*.mjs, which our runtime imports on a provider's first
      // call) stay files of their own, loaded from dist/ by URL: bundled, megabytes would go into every falai
      // layer that a scripted eval never runs.
      build.onResolve({ filter: /\/vendor\/sdk-[\w-]+\.mjs$/ }, (args) =>
        args.importer.startsWith(ctx.assets.dist + sep) ? { path: pathToFileURL(join(args.resolveDir, args.path)).href, external: true } : undefined,
      );
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.[SKIP] || args.kind === "entry-point") return undefined;
        const spec = args.path;
        if (isBuiltin(spec)) return { path: spec, external: true };
        if (/^[A-Za-z]:[\\/]/.test(spec)) return undefined;
        const group = managedGroupOf(spec);
        if (group) {
          const r = await resolveManaged(build, ctx, group, spec, args);
          return ctx.split ? splitOff(ctx.split, spec, r, args) : r;
        }
        return resolveInstalled(build, spec, args, args.resolveDir);
      });
    },
  };
}

/** A managed import of the user's code becomes an import of its library layer entry, when it can. */
function splitOff(split: SplitImports, spec: string, r: OnResolveResult | undefined, args: OnResolveArgs): OnResolveResult | undefined {
  if (!r || r.errors?.length || r.external || !r.path) return r;
  const known = split.imports.get(spec);
  // require() of an ES module needs a recent Node, and one specifier must be one module for every importer.
  if (args.kind === "require-call" || args.kind === "require-resolve") split.problem ??= `require("${spec}")`;
  else if (known !== undefined && known !== r.path) split.problem ??= `"${spec}" resolves to two copies`;
  if (split.problem) return r;
  split.imports.set(spec, r.path);
  return { path: libraryUrl(split.cacheDir, spec), external: true };
}

/** Resolves like esbuild would from resolveDir; installed packages stay external unless `bundle`. */
async function resolveInstalled(build: PluginBuild, spec: string, args: OnResolveArgs, resolveDir: string, bundle = false): Promise<OnResolveResult | undefined> {
  const r = await build.resolve(spec, { kind: args.kind, resolveDir, importer: args.importer, pluginData: { [SKIP]: true } });
  if (r.errors.length) return undefined; // esbuild's own resolver reports "Could not resolve" with the location
  if (r.external) return { path: r.path, external: true };
  if (!bundle && inNodeModules(r.path) && EXTERNAL_EXTENSIONS.has(extname(r.path))) {
    const byRequire = args.kind === "require-call" || args.kind === "require-resolve";
    return { path: byRequire ? r.path : pathToFileURL(r.path).href, external: true };
  }
  return { path: r.path, sideEffects: r.sideEffects };
}

async function resolveManaged(build: PluginBuild, ctx: ResolveContext, group: ManagedPackage, spec: string, args: OnResolveArgs): Promise<OnResolveResult | undefined> {
  const decision = ctx.decisions.get(group.name)!;
  const fromOurs = args.importer.startsWith(ctx.assets.dist + sep);
  const record = (choice: RuntimeChoice) => {
    // The user's own import wins the report; our runtime's import reports only when the user has none.
    if (!fromOurs || !ctx.used.has(group.name)) ctx.used.set(group.name, choice);
  };

  if (ctx.mode !== "bundled") {
    if (fromOurs) {
      if (decision.choice === "workspace" && decision.installed) {
        // Resolve as the workspace would: the primary package from the entry's folder, its siblings
        // (@ai-sdk/* next to ai) from the installed package's own folder.
        const dir = packageNameOf(spec) === group.packages[0] ? ctx.fromDir : decision.installed.root;
        const r = await resolveInstalled(build, spec, args, dir, true);
        if (r) {
          record("workspace");
          return r;
        }
      }
    } else if (group.library) {
      if (decision.choice === "workspace") {
        const r = await resolveInstalled(build, spec, args, args.resolveDir, true);
        if (r) {
          if (!r.external && decision.installed) ctx.libraryRoots.add(decision.installed.root);
          record("workspace");
          return r;
        }
      }
      if (ctx.mode === "workspace") {
        return { errors: [{ text: `--runtime workspace: ${decision.rejected ?? `${group.name} is not installed in the workspace`}` }] };
      }
    } else {
      const r = await resolveInstalled(build, spec, args, args.resolveDir, true);
      if (r) {
        record("workspace");
        return r;
      }
    }
  }
  return resolveShipped(build, ctx, group, spec, args, record);
}

async function resolveShipped(build: PluginBuild, ctx: ResolveContext, group: ManagedPackage, spec: string, args: OnResolveArgs, record: (c: RuntimeChoice) => void): Promise<OnResolveResult> {
  const rel = group.shipped[spec];
  if (rel) {
    const file = join(ctx.assets.dist, rel);
    if (existsSync(file)) {
      record("bundled");
      return { path: file };
    }
  }
  // Not in dist (a subpath we do not vendor, or a development tree): our own installed copy, bundled.
  if (!group.library) {
    const r = await build.resolve(spec, { kind: args.kind, resolveDir: ctx.assets.root, pluginData: { [SKIP]: true } });
    if (!r.errors.length && !r.external) {
      record("bundled");
      return { path: r.path };
    }
  }
  const what = group.library ? `the Agent Lens runtime for ${spec} is not built (${rel ? join(ctx.assets.dist, rel) : "no module"}); run npm run build` : `${spec} is not shipped with Agent Lens; install ${group.packages[0]} in the workspace`;
  return { errors: [{ text: `Could not resolve "${spec}": ${what}` }] };
}
