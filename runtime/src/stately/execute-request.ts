// executeAgentRequest: one request, outside any machine — for evals of a single model call.
import { AgentError } from "./errors";
import { performRequest } from "./execute";
import type { AgentRequestExecutors, AgentRequest, AgentTextRequest } from "./types";

/**
 * Runs one request (built with `agent.request(name, input)`) through the executors and returns its
 * validated result. Executor errors propagate as they are; a result that breaks the request's output
 * schema throws an AgentError (`invalid-request-output`).
 */
export async function executeAgentRequest<TResult = unknown>(
  request: AgentTextRequest & { readonly __result?: TResult },
  executors: AgentRequestExecutors,
): Promise<TResult>;
export async function executeAgentRequest(request: AgentRequest, executors: AgentRequestExecutors): Promise<unknown>;
export async function executeAgentRequest(request: AgentRequest, executors: AgentRequestExecutors): Promise<unknown> {
  if (!request || typeof request !== "object" || (request.kind !== "text" && request.kind !== "decision")) {
    throw new AgentError("invalid-options", "executeAgentRequest needs a request built by agent.request(name, input).");
  }
  if (!executors || typeof executors !== "object") {
    throw new AgentError("missing-executors", "executeAgentRequest needs executors: executeAgentRequest(request, { generateText }).");
  }
  const performed = await performRequest(request, executors);
  return performed.output.result;
}
