// What a run lens says, given whether its run is queued or going, whether the workspace is trusted, and
// the verdict of its last run. Pure.

export const RUNNING_TITLE = "$(sync~spin) Running… (click to cancel)";
const QUEUED_TITLE = "$(clock) Queued… (click to cancel)";
const TRUST_SUFFIX = " (requires trust)";

/** `last`: the verdict line of the lens's last run (RunVerdict.text), said after the title. */
export function lensTitle(title: string, state: { running: boolean; queued?: boolean; trusted: boolean; last?: string }): string {
  if (state.running) return RUNNING_TITLE;
  if (state.queued) return QUEUED_TITLE;
  if (!state.trusted && !title.endsWith(TRUST_SUFFIX)) return title + TRUST_SUFFIX;
  return state.last ? `${title} (last run: ${state.last})` : title;
}
