// State references in verification helpers: a state is named by its key ("scoring") or a dotted path
// ("review.waiting"); a reference matches a dotted state value when its segments appear in order and
// contiguously in one of the value's leaf paths.
import { AgentError } from "../errors";

export function refMatches(ref: string, dottedValue: string): boolean {
  const want = ref.split(".");
  return dottedValue.split(",").some((leaf) => {
    const have = leaf.split(".");
    for (let i = 0; i + want.length <= have.length; i++) {
      if (want.every((seg, j) => have[i + j] === seg)) return true;
    }
    return false;
  });
}

/** A state reference that names no state of the machine (code `unknown-state`); `target` is the reference. */
export class AgentUnknownStateError extends AgentError {
  readonly target: string;

  constructor(api: string, target: string, states: string[]) {
    super("unknown-state", `${api}: the machine has no state "${target}"; its states: ${states.join(", ")}.`);
    this.name = "AgentUnknownStateError";
    this.target = target;
  }
}

/** Throws AgentUnknownStateError when a reference names no state of the machine. */
export function checkStateRef(ref: string, states: string[], api: string): void {
  if (typeof ref !== "string" || ref === "" || !states.some((s) => refMatches(ref, s))) {
    throw new AgentUnknownStateError(api, String(ref), states);
  }
}
