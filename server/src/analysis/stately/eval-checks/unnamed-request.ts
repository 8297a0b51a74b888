// unnamed-request where a missing name changes what runs: a runSeam scripts key that is a model key
// answers, in call order, every text call of that model whose name has no queue of its own. When two or
// more calls share it and one of them has no name (its name is a generated invoke id nobody writes),
// answers can reach the wrong call. (The machine check of the same code hints at every unnamed request.)
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import { finding, machineLabel } from "../checks/finding";
import type { EvalCall } from "../model";
import type { EvalFile } from "./eval-file";

export const unnamedRequestScripts: CheckDescriptor<EvalFile> = {
  code: "unnamed-request",
  severity: "warning",
  description: "A runSeam scripts key that is a model key answers two or more requests in call order, one of them unnamed (a warning).",
  when: "a `runSeam` scripts key that is a model key answers two or more requests, one of them unnamed, in call order",
  docs: "a `runSeam` `scripts` key that is a model key answers two or more requests, one of them unnamed, in call order (at the key)",
  run: ({ calls, requestNames }) => calls.flatMap((call) => sharedModelKeys(call, requestNames)),
};

function sharedModelKeys(call: EvalCall, requestNames: EvalFile["requestNames"]): Finding[] {
  const machine = call.machine;
  if (!machine || call.api !== "runSeam" || !call.scriptsComplete) return [];
  const names = requestNames(machine);
  if (!names) return [];
  const keys = new Set(call.scripts.map((k) => k.text));
  const out: Finding[] = [];
  for (const key of call.scripts) {
    if (names.requests.has(key.text) || !names.models.has(key.text)) continue;
    const fed = names.calls.filter((c) => c.kind === "text" && c.model === key.text && !keys.has(c.name));
    if (fed.length < 2 || !fed.some((c) => c.unnamed)) continue;
    const list = fed.map((c) => (c.unnamed ? `the unnamed request in state "${c.invoke.state.path.join(".")}" (named "${c.name}" by its invoke id)` : `"${c.name}"`)).join(", ");
    out.push(finding("unnamed-request", `scripts key "${key.text}" is a model key: it answers ${fed.length} requests of ${machineLabel(machine)} in call order — ${list}. Give the unnamed ones a name and key their answers by name, so each answer reaches the call it was written for.`, key));
  }
  return out;
}
