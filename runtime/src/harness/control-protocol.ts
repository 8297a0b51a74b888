// The control pipe from the parent to the harness child: file descriptor 4, read by the child before any
// user code loads and closed before the file is imported, so the file sees the descriptors a child
// started for it would have (0 = /dev/null, 1 and 2 = output, 3 = the result channel). One line each,
// in this order:
//   <32 lowercase hex>                   the result channel's secret (channel-protocol.ts), at spawn;
//   {"preload": ["/abs/lib.mjs", ...]}   library files to import while waiting (none for a cold start);
//   {"run": "/abs/<key>.json"}           the bundle's metadata: run that file, now.
// A cold start writes the last two at once; a warm child gets the first when it is started and the second when a
// file is handed to it. Once the preloads are loaded the child answers `ready\n` on the same pipe. End of
// file before `run` (the parent discarded the child, or died) makes the child exit without running
// anything. Shared by the child and the parent.
export const CONTROL_FD = 4;

export const READY_LINE = "ready\n";

export type ControlMessage = { preload: string[] } | { run: string };

export function controlLine(message: ControlMessage): string {
  return `${JSON.stringify(message)}\n`;
}
