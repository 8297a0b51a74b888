// Every key the runtime mints. All of them are pure functions of the input and the session, so a
// replay of the same input on the same session version mints the same keys.

export const runIdOf = (flowId: string, triggerKey: string) => `${flowId}#${triggerKey}`;
/** A message's key, an action's ctx.key and a wait outcome's key. */
export const stepKeyOf = (runId: string, stepId: string, visit: number) => `${runId}:${stepId}:${visit}`;
export const silenceKeyOf = (flowId: string, sessionId: string, lastAssistantAtMs: number) => `silence:${flowId}:${sessionId}:${lastAssistantAtMs}`;
export const waitKeyOf = (runId: string, stepId: string, atMs: number) => `${runId}:${stepId}:${atMs}`;
export const retryKeyOf = (runId: string, stepId: string, atMs: number) => `${runId}:${stepId}:retry:${atMs}`;
export const branchKeyOf = (runId: string, stepId: string, index: number) => `${runId}/${stepId}/${index}`;

/** `silence:<flowId>:<sessionId>:<ms>`; flow and session ids may hold ":" themselves, the ms never does. */
export function parseSilenceKey(key: string): { rest: string; ms: number } | undefined {
  const m = /^silence:(.+):(\d+)$/.exec(key);
  return m ? { rest: m[1]!, ms: Number(m[2]) } : undefined;
}
