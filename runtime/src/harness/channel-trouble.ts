// What went wrong on a file's result channel, gathered from the reader's items into one failure of that
// file: bytes someone else wrote, frames the parent could not accept, a channel that never opened, or
// a run whose last word (`done`) never came.
import { sampleOf, SAMPLE_BYTES, type ChannelItem } from "./channel-reader";
import type { FailureInfo } from "@agent-lens/protocol";

export class ChannelTrouble {
  private foreignBytes = 0;
  // The start of the foreign bytes, however they were split into chunks (so a message does not depend
  // on how the pipe happened to deliver them).
  private foreignHead = Buffer.alloc(0);
  private invalidFrames = 0;
  private firstInvalid = "";

  note(item: Exclude<ChannelItem, { kind: "frame" }>): void {
    if (item.kind === "foreign") {
      if (this.foreignHead.length < SAMPLE_BYTES) this.foreignHead = Buffer.concat([this.foreignHead, item.head]).subarray(0, SAMPLE_BYTES);
      this.foreignBytes += item.bytes;
    } else {
      if (!this.invalidFrames) this.firstInvalid = `${item.reason}${item.sample ? `: ${item.sample}` : ""}`;
      this.invalidFrames++;
    }
  }

  /** The failure for bytes and frames that did not belong, if there were any. */
  failure(): FailureInfo | undefined {
    const parts: string[] = [];
    if (this.foreignBytes) {
      parts.push(`something other than the harness wrote ${this.foreignBytes} byte${this.foreignBytes === 1 ? "" : "s"} to it (file descriptor 3), starting ${sampleOf(this.foreignHead, this.foreignBytes)}`);
    }
    if (this.invalidFrames) parts.push(`${this.invalidFrames} frame${this.invalidFrames === 1 ? " was" : "s were"} refused (${this.firstInvalid})`);
    if (!parts.length) return undefined;
    return {
      message: `The result channel was tampered with: ${parts.join("; ")}. The results that did arrive are kept, but the file cannot pass: its report may be incomplete.`,
      code: "channel",
    };
  }
}

/** The failure of a run whose channel never opened, or whose final `done` never came. */
export function silentChildFailure(opened: boolean, exitCode: number | null, stderrTail: string): FailureInfo {
  const said = stderrTail.trim().split("\n").slice(-8).join("\n");
  const tail = said ? `:\n${said}` : "";
  if (!opened) return { message: `The harness child never opened its result channel (exit code ${exitCode})${tail}`, code: "channel" };
  return {
    message: `The run ended without the harness child's final report (exit code ${exitCode}): the file closed or replaced the result channel (file descriptor 3), or ended the process without running its exit handlers, so its results may be incomplete${tail}`,
    code: "channel",
  };
}
