// What a run lens says, given whether its run is going and whether the workspace is trusted. Pure.

export const RUNNING_TITLE = "$(sync~spin) Running… (click to cancel)";
export const TRUST_SUFFIX = " (requires trust)";

export function lensTitle(title: string, state: { running: boolean; trusted: boolean }): string {
  if (state.running) return RUNNING_TITLE;
  if (!state.trusted && !title.endsWith(TRUST_SUFFIX)) return title + TRUST_SUFFIX;
  return title;
}
