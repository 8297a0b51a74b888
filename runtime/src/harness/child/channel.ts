// The child's private channel to the parent: file descriptor 3, one JSON event per line, written
// synchronously so nothing is lost when the process exits.
import { writeSync } from "node:fs";
import type { HarnessEvent } from "../events";
import { toJsonSafe } from "./json-safe";

export const CHANNEL_FD = 3;
let broken = false;

export function emit(event: HarnessEvent): void {
  if (broken) return;
  let line: string;
  try {
    line = `${JSON.stringify(toJsonSafe(event))}\n`;
  } catch (error) {
    line = `${JSON.stringify({ type: "console", stream: "stderr", text: `agent-lens: could not serialise an event: ${String(error)}\n` })}\n`;
  }
  const bytes = Buffer.from(line);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(CHANNEL_FD, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue; // a full non-blocking pipe: retry
      broken = true; // the parent is gone; nothing to tell
      return;
    }
  }
}
