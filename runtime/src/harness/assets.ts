// Where the harness finds what it ships: the child program, the node:test reporter, the runtime modules
// and the vendored copies of zod / ai / xstate. All live under the extension's (or repository's) dist/.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface HarnessAssets {
  /** The package root (holds package.json named agent-lens and dist/). */
  root: string;
  dist: string;
  version: string;
  child: string;
  testReporter: string;
  runtimeDir: string;
  vendorDir: string;
}

let found: HarnessAssets | undefined;

/** Walks up from this module (source under tsx, or a bundle under dist/) to the agent-lens package. */
export function harnessAssets(distOverride = process.env.AGENT_LENS_DIST): HarnessAssets {
  if (found && !distOverride) return found;
  // A dist/ copied elsewhere (the test suites run against a private copy so a concurrent rebuild of
  // dist/ cannot pull files out from under them).
  if (distOverride && !existsSync(join(distOverride, "..", "package.json"))) return assetsAt(dirname(distOverride), distOverride, "0.0.0-copy");
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
        if (pkg.name === "agent-lens") {
          const assets = assetsAt(dir, distOverride ?? join(dir, "dist"), pkg.version ?? "0.0.0");
          if (!distOverride) found = assets;
          return assets;
        }
      } catch {
        // an unreadable package.json is not ours; keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`agent-lens: cannot find the agent-lens package above ${__dirname}`);
    dir = up;
  }
}

function assetsAt(root: string, dist: string, version: string): HarnessAssets {
  return {
    root, dist, version,
    child: join(dist, "harness/child.js"),
    testReporter: join(dist, "harness/test-reporter.mjs"),
    runtimeDir: join(dist, "runtime"),
    vendorDir: join(dist, "vendor"),
  };
}
