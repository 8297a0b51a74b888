// Every key the runtime mints. Each is a pure function of the input and the session, so a replay of the same
// input on the same session version mints the same keys (runtime/README.md, "Keys").

export const runIdOf = (flowId: string, triggerKey: string) => `${flowId}#${triggerKey}`;
/** A message's key, an action's `ctx.key`, a step line's `key`. */
export const stepKeyOf = (runId: string, stepId: string, visit: number) => `${runId}:${stepId}:${visit}`;
/** A timer wait, an event wait's deadline, a deferred action. */
export const waitKeyOf = (runId: string, stepId: string, atMs: number) => `${runId}:${stepId}:${atMs}`;
export const afterKeyOf = (runId: string, atMs: number) => `${runId}:start:${atMs}`;
export const retryKeyOf = (runId: string, stepId: string, visit: number, atMs: number) => `${runId}:${stepId}:${visit}:retry:${atMs}`;
export const silenceKeyOf = (flowId: string, sessionId: string, lastAssistantAtMs: number) => `silence:${flowId}:${sessionId}:${lastAssistantAtMs}`;
export const idleKeyOf = (triggerKey: string) => `idle:${triggerKey}`;
export const dedupeKeyOf = (flowId: string, anchor: string, nonce: string) => `${flowId}:${anchor}:${nonce}`;
export const sayOnceKeyOf = (flowId: string, stepId: string, sessionId: string) => `${flowId}:${stepId}:${sessionId}`;
/** What the understand call answers a branch's `when` under. */
export const branchKeyOf = (runId: string, stepId: string, index: number) => `${runId}/${stepId}/${index}`;

/** `silence:<flowId>:<sessionId>:<ms>` → its parts (flow and session ids may hold ":"; the ms never does). */
export function parseSilenceKey(key: string): { rest: string; ms: number } | undefined {
  const m = /^silence:(.+):(\d+)$/.exec(key);
  return m ? { rest: m[1]!, ms: Number(m[2]) } : undefined;
}
