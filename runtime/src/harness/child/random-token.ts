// The result channel's token: 16 random bytes as 32 hex digits, from the kernel's random source.
// Read from /dev/urandom where it is a character device (Linux, macOS): loading node:crypto for
// randomBytes costs the child ~15 ms at every start (it pulls in node:stream through its ciphers);
// node:crypto is the fallback (Windows, or no /dev/urandom).
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export const TOKEN_BYTES = 16;

export function randomToken(): string {
  return fromUrandom() ?? (require("node:crypto") as typeof import("node:crypto")).randomBytes(TOKEN_BYTES).toString("hex");
}

function fromUrandom(): string | undefined {
  if (process.platform === "win32") return undefined;
  let fd: number | undefined;
  try {
    fd = openSync("/dev/urandom", "r");
    if (!fstatSync(fd).isCharacterDevice()) return undefined;
    const bytes = Buffer.alloc(TOKEN_BYTES);
    for (let got = 0; got < TOKEN_BYTES;) {
      const n = readSync(fd, bytes, got, TOKEN_BYTES - got, null);
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
