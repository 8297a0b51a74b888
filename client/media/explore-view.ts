// The panel's explorePaths result: its terminal paths (states, events, how each ended) with the counts —
// states reached, transitions XState rejected, paths pruned by guards, the path cap. Text only.
import { describeEvent } from "../src/panel/event-names";
import type { El } from "./dom";

export interface ExploreDraw {
  h(tag: string, attrs: Record<string, string | undefined> | null, ...children: Array<El | string | null | undefined | false>): El;
  table(head: string[], rows: Array<Array<string | El>>, cls: string): El;
}

export interface ExploreData {
  terminals: Array<{ states?: string[]; events?: string[]; end?: string }>;
  reachedStates?: string[];
  prunedByGuard?: number;
  hitPathCap?: boolean;
  errors?: Array<{ state: string; event: string; message: string }>;
}

export function isExplore(data: unknown): data is ExploreData {
  return !!data && typeof data === "object" && Array.isArray((data as ExploreData).terminals);
}


export function drawExplore(r: ExploreDraw, result: ExploreData): El {
  return r.h("div", { class: "explore" },
    r.h("p", null,
      r.h("span", { class: "badge" }, `${result.terminals.length} terminal path${result.terminals.length === 1 ? "" : "s"}`),
      Array.isArray(result.reachedStates) ? r.h("span", { class: "badge" }, `${result.reachedStates.length} state${result.reachedStates.length === 1 ? "" : "s"} reached`) : null,
      result.errors?.length ? r.h("span", { class: "badge error rejected" }, `${result.errors.length} transition${result.errors.length === 1 ? "" : "s"} rejected by XState`) : null,
      result.prunedByGuard ? r.h("span", { class: "badge warn" }, `${result.prunedByGuard} pruned by guards`) : null,
      result.hitPathCap ? r.h("span", { class: "badge warn" }, "path cap hit") : null),
    r.table(["#", "path", "events", "end"], result.terminals.map((t, i) => [
      String(i + 1),
      r.h("div", { class: "path" }, ...(t.states ?? []).map((st) => r.h("span", { class: "chip" }, st))),
      r.h("span", { class: "event-path" }, ...(t.events ?? []).flatMap((e, i) => {
        const name = describeEvent(e);
        return [i ? " → " : "", r.h("code", { class: "event", title: name.raw }, name.text)];
      })),
      r.h("span", { class: `status status-${t.end === "done" ? "done" : t.end === "error" ? "error" : "idle"}` }, String(t.end ?? "")),
    ]), "terminals"),
  );
}
