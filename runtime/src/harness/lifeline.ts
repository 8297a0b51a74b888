// Children die with their parent. A run's child lives in its own process group (so it can be killed as a
// whole) and is not in the terminal's, so a closed terminal (SIGHUP), a CI runner's cancel or a SIGKILL of
// the CLI or of VS Code's extension host would leave it running with no time limit. The child cannot be
// trusted to notice by itself: the user's code may keep its event loop busy forever. So each parent process
// keeps one tiny supervisor (a POSIX shell, started on first use, in its own session so the terminal's
// signals do not reach it) whose stdin is a pipe from the parent: the parent tells it each child's process
// group and run token as the child starts ("add"), and when the run is over ("del"). When the pipe closes
// with runs still listed — the parent died, however — it SIGKILLs their groups and every process carrying
// their run tokens (Linux: /proc/<pid>/environ, as process-tree.ts does). One process per parent, not per
// run: ~1 ms to start once. Not on Windows (no sh; the job object is the platform's way, not built).
import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { RUN_TOKEN_VAR } from "./process-tree";

/** The supervisor: reads `add <group> <token>` / `del <group>` lines until end of file; then, if any run is
 *  still listed, kills it. */
const SCRIPT = `
groups=
while IFS=' ' read -r what group token; do
  case $what in
    add) groups="$groups $group:$token" ;;
    del) kept=; for entry in $groups; do [ "\${entry%%:*}" = "$group" ] || kept="$kept $entry"; done; groups=$kept ;;
  esac
done
[ -n "$groups" ] || exit 0
for entry in $groups; do kill -s KILL -- "-\${entry%%:*}" 2>/dev/null; done
for entry in $groups; do
  for file in $(grep -lzsE "^${RUN_TOKEN_VAR}=(.* )?\${entry#*:}( .*)?\\$" /proc/[0-9]*/environ 2>/dev/null); do
    pid=\${file#/proc/}; kill -s KILL "\${pid%/environ}" 2>/dev/null
  done
done
`;

// On globalThis: the CLI's two bundles (agent-lens.js, which starts the early child, and run.js) each carry
// their own copy of this module, and one supervisor must watch both.
const KEY = Symbol.for("agent-lens.lifeline");
type Slot = { supervisor?: ChildProcess; input?: Writable; failed?: boolean };

function slot(): Slot {
  const g = globalThis as Record<symbol, unknown>;
  return (g[KEY] ??= {}) as Slot;
}

function supervisorInput(): Writable | undefined {
  const s = slot();
  if (s.input || s.failed) return s.input;
  if (process.platform === "win32") {
    s.failed = true;
    return undefined;
  }
  try {
    // Without our run token variable: the supervisor is not a process of any run (an outer run's scan
    // must not take it for something its file left behind).
    const env = { ...process.env };
    delete env[RUN_TOKEN_VAR];
    const supervisor = spawn("/bin/sh", ["-c", SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true, env });
    supervisor.on("error", () => {
      s.failed = true;
      s.input = undefined;
    });
    supervisor.stdin!.on("error", () => undefined);
    // It must not keep the parent alive: the parent's exit is what it waits for.
    supervisor.unref();
    (supervisor.stdin as unknown as { unref?: () => void }).unref?.();
    s.supervisor = supervisor;
    s.input = supervisor.stdin!;
  } catch {
    s.failed = true;
  }
  return s.input;
}

/** Puts a child's run (its process group and run token) under the supervisor; returns the call that takes
 *  it off again, once the run is over and everything of it is gone. */
export function superviseRun(group: number, token: string): () => void {
  const input = supervisorInput();
  if (!input || !/^[0-9a-f]+$/.test(token)) return () => undefined;
  input.write(`add ${group} ${token}\n`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (!input.destroyed) input.write(`del ${group}\n`);
  };
}
