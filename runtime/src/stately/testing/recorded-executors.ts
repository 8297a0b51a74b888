// createRecordedExecutors: executors that answer from a recording made by `agent-lens run --record`
// (`__recordings__/<file>.json`), for replaying a test in code without the harness. Each request is matched
// by its name and occurrence and its input compared with the recorded one; a call that drifted (its input
// changed, or the recording has no such call) throws AgentError `replay-drift`, which ends the run at once
// (it never reaches onError: a replay that drifted must not look like a model failure). Not upstream's: the
// library has no record / replay helper (statelyai/agent src/testing at 611730cf); named after
// createScriptedExecutors.
import { markUnrecorded } from "../../shared/model-calls";
import { recordedCallsOf, type RecordedCall } from "../../shared/recording/format";
import { TestReplay, type Drift } from "../../shared/recording/replayer";
import { AgentError, markFatal } from "../errors";
import { rebuildError, requestInput } from "../model-calls";
import type { AgentDecisionRequest, AgentDecisionResult, AgentRequest, AgentRequestExecutorResult, AgentTextRequest } from "../types";

export interface RecordedExecutorsOptions {
  /** The test whose calls answer, when `recording` is a whole recording file holding several. */
  test?: string;
}

export interface RecordedExecutors {
  generateText(request: AgentTextRequest): Promise<AgentRequestExecutorResult>;
  decide(request: AgentDecisionRequest): Promise<AgentDecisionResult>;
  /** The first drift, once a call drifted. */
  readonly drift: Drift | undefined;
  /** Recorded calls no request has taken (yet). */
  remaining(): RecordedCall[];
}

/** Executors answering from `recording` (a recording file's JSON, one test's `{ recordedAt, calls }`, or its calls). */
export function createRecordedExecutors(recording: unknown, options: RecordedExecutorsOptions = {}): RecordedExecutors {
  const calls = recordedCallsOf(recording, options?.test, "stately");
  if (typeof calls === "string") throw new AgentError("invalid-options", `createRecordedExecutors: ${calls}.`);
  const replay = new TestReplay(calls);
  const taken = new Set<RecordedCall>();
  const answer = (request: AgentRequest): unknown => {
    const step = replay.next({ library: "stately", key: request.name, input: requestInput(request) });
    if (step.drift) {
      const diff = step.drift.diff?.length ? `\n${step.drift.diff.join("\n")}` : "";
      throw markFatal(new AgentError("replay-drift", `${step.drift.message}${diff}`, { request: request.name }));
    }
    taken.add(step.recorded);
    if (step.recorded.error) throw rebuildError(step.recorded.error);
    return structuredClone(step.recorded.output);
  };
  const executors: RecordedExecutors = {
    generateText: async (request) => answer(request) as AgentRequestExecutorResult,
    decide: async (request) => answer(request) as AgentDecisionResult,
    get drift() {
      return replay.drift;
    },
    remaining: () => calls.filter((c) => !taken.has(c)),
  };
  markUnrecorded(executors.generateText);
  markUnrecorded(executors.decide);
  return executors;
}
