// runEvalFile's third step (run-file.ts): the file handed to its child and run to the end under the time
// limit, the memory limit and cancellation. The child's frames (read off its private channel) and its
// output become the run's events; what it left running is killed; what happened is the ChildOutcome the
// verdict (run-verdict.ts) is made of.
import type { ChildFrame } from "./channel-protocol";
import { ChannelReader, loadFrameSchema, type ChannelItem } from "./channel-reader";
import { ChannelTrouble } from "./channel-trouble";
import type { ChildExit, HarnessChild } from "./child-process";
import { MemoryWatch } from "./memory-watch";
import { ProcessTree, type ProcessInfo } from "./process-tree";
import type { RunLog } from "./run-log";
import type { TestEndEvent } from "./run-types";

/** How much of the child's raw stderr is kept: enough for V8's out-of-memory report and its native stack. */
const STDERR_KEPT = 16 * 1024;

export interface ChildOutcome {
  exit: ChildExit;
  /** The exit code the child's last frame said, when it came (without it the run did not end normally). */
  doneExitCode: number | undefined;
  /** Whether the channel was opened by the child (channel-trouble.ts tells a silent child apart). */
  channelOpened: boolean;
  /** Frames that were not the child's, or a channel cut short. */
  trouble: ChannelTrouble;
  /** The last of the child's raw stderr. */
  stderrTail: string;
  /** A plain script's one test-end, held back until leftovers are known. */
  heldFileEnd: TestEndEvent | undefined;
  timedOut: boolean;
  cancelled: boolean;
  /** Resident MB when the memory limit ended the file. */
  overMemoryMb: number | undefined;
  /** Processes the file left running after it finished (killed now). */
  survivors: ProcessInfo[];
}

export interface ChannelLimits {
  timeoutMs: number;
  maxRssMb: number | undefined;
  usesNodeTest: boolean;
  cancelled(): boolean;
  onCancel(fn: () => void): void;
}

export async function runOnChannel(child: HarnessChild, metaFile: string, log: RunLog, limits: ChannelLimits): Promise<ChildOutcome> {
  const { fileTest } = log;
  // In a plain script the file is the one test; hold its end back until leftovers are known.
  let heldFileEnd: TestEndEvent | undefined;
  let doneExitCode: number | undefined;
  let stderrTail = "";
  const reader = new ChannelReader(child.channelSecret);
  const trouble = new ChannelTrouble();
  const onFrame = (frame: ChildFrame) => {
    if (frame.type !== "done") log.recordings.note(frame);
    if (frame.type === "done") doneExitCode = frame.exitCode;
    else if (frame.type === "test-end" && !limits.usesNodeTest && frame.test === fileTest) heldFileEnd = frame;
    else log.forward(frame);
  };
  const take = (items: ChannelItem[]) => {
    for (const item of items) {
      if (item.kind === "frame") onFrame(item.frame);
      else trouble.note(item);
    }
  };
  const channel = child.channel;
  let channelEnded = false;
  const endChannel = () => {
    if (channelEnded) return;
    channelEnded = true;
    take(reader.end());
  };
  channel.on("data", (chunk: Buffer) => take(reader.push(chunk)));
  channel.once("end", endChannel);
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].setEncoding("utf8");
    child[stream].on("data", (text: string) => {
      if (stream === "stderr") stderrTail = (stderrTail + text).slice(-STDERR_KEPT);
      log.forward({ type: "console", stream, text, test: limits.usesNodeTest ? undefined : fileTest });
    });
  }

  // The file is handed over now: its time limit and the watch over its processes start here.
  child.run(metaFile);
  // Loaded now, not before the handover: the child's start-up is behind it (or well under way), and this
  // sync work is done before the first frame can be read anyway.
  loadFrameSchema();
  const tree = child.pid ? new ProcessTree(child.pid, child.runToken) : undefined;
  let timedOut = false;
  let cancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    tree?.killAll();
  }, limits.timeoutMs);
  limits.onCancel(() => {
    cancelled = true;
    tree?.killAll();
  });
  let overMemoryMb: number | undefined;
  const memory = limits.maxRssMb !== undefined && child.pid ? new MemoryWatch(child.pid, limits.maxRssMb, (mb) => {
    overMemoryMb = mb;
    tree?.killAll();
  }) : undefined;
  if (limits.cancelled()) {
    cancelled = true;
    tree?.killAll();
  }

  const exit = await child.exited;
  clearTimeout(timer);
  memory?.stop();
  tree?.stop();

  // Anything the file left running is killed, then reported. (After a timeout or a cancel everything was
  // killed already; the wait makes sure it is gone.)
  const killed = timedOut || cancelled || overMemoryMb !== undefined;
  const survivors: ProcessInfo[] = tree && !killed ? tree.survivors() : [];
  if (survivors.length || killed) await tree?.killAllAndWait(survivors);
  // Wait for the pipes to drain (they close once every holder of them is gone).
  await child.drained(2000);
  child.release();
  endChannel();
  return { exit, doneExitCode, channelOpened: reader.opened, trouble, stderrTail, heldFileEnd, timedOut, cancelled, overMemoryMb, survivors };
}
