// direct-object-src: an agent machine's invoke `src` is actor logic or a machine value, which executors
// cannot rebind.
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef } from "../model";
import { finding } from "./finding";

export const directObjectSrc: CheckDescriptor<MachineDef> = {
  code: "direct-object-src",
  severity: "warning",
  description: "An invoke src is an actor-logic object or machine value that executors cannot rebind.",
  when: "an invoke `src` is an actor-logic object or machine value that executors cannot rebind",
  docs: "an agent machine's invoke `src` is actor logic or a machine value that executors cannot rebind",
  run(machine) {
    if (machine.kind !== "agent") return [];
    const out: Finding[] = [];
    for (const invoke of machine.invokes) {
      if (invoke.src.kind !== "object") continue;
      out.push(finding("direct-object-src", `invoke src is ${invoke.src.what}: executors cannot rebind it. Declare it in setupAgent({ actors }) and invoke it by name.`, { at: invoke.src.at, node: invoke.src.node }));
    }
    return out;
  },
};
