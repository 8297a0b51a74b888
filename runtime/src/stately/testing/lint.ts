// lintAgentMachine / assertAgentMachine: structural checks on a built agent machine, read from its
// config and actor sources (nothing runs). Codes and severities are the library's:
//   decide-without-events   error    a state asks for a decision, but neither it nor an ancestor handles
//                                    any event, so no decision can be delivered
//   direct-object-src       warning  an agent machine invokes actor logic or a machine by value (not
//                                    request logic): scripts and `.provide` can only replace named sources
//   invoke-without-on-error warning  an invoke without onError where no state up to the root handles an
//                                    actor error: a failure errors the whole machine
import { AgentError } from "../errors";
import { requestSpecOf } from "../request-spec";
import { agentDefinitionOf } from "../setup-agent";
import { actorSource, type AnyStateMachine } from "../xstate";

export type AgentLintSeverity = "error" | "warning";

export type AgentLintCode = "decide-without-events" | "direct-object-src" | "invoke-without-on-error";

export interface AgentLintDiagnostic {
  code: AgentLintCode;
  severity: AgentLintSeverity;
  /** The state's dotted path ("(machine)" for the root). */
  path: string;
  message: string;
}

export interface LintAgentMachineOptions {
  /** Codes to skip. */
  disable?: AgentLintCode[];
  /** Throw AgentLintError on failing findings instead of returning them (errors; warnings too with `warnings`). */
  throw?: boolean;
  /** With `throw`, warnings fail too. */
  warnings?: boolean;
}

export interface AssertAgentMachineOptions extends LintAgentMachineOptions {
  /** Warnings fail too (default: errors only). */
  warnings?: boolean;
}

const CODES: readonly AgentLintCode[] = ["decide-without-events", "direct-object-src", "invoke-without-on-error"];

/** Thrown by assertAgentMachine / lintAgentMachine({ throw: true }); the findings are on `diagnostics`. */
export class AgentLintError extends AgentError {
  readonly diagnostics: AgentLintDiagnostic[];

  constructor(machineId: string, diagnostics: AgentLintDiagnostic[]) {
    const lines = diagnostics.map((d) => `  ${d.severity.padEnd(7)} ${d.code} at ${d.path}: ${d.message}`);
    super("lint-failed", `Machine "${machineId}" has ${diagnostics.length} lint finding${diagnostics.length === 1 ? "" : "s"}:\n${lines.join("\n")}`);
    this.name = "AgentLintError";
    this.diagnostics = diagnostics;
  }
}

interface StateConfig {
  type?: string;
  states?: Record<string, StateConfig>;
  invoke?: InvokeConfig | InvokeConfig[];
  on?: Record<string, unknown>;
  onError?: unknown;
}

interface InvokeConfig {
  src?: unknown;
  onError?: unknown;
}

interface Visit {
  path: string;
  config: StateConfig;
  ancestors: StateConfig[];
}

function invokesOf(config: StateConfig): InvokeConfig[] {
  const invoke = config.invoke;
  if (invoke === undefined || invoke === null) return [];
  return (Array.isArray(invoke) ? invoke : [invoke]).filter((i): i is InvokeConfig => typeof i === "object" && i !== null);
}

function handlesEvents(config: StateConfig): boolean {
  return Object.keys(config.on ?? {}).some((type) => !type.startsWith("xstate."));
}

function handlesActorError(config: StateConfig): boolean {
  if (config.onError !== undefined) return true;
  return Object.keys(config.on ?? {}).some((type) => type === "*" || type.startsWith("xstate.error"));
}

function checkOptions(options: unknown): LintAgentMachineOptions {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null) throw new AgentError("invalid-options", "lintAgentMachine: options must be { disable?, throw?, warnings? }.");
  const { disable, throw: throws, warnings } = options as LintAgentMachineOptions;
  if (disable !== undefined && (!Array.isArray(disable) || disable.some((code) => !CODES.includes(code)))) {
    throw new AgentError("invalid-options", `lintAgentMachine: disable lists lint codes: ${CODES.join(", ")}.`);
  }
  if (throws !== undefined && typeof throws !== "boolean") throw new AgentError("invalid-options", "lintAgentMachine: throw must be true or false.");
  if (warnings !== undefined && typeof warnings !== "boolean") throw new AgentError("invalid-options", "lintAgentMachine: warnings must be true or false.");
  return options as LintAgentMachineOptions;
}

/** The findings for a machine (empty when clean); with `{ throw: true }`, throws AgentLintError instead. */
export function lintAgentMachine(machine: AnyStateMachine, options?: LintAgentMachineOptions): AgentLintDiagnostic[] {
  const opts = checkOptions(options);
  const root = (machine as { config?: StateConfig } | null)?.config;
  if (!machine || typeof machine !== "object" || !root || !("root" in machine)) {
    throw new AgentError("not-an-agent-machine", "lintAgentMachine needs a machine made by agent.createMachine(...).");
  }
  const agentMachine = agentDefinitionOf(machine) !== undefined;
  const logicOf = (src: unknown): unknown => (typeof src === "string" ? actorSource(machine, src) : src);
  const found: AgentLintDiagnostic[] = [];
  const walk = (visit: Visit): void => {
    const { path, config, ancestors } = visit;
    for (const invoke of invokesOf(config)) {
      const spec = requestSpecOf(logicOf(invoke.src));
      if (spec?.kind === "decision" && !handlesEvents(config) && !ancestors.some(handlesEvents)) {
        found.push({
          code: "decide-without-events",
          severity: "error",
          path,
          message: `the state asks for a decision, but neither it nor an ancestor handles any event, so the chosen event can never be delivered; add the events it may choose under "on".`,
        });
      }
      if (agentMachine && typeof invoke.src === "object" && invoke.src !== null && !spec) {
        found.push({
          code: "direct-object-src",
          severity: "warning",
          path,
          message: "the invoke's src is actor logic (or a machine) given by value, which scripts and machine.provide cannot replace; declare it in setupAgent({ actors }) and invoke it by name.",
        });
      }
      if (invoke.onError === undefined && !handlesActorError(config) && !ancestors.some(handlesActorError)) {
        found.push({
          code: "invoke-without-on-error",
          severity: "warning",
          path,
          message: `the invoke has no onError and no state up to the root handles an actor error, so a failed ${spec ? "request" : "actor"} errors the whole machine; add onError (a failed final state, or a bounded retry).`,
        });
      }
    }
    for (const [key, child] of Object.entries(config.states ?? {})) {
      if (typeof child !== "object" || child === null) continue;
      walk({ path: path === "(machine)" ? key : `${path}.${key}`, config: child, ancestors: [...ancestors, config] });
    }
  };
  walk({ path: "(machine)", config: root, ancestors: [] });
  const disabled = new Set(opts.disable ?? []);
  const diagnostics = found.filter((d) => !disabled.has(d.code));
  if (opts.throw) {
    const failing = opts.warnings ? diagnostics : diagnostics.filter((d) => d.severity === "error");
    if (failing.length) throw new AgentLintError(String((machine as { id?: unknown }).id ?? "(machine)"), failing);
  }
  return diagnostics;
}

/** Returns quietly when the machine lints clean; throws AgentLintError on errors (and warnings with `warnings: true`). */
export function assertAgentMachine(machine: AnyStateMachine, options?: AssertAgentMachineOptions): void {
  lintAgentMachine(machine, { ...checkOptions(options), throw: true });
}
