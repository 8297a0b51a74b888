// The session's run ids: every run and diagram gets the next one (the panel drops stale updates by it).
let nextRunId = 1;

export function newRunId(): number {
  return nextRunId++;
}
