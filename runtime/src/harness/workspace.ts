// The workspace folder of an eval file: the child's working directory and the root of the user's files.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The nearest folder above the file with a package.json, else the file's folder. */
export function workspaceOf(file: string): string {
  let dir = dirname(resolve(file));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const up = dirname(dir);
    if (up === dir) return dirname(resolve(file));
    dir = up;
  }
}
