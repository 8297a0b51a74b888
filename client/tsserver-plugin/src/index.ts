// Agent Lens's TypeScript server plugin (contributes.typescriptServerPlugins): a workspace that imports
// @statelyai/agent, @falai/agent, zod, ai or xstate without installing them gets the declarations Agent
// Lens ships (dist/types, next to this file's folder), so TypeScript's hovers, completion and type errors
// work on agent files and the Problems panel shows only real problems. The workspace's own copy always
// wins (see resolve.ts). Nothing else of the language service changes.
import type * as ts from "typescript";
import { join } from "node:path";
import { createFallback, type TS } from "./resolve";

type Host = ts.LanguageServiceHost & Required<Pick<ts.LanguageServiceHost, "resolveModuleNameLiterals" | "resolveTypeReferenceDirectiveReferences">>;

function init(modules: { typescript: TS }): ts.server.PluginModule {
  const typescript = modules.typescript;
  return {
    create(info) {
      const host = info.languageServiceHost as Partial<Host>;
      const log = (message: string) => info.project.projectService.logger.info(`[agent-lens] ${message}`);
      const moduleHost: ts.ModuleResolutionHost = {
        fileExists: (f) => info.serverHost.fileExists(f),
        readFile: (f) => info.serverHost.readFile(f),
        directoryExists: (d) => info.serverHost.directoryExists(d),
        realpath: info.serverHost.realpath ? (p) => info.serverHost.realpath!(p) : undefined,
        getDirectories: (d) => info.serverHost.getDirectories(d),
      };
      const fallback = createFallback(typescript, moduleHost, join(__dirname, "..", "types", "node_modules"), () => info.project.getCurrentDirectory());
      const modulesOf = host.resolveModuleNameLiterals?.bind(host);
      const typeRefsOf = host.resolveTypeReferenceDirectiveReferences?.bind(host);
      if (!modulesOf || !typeRefsOf) {
        log("this TypeScript has no resolveModuleNameLiterals: not active");
        return info.languageService;
      }
      host.resolveModuleNameLiterals = (literals, containingFile, redirected, options, containingSourceFile, reused) => {
        const originals = modulesOf(literals, containingFile, redirected, options, containingSourceFile, reused);
        return originals.map((original, i) => {
          const literal = literals[i];
          const mode = typescript.getModeForUsageLocation(containingSourceFile, literal, options);
          return fallback.module(literal.text, containingFile, options, mode, redirected, original);
        });
      };
      host.resolveTypeReferenceDirectiveReferences = (references, containingFile, redirected, options, containingSourceFile, reused) => {
        const originals = typeRefsOf(references, containingFile, redirected, options, containingSourceFile, reused);
        return originals.map((original, i) => {
          const ref = references[i];
          const name = typeof ref === "string" ? ref : ref.fileName.toLowerCase();
          const mode = typeof ref === "string" ? undefined : ref.resolutionMode;
          return fallback.typeReference(name, containingFile, options, mode, redirected, original);
        });
      };
      log(`resolving unresolved imports of shipped packages to ${fallback.nodeModules}`);
      return info.languageService;
    },
  };
}

// tsserver requires the module itself to be the factory.
module.exports = init;
