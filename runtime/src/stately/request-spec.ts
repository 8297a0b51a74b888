// What the runtime knows about a request before it runs: the definition from setupAgent({ requests }),
// createTextLogic / createDecisionLogic, or the inline agent.decide (whose definition arrives as input).
// Request logics carry their spec under a symbol so the machine artifact can be introspected.
import type { AnyActorLogic, StandardSchemaV1 } from "./xstate";
import type { AgentSamplingSettings, AgentTool } from "./types";

export interface RequestSpec {
  kind: "text" | "decision";
  /** Declared name (requests key, logic name); undefined falls back to the inline name or the invoke id. */
  name?: string;
  /** Model key; undefined only for the inline agent.decide, whose input names it. */
  model?: string;
  inputSchema?: StandardSchemaV1;
  outputSchema?: StandardSchemaV1;
  prompt?: unknown;
  messages?: unknown;
  system?: unknown;
  tools?: Record<string, AgentTool>;
  settings: AgentSamplingSettings;
  /** Decisions: event types the decision may choose (default: every event the state accepts). */
  allowedEvents?: string[];
  /** Decisions: payload schemas by event type (from setupAgent `events`). */
  eventSchemas?: Record<string, StandardSchemaV1>;
  /** Inline decide: the definition comes from the invoke input at run time. */
  inline?: boolean;
  description?: string;
}

const REQUEST_SPEC = Symbol.for("statelyai-agent.request-spec");

export function requestSpecOf(logic: unknown): RequestSpec | undefined {
  if (typeof logic !== "object" || logic === null) return undefined;
  return (logic as Record<symbol, RequestSpec | undefined>)[REQUEST_SPEC];
}

export function attachSpec<T extends AnyActorLogic>(logic: T, spec: RequestSpec): T {
  Object.defineProperty(logic, REQUEST_SPEC, { value: spec, enumerable: false });
  return logic;
}

const SETTING_KEYS = [
  "temperature", "topP", "topK", "maxOutputTokens", "presencePenalty", "frequencyPenalty", "stopSequences", "seed", "maxRetries",
] as const;

export function pickSettings(config: Record<string, unknown>): AgentSamplingSettings {
  const settings: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) if (config[key] !== undefined) settings[key] = config[key];
  return settings as AgentSamplingSettings;
}
