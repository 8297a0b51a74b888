// agent-lens run stopped by Ctrl+C (SIGINT) with files still queued: the running file is cancelled, and the
// queued ones never start — no bundle, no process, nothing of their code runs — and each is reported
// cancelled (text and --json), so the report has no quiet gap; the command exits 1.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cliPath, ensureBuilt, jsonEvents, suiteCache, tempDir, writeFiles } from "./support";

const FILES = {
  // says it started (a file: text output comes only once a file ends), then waits far longer than the
  // test: only the signal ends it
  "a-slow.test.ts": `import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./a-started", import.meta.url), "");\nawait new Promise((r) => setTimeout(r, 60_000));\n`,
  // leaves a mark when its code runs at all
  "b-next.test.ts": `import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./b-ran", import.meta.url), "");\n`,
  "c-last.test.ts": `import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./c-ran", import.meta.url), "");\n`,
};

/** Runs the CLI on the three files, one at a time; sends SIGINT once the slow file has started. */
async function stoppedRun(dir: string, cache: string, json: boolean): Promise<{ code: number | null; stdout: string }> {
  const args = [cliPath(), "run", "--jobs", "1", ...(json ? ["--json"] : []), ...Object.keys(FILES)];
  const cli = spawn(process.execPath, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, AGENT_LENS_CACHE_DIR: cache, NO_COLOR: "1" } });
  let stdout = "";
  cli.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((r) => cli.on("exit", r));
  let signalled = false;
  const poll = setInterval(() => {
    if (signalled || !existsSync(join(dir, "a-started"))) return;
    signalled = true;
    cli.kill("SIGINT");
  }, 50);
  const code = await exited.finally(() => clearInterval(poll));
  assert.ok(signalled, `the slow file never started:\n${stdout}`);
  return { code, stdout };
}

describe("harness: agent-lens run stopped with files queued", function () {
  this.timeout(120_000);
  const cache = suiteCache();
  let dir: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    dir = tempDir("stop");
    writeFiles(dir, FILES);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("--json: the running file and the queued ones end cancelled; the queued ones' code never runs", async () => {
    const { code, stdout } = await stoppedRun(dir, cache(), true);
    assert.equal(code, 1, stdout);
    const events = jsonEvents(stdout);
    const ends = new Map(events.filter((e) => e.type === "end").map((e) => [String(e.file).split("/").at(-1), (e as { status?: string }).status]));
    assert.deepEqual(Object.fromEntries(ends), { "a-slow.test.ts": "cancelled", "b-next.test.ts": "cancelled", "c-last.test.ts": "cancelled" });
    for (const name of ["b-next.test.ts", "c-last.test.ts"]) {
      const own = events.filter((e) => String(e.file).endsWith(name)).map((e) => e.type);
      assert.deepEqual(own, ["start", "end"], `${name} only starts and ends: ${own.join(", ")}`);
    }
    assert.equal(existsSync(join(dir, "b-ran")), false, "b-next.test.ts did not run");
    assert.equal(existsSync(join(dir, "c-ran")), false, "c-last.test.ts did not run");
  });

  it("text: each file says CANCELLED, and the command exits 1", async () => {
    const { code, stdout } = await stoppedRun(dir, cache(), false);
    assert.equal(code, 1, stdout);
    for (const name of Object.keys(FILES)) assert.match(stdout, new RegExp(`CANCELLED {2}${name.replace(".", "\\.")}`), stdout);
    assert.equal(existsSync(join(dir, "b-ran")), false, "b-next.test.ts did not run");
  });
});
