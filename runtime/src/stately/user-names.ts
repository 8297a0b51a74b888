// The names a user reads in the runtime's messages. XState writes its state node ids — "(machine).summarizing",
// "(machine)" for the root of a machine without an `id` — and generated invoke ids ("0.(machine).titling");
// the user wrote state paths ("summarizing") and gave the machine a variable name. Every error a run
// settles with (run-engine) and every transition explorePaths sees rejected passes through here once, so
// the message says `state "summarizing"` and `the machine` instead; the original text stays on the error
// as `rawMessage` (the editor shows it on hover).
import { stateTree, type AnyStateMachine, type StateNodeView } from "./xstate";

/** XState's default id of a machine written without an `id`. */
const DEFAULT_MACHINE_ID = "(machine)";

interface Names {
  /** XState id (or `machine '<root id>'`) → what the user calls it, longest first (an id may prefix another). */
  ids: Array<[string, string]>;
}

const cache = new WeakMap<AnyStateMachine, Names>();

function namesOf(machine: AnyStateMachine): Names {
  let names = cache.get(machine);
  if (!names) {
    const ids: Array<[string, string]> = [];
    const walk = (node: StateNodeView): void => {
      if (typeof node.id !== "string" || !node.id) return;
      ids.push([node.id, node.path ? `state "${node.path}"` : machineName(node.id)]);
      // XState writes the root both as '<id>' and as machine '<id>'.
      if (!node.path) ids.push([`machine '${node.id}'`, machineName(node.id)]);
      node.children.forEach(walk);
    };
    walk(stateTree(machine));
    ids.sort((a, b) => b[0].length - a[0].length);
    names = { ids };
    cache.set(machine, names);
  }
  return names;
}

function machineName(id: string): string {
  return id === DEFAULT_MACHINE_ID ? "the machine" : `machine "${id}"`;
}

/** `0.(machine).titling` (a generated invoke id: the index of the invoke, then its state's id) → the
 *  unnamed request of state "titling"; any other name stays as it is. */
export function requestLabel(machine: AnyStateMachine, name: string): string {
  const generated = /^(\d+)\.(.+)$/.exec(name);
  const state = generated ? namesOf(machine).ids.find(([id]) => id === generated[2]) : undefined;
  return state ? `the unnamed request of ${state[1]}` : name;
}

/** A message with the machine's XState ids, where XState quotes them ('…'), in the user's names. */
export function readableIds(machine: AnyStateMachine, message: string): string {
  let out = message;
  for (const [id, name] of namesOf(machine).ids) {
    // XState quotes ids with single quotes (ours are double: a message is never translated twice over).
    out = out.split(id.startsWith("machine '") ? id : `'${id}'`).join(name);
  }
  return out;
}

/** The error with its message in the user's names (the original kept as `rawMessage`). Not an Error: as it is. */
export function readableError<T>(machine: AnyStateMachine, error: T): T {
  if (!(error instanceof Error) || "rawMessage" in error) return error;
  try {
    const readable = readableIds(machine, error.message);
    if (readable !== error.message) {
      Object.defineProperty(error, "rawMessage", { value: error.message, enumerable: false, configurable: true });
      error.message = readable;
    }
  } catch {
    // a machine whose tree cannot be read: the message stays XState's
  }
  return error;
}
