// One build for everything: the VS Code client, the language server, the CLI, the runtime modules that
// user code imports, and the harness child. Entries whose source does not exist yet are skipped so each
// layer can land on its own.
import { build } from "esbuild";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDeclarations } from "./declarations.mjs";
import { generateChecks } from "./gen-checks.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const at = (p) => join(root, p);
const present = (entries) => Object.fromEntries(Object.entries(entries).filter(([, src]) => existsSync(at(src))).map(([k, v]) => [k, at(v)]));
const shebang = { js: "#!/usr/bin/env node" };

// The check registries and their codes (not committed) first: the bundles import them.
generateChecks();

// A clean dist/, except the type declarations: scripts/declarations.mjs rebuilds those when their inputs change.
for (const entry of existsSync(at("dist")) ? readdirSync(at("dist")) : []) if (entry !== "types") rmSync(at(`dist/${entry}`), { recursive: true, force: true });

/** main.ts's `import("./check")` / `import("./run")` load the separately built dist/cli/check.js / run.js
 *  through a plain require (an import() of CommonJS would make Node lex the whole file for its exports). */
const siblingCommands = {
  name: "sibling-commands",
  setup(b) {
    b.onResolve({ filter: /^\.\/(check|run|diff|merge-reports)$/ }, (args) => ({ path: args.path.slice(2), namespace: "sibling-command" }));
    b.onLoad({ filter: /.*/, namespace: "sibling-command" }, (args) => ({ contents: `module.exports = require("./${args.path}.js");`, loader: "js" }));
    b.onResolve({ filter: /^\.\/(check|run|diff|merge-reports)\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** Node programs: CommonJS, every npm dependency bundled in except the ones that must stay on disk. */
const nodePrograms = [
  { out: "dist/client/extension", src: "client/src/extension.ts", external: ["vscode", "esbuild"] },
  { out: "dist/server/server", src: "server/src/lsp/main.ts", banner: shebang, external: [] },
  // The commands are separate files loaded on demand, so `agent-lens run` does not parse the analysis.
  { out: "dist/cli/agent-lens", src: "server/src/cli/main.ts", banner: shebang, external: ["esbuild"], plugins: [siblingCommands] },
  { out: "dist/cli/check", src: "server/src/cli/check.ts", external: ["esbuild"] },
  { out: "dist/cli/run", src: "server/src/cli/run.ts", external: ["esbuild"] },
  { out: "dist/cli/diff", src: "server/src/cli/diff.ts", external: ["esbuild"] },
  { out: "dist/cli/merge-reports", src: "server/src/cli/merge-reports.ts", external: ["esbuild"] },
  // `run --coverage` builds its model from the analysis on a worker thread (a small file that loads the
  // analysis' own bundle through V8's code cache).
  { out: "dist/cli/coverage-worker", src: "server/src/cli/coverage/worker.ts", external: ["esbuild"] },
  { out: "dist/cli/coverage-model", src: "server/src/cli/coverage/static-model.ts", external: ["esbuild"] },
  // The child runs under --enable-source-maps: a map it links to would be parsed at every start, so it is
  // written beside it without the link (the user's bundle is what needs mapping).
  { out: "dist/harness/child", src: "runtime/src/harness/child/main.ts", external: [], sourcemap: "external" },
];

const jobs = [];
for (const p of nodePrograms) {
  if (!existsSync(at(p.src))) continue;
  jobs.push(build({
    entryPoints: { [p.out.replace(/^dist\//, "")]: at(p.src) },
    outdir: at("dist"), bundle: true, platform: "node", target: "node20", format: "cjs",
    sourcemap: p.sourcemap ?? "linked", external: p.external, banner: p.banner, logLevel: "warning", plugins: p.plugins,
    // typescript (inside ts-morph) probes for optional modules it never needs here
    mainFields: ["module", "main"],
  }));
}

// The results panel's webview script (its stylesheet is imported by it and lands next to it): browser IIFE.
if (existsSync(at("client/media/panel.ts"))) {
  jobs.push(build({
    entryPoints: { panel: at("client/media/panel.ts") }, outdir: at("dist/media"), bundle: true,
    platform: "browser", target: "es2022", format: "iife", minify: true, sourcemap: "linked", logLevel: "warning",
  }));
}

// The modules user code imports by the libraries' names. One split ESM build so the three
// @statelyai/agent entry points share one copy of their internals (AgentError identity and so on).
// zod, xstate and ai stay bare imports: the harness resolves them to the workspace's copy or ours.
const runtimeEntries = present({
  "statelyai-agent": "runtime/src/stately/index.ts",
  "statelyai-agent-ai-sdk": "runtime/src/stately/ai-sdk.ts",
  "statelyai-agent-testing": "runtime/src/stately/testing.ts",
  "falai-agent": "runtime/src/falai/index.ts",
});
// The falai model providers import the vendors' SDKs on their first call; those imports point at the SDK builds
// in dist/vendor (below) and stay dynamic, so a file that never calls a model never loads an SDK, and the harness
// keeps them out of a file's library layer (resolve-plugin.ts) instead of bundling megabytes it will not run.
const VENDOR_SDKS = { openai: "sdk-openai", "@anthropic-ai/sdk": "sdk-anthropic", "@google/genai": "sdk-google-genai" };
const vendorSdks = {
  name: "vendor-sdks",
  setup(b) {
    const names = Object.keys(VENDOR_SDKS).map((n) => n.replace(/[/.]/g, "\\$&"));
    b.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) => ({ path: `../vendor/${VENDOR_SDKS[args.path]}.mjs`, external: true }));
  },
};
if (Object.keys(runtimeEntries).length) {
  jobs.push(build({
    entryPoints: runtimeEntries, outdir: at("dist/runtime"), bundle: true, splitting: true,
    platform: "node", target: "node20", format: "esm", outExtension: { ".js": ".mjs" },
    sourcemap: "linked", external: ["zod", "zod/*", "xstate", "xstate/*", "ai", "ai/*", "@ai-sdk/*"], logLevel: "warning", plugins: [vendorSdks],
  }));
}

// The harness's node:test reporter (loaded by --test-reporter, so ESM with a default export).
if (existsSync(at("runtime/src/harness/child/test-reporter.ts"))) {
  jobs.push(build({
    entryPoints: { "test-reporter": at("runtime/src/harness/child/test-reporter.ts") }, outdir: at("dist/harness"),
    bundle: true, platform: "node", target: "node20", format: "esm", outExtension: { ".js": ".mjs" }, logLevel: "warning",
  }));
}

// The copies of zod, ai and xstate the harness falls back to when a workspace has none: split ESM so
// ai and ai/test (and xstate and xstate/graph) share one copy of their internals. zod gets its own build
// and stays a bare import in the others, so the harness can point it at the workspace's zod or ours.
const vendor = (entries, external) => build({
  entryPoints: Object.fromEntries(Object.entries(entries).map(([out, spec]) => [out, fileURLToPath(import.meta.resolve(spec))])),
  outdir: at("dist/vendor"), bundle: true, splitting: true, platform: "node", target: "node20", format: "esm",
  outExtension: { ".js": ".mjs" }, chunkNames: "chunks/[name]-[hash]", external, logLevel: "warning",
  banner: { js: "import { createRequire as __vendorCreateRequire } from 'node:module'; const require = __vendorCreateRequire(import.meta.url);" },
});
jobs.push(vendor({ zod: "zod", "zod-v4": "zod/v4", "zod-v4-core": "zod/v4/core", "zod-mini": "zod/mini", "zod-v4-mini": "zod/v4/mini", "zod-v4-locales-en": "zod/v4/locales/en.js" }, []));
jobs.push(vendor({ ai: "ai", "ai-test": "ai/test", "ai-sdk-provider": "@ai-sdk/provider", xstate: "xstate", "xstate-graph": "xstate/graph" }, ["zod", "zod/*"]));
// The vendors' SDKs for the falai providers: whole (they import zod nowhere on these entries), loaded only by a call.
jobs.push(vendor(Object.fromEntries(Object.entries(VENDOR_SDKS).map(([spec, out]) => [out, spec])), []));

// The TypeScript server plugin the extension contributes (contributes.typescriptServerPlugins): CommonJS,
// no dependencies (tsserver hands it its own typescript module). node_modules/agent-lens-tsserver-plugin
// (a file: dependency on client/tsserver-plugin) points its `main` here.
if (existsSync(at("client/tsserver-plugin/src/index.ts"))) {
  jobs.push(build({
    entryPoints: { "tsserver-plugin/index": at("client/tsserver-plugin/src/index.ts") }, outdir: at("dist"), bundle: true,
    platform: "node", target: "node20", format: "cjs", sourcemap: "linked", logLevel: "warning",
  }));
}

// Declarations of the bundled libraries for that plugin (CPU-bound: runs while esbuild works in its own process).
const declarations = buildDeclarations(root);

await Promise.all(jobs);
console.log(`built ${jobs.length} bundle group(s) into dist/; type declarations ${declarations.cached ? "unchanged" : `of ${declarations.packages} packages in ${declarations.ms} ms`}`);
