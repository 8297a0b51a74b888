// A `do` step: the host's action runs (also while silenced) under the step's key; what it returns moves the run.
import type { ActionResult, DoStep, Run, Step } from "../types";
import { parseDuration, tryParseDuration } from "../duration";
import { renderDeep } from "../template";
import { waitKeyOf } from "../keys";
import { errorText } from "../json";
import { follow, nextLabel } from "./next";
import { park } from "./starts";
import type { TurnState } from "./state";

/** The action's result as one of the four shapes, or the reason it is none of them. */
function readResult(r: unknown): ActionResult | string {
  if (!r || typeof r !== "object") return `the action returned ${r === undefined ? "nothing" : typeof r}, not { ok: true } | { skipped } | { failed } | { defer, detail }`;
  const o = r as Record<string, unknown>;
  if (o.ok === true) return o as ActionResult;
  if (typeof o.skipped === "string") return { skipped: o.skipped };
  if (typeof o.failed === "string") return { failed: o.failed };
  if (o.defer !== undefined) {
    if (tryParseDuration(o.defer) === undefined) return `the action deferred by ${JSON.stringify(o.defer)}, which is not a duration`;
    return { defer: o.defer as string, detail: typeof o.detail === "string" ? o.detail : "" };
  }
  return `the action returned ${JSON.stringify(r)}, which is not { ok: true } | { skipped } | { failed } | { defer, detail }`;
}

export async function runAction(s: TurnState, run: Run, step: Step<any, any> & DoStep): Promise<void> {
  const thenLabel = step.then === undefined ? {} : { next: nextLabel(s, run, step.then) };
  const failed = (detail: string) => {
    const target = step.onFail ?? step.then;
    s.line(run, "do", "failed", { code: "action-failed", detail, ...(target !== undefined ? { next: nextLabel(s, run, target) } : {}) });
    follow(s, run, target, step.onFail !== undefined ? "onFail" : "then");
  };
  const action = s.engine.actions[step.do];
  if (!action) return failed(`unknown action "${step.do}"`);
  const params = renderDeep(step.with ?? {}, s.scope(run)) as Record<string, unknown>;
  let result: ActionResult | string;
  try {
    result = readResult(
      await action.run(params, {
        context: s.context, data: s.session.data, input: run.input, run, key: s.keyOf(run), dedupeKey: run.dedupeKey,
        ...(s.silenced !== undefined ? { silenced: s.silenced } : {}), now: new Date(s.nowMs),
        set: (patch) => {
          for (const [k, v] of Object.entries(patch ?? {})) {
            if (v === undefined) delete s.session.data[k];
            else s.session.data[k] = v;
          }
        },
      }),
    );
  } catch (error) {
    result = { failed: errorText(error) };
  }
  if (typeof result === "string") return failed(result);
  if ("ok" in result) {
    if (result.spoke) s.spoke(run);
    s.line(run, "do", "ok", { ...(result.detail !== undefined ? { detail: result.detail } : {}), ...thenLabel });
    return follow(s, run, step.then);
  }
  if ("skipped" in result) {
    s.line(run, "do", "skipped", { code: "action-skipped", detail: result.skipped, ...thenLabel });
    return follow(s, run, step.then);
  }
  if ("failed" in result) return failed(result.failed);
  const atMs = s.nowMs + parseDuration(result.defer);
  park(s, run, waitKeyOf(run.id, step.id, atMs), atMs);
  s.line(run, "do", "deferred", { code: "action-deferred", detail: result.detail, until: new Date(atMs).toISOString() });
}
