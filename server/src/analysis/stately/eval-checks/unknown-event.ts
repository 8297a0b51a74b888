// unknown-event over an event log: matchesTrajectory expects an event type the machine neither declares
// nor handles. Built-in events (`xstate.*`, `@...`, `agent.*`), events a handled wildcard (`"*"`,
// `"user.*"`) matches, and state names (a deliberate non-match) are fine. (Flows have a check of the same
// code: falai/checks/unknown-event.ts.)
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import { findingWithNearest, machineLabel } from "../checks/finding";
import { machineEvents } from "../events";
import type { EvalCall, Text } from "../model";
import type { EvalFile } from "./eval-file";

export const unknownEventInLog: CheckDescriptor<EvalFile> = {
  code: "unknown-event",
  severity: "error",
  description: "matchesTrajectory over an event log expects an event type the machine neither declares nor handles.",
  when: "`matchesTrajectory` over an event log (`result.events`) expects an event type the machine neither declares nor handles",
  docs: "`matchesTrajectory` over an event log expects an event type the machine neither declares nor handles",
  quickFix: "change to the nearest event",
  run: ({ calls }) => calls.flatMap(eventRefs),
};

function eventRefs(call: EvalCall): Finding[] {
  const machine = call.machine;
  if (!machine || call.eventRefs.length === 0) return [];
  const events = machineEvents(machine);
  if (!events) return [];
  const states = new Set(machine.states.map((s) => s.key));
  const wildcards = wildcardPrefixes(events);
  const out: Finding[] = [];
  for (const ref of call.eventRefs) {
    if (events.has(ref.text) || states.has(ref.text) || isBuiltInEvent(ref) || matchesWildcard(ref.text, wildcards)) continue;
    out.push(findingWithNearest("unknown-event", `${call.api}: ${machineLabel(machine)} neither declares nor handles an event "${ref.text}".`, ref, events));
  }
  return out;
}

/** What the handled wildcard descriptors (`"*"`, `"user.*"`) match: events starting with these prefixes. */
function wildcardPrefixes(events: Set<string>): string[] {
  const prefixes: string[] = [];
  for (const e of events) if (e === "*" || e.endsWith(".*")) prefixes.push(e.slice(0, -1));
  return prefixes;
}

function matchesWildcard(type: string, prefixes: string[]): boolean {
  for (const p of prefixes) if (type.startsWith(p)) return true;
  return false;
}

function isBuiltInEvent(ref: Text): boolean {
  const t = ref.text;
  return t.startsWith("xstate.") || t.startsWith("@") || t.startsWith("agent.") || t.includes("*") || t === "";
}
