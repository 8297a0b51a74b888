// Where the run history lives in VS Code: one JSON file in the extension's workspace storage
// (ExtensionContext.storageUri — outside the workspace, per workspace), or nowhere when VS Code gives none
// (no folder open: the history then lasts the session). Written off the run's path, at most every 500 ms,
// and at once when the extension deactivates.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { HistoryStore } from "./history";

export function fileHistoryStore(folder: string | undefined, log: (line: string) => void): HistoryStore {
  if (!folder) return { read: () => undefined, write: () => undefined };
  const file = join(folder, "run-history.json");
  let pending: (() => string) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    timer = undefined;
    const make = pending;
    pending = undefined;
    if (!make) return;
    try {
      const text = make();
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    } catch (error) {
      log(`run history not saved (${file}): ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return {
    read() {
      try {
        mkdirSync(folder, { recursive: true });
        return readFileSync(file, "utf8");
      } catch {
        return undefined;
      }
    },
    write(text) {
      pending = text;
      timer ??= setTimeout(() => void flush(), 500);
    },
    flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const make = pending;
      pending = undefined;
      if (!make) return;
      try {
        writeFileSync(file, make());
      } catch (error) {
        log(`run history not saved (${file}): ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
