// Flow and step ids written as plain strings in eval code — `flowId: "retomar"`, `o.stepId === "w1"`,
// `assert.deepEqual(r.started.map((s) => s.flowId), ["retomar"])`. Turn results reach such code through
// helpers the analysis does not follow, so none is tied to a flow: each is an uncertain reference that
// rename offers for confirmation when a flow (or step) of that id is renamed in a file this one sees.
import type { AgentReference } from "../api";
import { nameUsesOf } from "../name-uses";
import { contentRangeOfTs } from "../ranges";
import type { Parsed } from "../resolve/declarations";

const KIND = { flowId: "flow", stepId: "step" } as const;

export function nameUseReferences(file: Parsed, out: AgentReference[]): void {
  for (const use of nameUsesOf(file.sf).uses) {
    if (use.property === "name") continue; // request names: the state-machine side's
    const kind = KIND[use.property];
    out.push({
      role: "name-use",
      kind,
      file: file.file,
      range: contentRangeOfTs(file.sf, use.literal),
      text: use.literal.text,
      uncertain: { ids: [], reason: `a ${kind} id in eval code the analysis cannot follow to its agent` },
    });
  }
}
