// Decision retries (upstream's rule): a decide executor's choice that names an event it was not offered, carries a
// payload its schema refuses, or that the machine's guards reject is a failed attempt; the executor is asked again
// with the failed attempts on `request.attempts`, up to DECISION_RETRIES more times, then the decision fails with
// `decision-exhausted` listing every attempt.
import { AgentError } from "./errors";
import type { AgentDecisionAttempt, AgentDecisionRequest, ChosenEvent } from "./types";

/** Retries after the first choice (upstream's default `maxRetries`: three attempts in all). */
export const DECISION_RETRIES = 2;

/** The failed-attempt kind of an error a choice raised, or undefined when it is not a failed choice. */
export function attemptFailure(error: unknown): AgentDecisionAttempt["failure"] | undefined {
  if (!(error instanceof AgentError)) return undefined;
  if (error.code === "invalid-decision") return "invalid-payload";
  if (error.code === "decision-not-accepted") return (error as { rejected?: boolean }).rejected ? "rejected" : "unknown-event";
  return undefined;
}

/** The error for a choice the machine's guards refused (a failed attempt of kind `rejected`). */
export function guardRejected(request: AgentDecisionRequest, event: ChosenEvent): AgentError {
  const error = new AgentError(
    "decision-not-accepted",
    `Decision "${request.name}" chose "${event.type}", but the machine no longer accepts it (a guard refused it or the state changed).`,
    { request: request.name },
  );
  return Object.assign(error, { rejected: true });
}

/** Every attempt at a decision failed (upstream's class; code `decision-exhausted`); `attempts` lists them, oldest first. */
export class AgentDecisionExhaustedError extends AgentError {
  readonly attempts: AgentDecisionAttempt[];
  constructor(request: AgentDecisionRequest, attempts: AgentDecisionAttempt[]) {
    const list = attempts.map((a, i) => `${i + 1}. ${a.event ? `"${a.event.type}"` : "(no event)"} — ${a.failure}: ${a.message}`).join(" ");
    super("decision-exhausted", `Decision "${request.name}" found no acceptable event in ${attempts.length} attempts (offered: ${request.events.map((o) => o.type).join(", ")}). ${list}`, { request: request.name });
    this.name = "AgentDecisionExhaustedError";
    this.attempts = attempts;
  }
}

export function exhausted(request: AgentDecisionRequest, attempts: AgentDecisionAttempt[]): AgentDecisionExhaustedError {
  return new AgentDecisionExhaustedError(request, attempts);
}
