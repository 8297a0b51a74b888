// The packages the harness manages: the two libraries (our runtime unless the workspace installs a copy
// with the documented API) and their dependencies zod / ai / xstate (the workspace's copy when it has a
// compatible one, else the copies we ship in dist/vendor). Pure lookups, no esbuild.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RuntimeChoice, RuntimeMode } from "@agent-lens/protocol";

export interface ManagedPackage {
  /** The group name reported in the `start` event's `runtime` map. */
  name: string;
  /** Package names in this group (the first is the one whose install decides). */
  packages: string[];
  library: boolean;
  /** Specifier → file under dist/ for the copy we ship. */
  shipped: Record<string, string>;
  /** Whether an installed copy can stand in for ours. */
  accepts(pkg: InstalledPackage): boolean;
}

export interface InstalledPackage {
  name: string;
  version: string;
  /** Real path of the package folder (symlinked workspace packages resolved). */
  root: string;
  json: PackageJson;
}

interface PackageJson {
  name?: string;
  version?: string;
  main?: string;
  module?: string;
  exports?: unknown;
}

function major(version: string): number {
  const m = /^(\d+)/.exec(version);
  return m ? Number(m[1]) : NaN;
}

/** The file the package's "." export (import condition first) or module/main points at. */
function entryFile(pkg: InstalledPackage): string | undefined {
  const pick = (e: unknown): string | undefined => {
    if (typeof e === "string") return e;
    if (e && typeof e === "object") {
      const o = e as Record<string, unknown>;
      for (const k of ["import", "node", "default", "require"]) {
        const v = pick(o[k]);
        if (v) return v;
      }
    }
    return undefined;
  };
  const exp = pkg.json.exports;
  const dot = exp && typeof exp === "object" && !Array.isArray(exp) && "." in (exp as object) ? (exp as Record<string, unknown>)["."] : exp;
  const rel = pick(dot) ?? pkg.json.module ?? pkg.json.main ?? "index.js";
  const file = join(pkg.root, rel);
  return existsSync(file) ? file : undefined;
}

/** A library copy provides the documented API when its version is ≥ 3, or its entry exports the marker name. */
function providesApi(marker: RegExp, legacy: (version: string) => boolean) {
  return (pkg: InstalledPackage): boolean => {
    if (legacy(pkg.version)) return false;
    if (major(pkg.version) >= 3) return true;
    const entry = entryFile(pkg);
    if (!entry) return false;
    try {
      return marker.test(readFileSync(entry, "utf8"));
    } catch {
      return false;
    }
  };
}

const sameMajor = (ours: number) => (pkg: InstalledPackage) => major(pkg.version) === ours;

const MANAGED: ManagedPackage[] = [
  {
    name: "@statelyai/agent", packages: ["@statelyai/agent"], library: true,
    shipped: {
      "@statelyai/agent": "runtime/statelyai-agent.mjs",
      "@statelyai/agent/ai-sdk": "runtime/statelyai-agent-ai-sdk.mjs",
      "@statelyai/agent/testing": "runtime/statelyai-agent-testing.mjs",
    },
    // npm's @statelyai/agent 0.x/1.x and 2.0.0-next.* are the old API (createAgent, no setupAgent).
    accepts: providesApi(/\bsetupAgent\b/, (v) => major(v) < 2 || /^2\.0\.0-next/.test(v)),
  },
  {
    name: "@falai/agent", packages: ["@falai/agent"], library: true,
    shipped: { "@falai/agent": "runtime/falai-agent.mjs" },
    accepts: providesApi(/\bfalai\b/, () => false),
  },
  {
    name: "zod", packages: ["zod"], library: false,
    shipped: {
      zod: "vendor/zod.mjs", "zod/v4": "vendor/zod-v4.mjs", "zod/v4/core": "vendor/zod-v4-core.mjs", "zod/mini": "vendor/zod-mini.mjs",
      "zod/v4/mini": "vendor/zod-v4-mini.mjs", "zod/v4/locales/en.js": "vendor/zod-v4-locales-en.mjs",
    },
    accepts: sameMajor(4),
  },
  {
    name: "ai", packages: ["ai", "@ai-sdk/provider", "@ai-sdk/provider-utils", "@ai-sdk/gateway"], library: false,
    shipped: { ai: "vendor/ai.mjs", "ai/test": "vendor/ai-test.mjs", "@ai-sdk/provider": "vendor/ai-sdk-provider.mjs" },
    accepts: sameMajor(7),
  },
  {
    name: "xstate", packages: ["xstate"], library: false,
    shipped: { xstate: "vendor/xstate.mjs", "xstate/graph": "vendor/xstate-graph.mjs" },
    accepts: sameMajor(6),
  },
];

/** "@scope/name/sub" → "@scope/name"; "name/sub" → "name". */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

export function managedGroupOf(specifier: string): ManagedPackage | undefined {
  const name = packageNameOf(specifier);
  return MANAGED.find((g) => g.packages.includes(name));
}

/** Node's lookup: node_modules/<name>/package.json in fromDir and every folder above it. */
function findInstalledPackage(name: string, fromDir: string): InstalledPackage | undefined {
  let dir = fromDir;
  for (;;) {
    const manifest = join(dir, "node_modules", name, "package.json");
    if (existsSync(manifest)) {
      try {
        const json = JSON.parse(readFileSync(manifest, "utf8")) as PackageJson;
        return { name, version: json.version ?? "0.0.0", root: realpathSync(dirname(manifest)), json };
      } catch {
        return undefined;
      }
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export interface GroupDecision {
  choice: RuntimeChoice;
  installed?: InstalledPackage;
  /** Why an installed copy was not used (shown in messages). */
  rejected?: string;
}

/** Decides, per managed group, whose copy the runtime side uses for a file in `fromDir`. */
export function decideRuntime(mode: RuntimeMode, fromDir: string): Map<string, GroupDecision> {
  const out = new Map<string, GroupDecision>();
  for (const group of MANAGED) {
    const installed = findInstalledPackage(group.packages[0]!, fromDir);
    if (mode === "bundled" || !installed) {
      out.set(group.name, { choice: "bundled", installed });
      continue;
    }
    if (group.accepts(installed)) out.set(group.name, { choice: "workspace", installed });
    else out.set(group.name, {
      choice: "bundled", installed,
      rejected: group.library
        ? `${installed.name}@${installed.version} in the workspace is not the documented API`
        : `${installed.name}@${installed.version} in the workspace is not the major version Agent Lens is built on`,
    });
  }
  return out;
}
