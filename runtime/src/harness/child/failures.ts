// Turns whatever user code threw into the event contract's FailureInfo.
import type { FailureInfo } from "@agent-lens/protocol";
import { toJsonSafe } from "./json-safe";
import type { UserCode } from "./locations";

export function failureFrom(error: unknown, user: UserCode, fallbackCode: string, prefix = ""): FailureInfo {
  if (error instanceof Error || (error && typeof error === "object" && "message" in error)) {
    const e = error as Error & { code?: unknown; expected?: unknown; actual?: unknown; operator?: unknown; generatedMessage?: boolean };
    const failure: FailureInfo = {
      message: `${prefix}${e.name && e.name !== "Error" && e.name !== "AssertionError" ? `${e.name}: ` : ""}${e.message}`,
      code: typeof e.code === "string" ? e.code : fallbackCode,
      location: user.firstUserFrame(e.stack),
      stack: e.stack,
    };
    if (e.code === "ERR_ASSERTION") {
      failure.expected = toJsonSafe(e.expected);
      failure.actual = toJsonSafe(e.actual);
      if (typeof e.operator === "string") failure.operator = e.operator;
    }
    return failure;
  }
  return { message: `${prefix}${typeof error === "string" ? error : JSON.stringify(toJsonSafe(error))} (a non-Error value was thrown)`, code: fallbackCode };
}
