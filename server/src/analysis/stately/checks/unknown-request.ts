// unknown-request: an invoke `src` names neither a declared request, a declared actor, nor a built-in
// agent.* source (quiet when the declarations could not be read whole, or on a plain createMachine).
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef } from "../model";
import { findingWithNearest } from "./finding";

/** Names an invoke src may use, or undefined when they cannot be known (plain createMachine, or a config
 *  with parts that could not be read). */
function knownSrcNames(machine: MachineDef): Set<string> | undefined {
  if (machine.kind === "agent" && machine.agent) {
    if (!machine.agent.requestsComplete || !machine.agent.actorsComplete) return undefined;
    return new Set([...machine.agent.requests.keys(), ...machine.agent.actors.keys()]);
  }
  if (machine.kind === "setup" && machine.setupActors && machine.setupActorsComplete) return new Set(machine.setupActors.keys());
  return undefined;
}

export const unknownRequest: CheckDescriptor<MachineDef> = {
  code: "unknown-request",
  severity: "error",
  description: "An invoke src is neither a declared request, a declared actor, nor a built-in agent.* source.",
  when: "`invoke.src` is neither a declared request, a declared actor, nor a built-in `agent.*`",
  docs: "`invoke.src` is neither a declared request, a declared actor, nor a built-in `agent.*`",
  quickFix: "change to the nearest request or actor",
  run(machine) {
    const known = knownSrcNames(machine);
    if (!known) return [];
    const out: Finding[] = [];
    for (const invoke of machine.invokes) {
      const src = invoke.src;
      if (src.kind !== "string" || src.text.startsWith("agent.") || known.has(src.text)) continue;
      const what = machine.kind === "agent" ? "a request or actor declared in setupAgent" : "an actor declared in setup";
      out.push(findingWithNearest("unknown-request", `invoke src "${src.text}" is not ${what}.`, src, known));
    }
    return out;
  },
};
