// What a run lens says, given whether its run is queued or going and whether the workspace is trusted. Pure.

export const RUNNING_TITLE = "$(sync~spin) Running… (click to cancel)";
const QUEUED_TITLE = "$(clock) Queued… (click to cancel)";
const TRUST_SUFFIX = " (requires trust)";

export function lensTitle(title: string, state: { running: boolean; queued?: boolean; trusted: boolean }): string {
  if (state.running) return RUNNING_TITLE;
  if (state.queued) return QUEUED_TITLE;
  if (!state.trusted && !title.endsWith(TRUST_SUFFIX)) return title + TRUST_SUFFIX;
  return title;
}
