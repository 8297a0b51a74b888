// Random bytes as lowercase hex, from the kernel's random source: /dev/urandom where it is a character
// device (Linux, macOS), else node:crypto (Windows, or no /dev/urandom). Loading node:crypto costs a process
// 6–9 ms (it pulls in node:stream and every cipher): the harness child makes its channel token with this
// before anything else runs, and the CLI its run token before it spawns the child.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export function randomHex(bytes: number): string {
  return fromUrandom(bytes) ?? (require("node:crypto") as typeof import("node:crypto")).randomBytes(bytes).toString("hex");
}

function fromUrandom(size: number): string | undefined {
  if (process.platform === "win32") return undefined;
  let fd: number | undefined;
  try {
    fd = openSync("/dev/urandom", "r");
    if (!fstatSync(fd).isCharacterDevice()) return undefined;
    const bytes = Buffer.alloc(size); // not from the shared pool: nothing else can read these bytes
    for (let got = 0; got < size;) {
      const n = readSync(fd, bytes, got, size - got, null);
      if (n <= 0) return undefined;
      got += n;
    }
    return bytes.toString("hex");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
