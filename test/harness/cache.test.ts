// A cache nobody else can poison: a per-user folder (XDG cache, else the platform's), mode 0700, owner
// checked, and a cached bundle runs only when its bytes still match what was built for its key.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, cpSync, existsSync, lchownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filesIntact, makePrivateFolder, usableCacheDir } from "../../runtime/src/harness/cache";
import { cliPath, ensureBuilt, fixtures, jsonEvents, psSurvivors, runCollect, tempDir } from "./support";

const PLANTED = "planted code ran";
const isRoot = process.getuid?.() === 0;

/** agent-lens run --json of basic/passes.test.ts with the given cache environment: its one test must pass
 *  and nothing of the run may be left in `ps`, whichever cache it used. */
function runWith(env: Record<string, string | undefined>): { status: number | null; stdout: string; stderr: string; ran: string[] } {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete base.AGENT_LENS_CACHE_DIR;
  delete base.XDG_CACHE_HOME;
  const r = spawnSync(process.execPath, [cliPath(), "run", "--json", "basic/passes.test.ts"], { cwd: fixtures, encoding: "utf8", env: { ...base, ...env }, timeout: 60_000 });
  const events = jsonEvents(r.stdout);
  assert.deepEqual(events.filter((e) => e.type === "test-end").map((e) => [e.test, e.status]), [["passes.test.ts", "passed"]], r.stdout + r.stderr);
  const start = events.find((e) => e.type === "start");
  assert.deepEqual(psSurvivors(start?.pid, [join(fixtures, "basic")]), []);
  const ran = events.filter((e) => e.type === "console").map((e) => e.text ?? "");
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ran };
}

/** Rewrites the one cached bundle under `cache` so it prints PLANTED, with its recorded hash updated to
 *  match (what someone able to write the folder could do). */
function plant(cache: string): void {
  const bundles = join(cache, "bundles");
  const bundle = readdirSync(bundles).find((f) => f.endsWith(".mjs"))!;
  const text = `console.log(${JSON.stringify(PLANTED)});\n${readFileSync(join(bundles, bundle), "utf8")}`;
  writeFileSync(join(bundles, bundle), text);
  const metaFile = join(bundles, bundle.replace(/\.mjs$/, ".json"));
  const meta = JSON.parse(readFileSync(metaFile, "utf8")) as { sha256: string };
  meta.sha256 = createHash("sha256").update(text).digest("hex");
  writeFileSync(metaFile, JSON.stringify(meta));
}

const mode = (p: string) => statSync(p).mode & 0o777;

describe("harness: the bundle cache", function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const temp = (p: string) => {
    const d = tempDir(p);
    dirs.push(d);
    return d;
  };
  before(() => ensureBuilt());
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("defaults to $XDG_CACHE_HOME/agent-lens, else ~/.cache/agent-lens, created private (0700) — never a shared /tmp folder", () => {
    const xdg = temp("xdg");
    assert.equal(runWith({ XDG_CACHE_HOME: xdg }).status, 0);
    assert.ok(readdirSync(join(xdg, "agent-lens", "bundles")).some((f) => f.endsWith(".mjs")));
    assert.equal(mode(join(xdg, "agent-lens")), 0o700);
    assert.equal(statSync(join(xdg, "agent-lens")).uid, process.getuid!());

    const home = temp("home");
    assert.equal(runWith({ HOME: home, XDG_CACHE_HOME: "relative/ignored" }).status, 0);
    assert.ok(existsSync(join(home, ".cache", "agent-lens", "bundles")));
    assert.equal(mode(join(home, ".cache", "agent-lens")), 0o700);
    assert.ok(!existsSync(join(fixtures, "basic", "relative")), "a relative XDG_CACHE_HOME is not used");
  });

  it("runs a cached bundle only when its bytes still match what was built: a tampered one is rebuilt, never run", () => {
    const cache = temp("cache");
    assert.equal(runWith({ AGENT_LENS_CACHE_DIR: cache }).status, 0);
    const bundles = join(cache, "bundles");
    const bundle = readdirSync(bundles).find((f) => f.endsWith(".mjs"))!;
    writeFileSync(join(bundles, bundle), `console.log(${JSON.stringify(PLANTED)});\n${readFileSync(join(bundles, bundle), "utf8")}`);
    const r = runWith({ AGENT_LENS_CACHE_DIR: cache });
    assert.equal(r.status, 0);
    assert.ok(!r.ran.includes(`${PLANTED}\n`), "the tampered bundle did not run");
    assert.doesNotMatch(readFileSync(join(bundles, bundle), "utf8"), new RegExp(PLANTED), "it was rebuilt");
  });

  it("refuses a folder that belongs to another user: the planted bundle in it never runs, the run still passes", () => {
    const cache = temp("cache");
    if (isRoot) {
      // First as our own: prove the plant works when the folder is trusted.
      assert.equal(runWith({ AGENT_LENS_CACHE_DIR: cache }).status, 0);
      plant(cache);
      assert.ok(runWith({ AGENT_LENS_CACHE_DIR: cache }).ran.includes(`${PLANTED}\n`), "control: a planted bundle in a trusted folder runs");
      spawnSync("chown", ["-R", "65534:65534", cache]);
      const before = readdirSync(join(cache, "bundles")).sort();
      const r = runWith({ AGENT_LENS_CACHE_DIR: cache });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(!r.ran.includes(`${PLANTED}\n`), "the other user's bundle did not run");
      assert.match(r.stderr, new RegExp(`^agent-lens: not using the cache folder ${cache}: it belongs to another user \\(uid 65534; you are 0\\)\\. Bundles are built in \\S+ for now`));
      assert.deepEqual(readdirSync(join(cache, "bundles")).sort(), before, "nothing was written into it");
    } else {
      // Without root no folder can be given away; a root-owned one is refused the same way, untouched.
      const r = runWith({ AGENT_LENS_CACHE_DIR: "/usr" });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /not using the cache folder \/usr: it belongs to another user \(uid 0;/);
    }
  });

  it("an own folder others could write to is made private and its bundles are thrown away, planted ones included", () => {
    const cache = temp("cache");
    assert.equal(runWith({ AGENT_LENS_CACHE_DIR: cache }).status, 0);
    plant(cache);
    chmodSync(cache, 0o777);
    const r = runWith({ AGENT_LENS_CACHE_DIR: cache });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.ran.includes(`${PLANTED}\n`), "the planted bundle did not run");
    assert.equal(mode(cache), 0o700);
    assert.equal(r.stderr, "", "no warning: the folder is usable once private");
  });

  it("makePrivateFolder: a link owned by someone else, a file, and a folder to create", function () {
    const base = temp("private");
    const fresh = join(base, "a", "b");
    assert.equal(makePrivateFolder(fresh), undefined);
    assert.equal(mode(fresh), 0o700);
    writeFileSync(join(base, "file"), "");
    assert.match(makePrivateFolder(join(base, "file")) ?? "", /cannot be created|not a folder/);
    mkdirSync(join(base, "target"), { mode: 0o700 });
    symlinkSync(join(base, "target"), join(base, "link"));
    assert.equal(makePrivateFolder(join(base, "link")), undefined, "our own link to our own folder is fine");
    if (isRoot) {
      lchownSync(join(base, "link"), 65534, 65534);
      assert.match(makePrivateFolder(join(base, "link")) ?? "", /symbolic link that belongs to another user \(uid 65534/);
      mkdirSync(join(base, "theirs"));
      chownSync(join(base, "theirs"), 65534, 65534);
      cpSync(join(base, "target"), join(base, "theirs", "x"), { recursive: true });
      assert.match(makePrivateFolder(join(base, "theirs")) ?? "", /belongs to another user/);
      assert.notEqual(mode(join(base, "theirs")) & 0o077, 0, "another user's folder is not touched");
    }
  });

  it("a regular file named bundles in the cache: the run passes on a private temporary folder and says why (was 'internal error: EEXIST' for the whole run, exit 2)", () => {
    const cache = temp("cache");
    writeFileSync(join(cache, "bundles"), "");
    const r = runWith({ AGENT_LENS_CACHE_DIR: cache });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`^agent-lens: not using the cache folder ${cache}: ${cache}/bundles is not a folder \\(remove it; the harness makes its own folder\\)\\. Bundles are built in \\S+ for now`));
    assert.equal(readFileSync(join(cache, "bundles"), "utf8"), "", "the file was left alone");
  });

  it("something in the way of a bundle while a process runs files: that file fails with a clear message, the next one runs", async () => {
    const cache = temp("cache");
    assert.equal(usableCacheDir(cache).dir, cache, "the folder is fine when the process first checks it");
    writeFileSync(join(cache, "bundles"), ""); // then, while the process lives (an extension host), a file is put there
    const { result } = await runCollect({ file: join(fixtures, "basic/passes.test.ts"), cacheDir: cache });
    assert.equal(result.status, "failed");
    assert.equal(result.tests[0]?.failure?.code, "cache");
    assert.equal(result.tests[0]?.failure?.message, `Not run: the bundle could not be written into the cache folder ${cache}: something that is not a folder is in the way (${join(cache, "bundles")}). Remove it, or set AGENT_LENS_CACHE_DIR to another folder.`);
    rmSync(join(cache, "bundles"));
    assert.equal((await runCollect({ file: join(fixtures, "basic/passes.test.ts"), cacheDir: cache })).result.status, "passed");
  });

  it("filesIntact: a file checked once is checked again after any write, even one that keeps its size and modification time", () => {
    const dir = tempDir("intact");
    const file = join(dir, "lib.mjs");
    writeFileSync(file, "export const a = 1;\n");
    const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
    assert.equal(filesIntact([{ file, sha256 }]), true);
    assert.equal(filesIntact([{ file, sha256 }]), true, "unchanged: still intact");
    const { atime, mtime } = statSync(file);
    writeFileSync(file, "export const a = 2;\n"); // same size
    utimesSync(file, atime, mtime); // and the old modification time
    assert.equal(filesIntact([{ file, sha256 }]), false, "the changed bytes are found");
    rmSync(file);
    assert.equal(filesIntact([{ file, sha256 }]), false, "a missing file is not intact");
    rmSync(dir, { recursive: true, force: true });
  });
});

/** The bundle cache against another user: a second user is made for these cases (useradd) and removed after.
 *  Each case first proves the plant would run from a trusted folder, then hands a part of the folder to that
 *  user: the planted code must never run. Without root or useradd the cases cannot be set up: they are then
 *  skipped, and say why. */
describe("harness: the bundle cache against another user", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  let other: { name: string; uid: number } | undefined;
  const temp = (p: string) => {
    const d = tempDir(p);
    dirs.push(d);
    return d;
  };
  before(function () {
    const why = !isRoot ? "they need root to make a second user (run the suite as root, as CI does)"
      : spawnSync("useradd", ["--help"]).error ? "useradd is not available" : undefined;
    if (why) {
      console.log(`      skipped: ${why}`);
      this.skip();
    }
    ensureBuilt();
    const name = `al-t${process.pid}`;
    const made = spawnSync("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", name], { encoding: "utf8" });
    assert.equal(made.status, 0, made.stderr);
    other = { name, uid: Number(spawnSync("id", ["-u", name], { encoding: "utf8" }).stdout.trim()) };
    assert.ok(other.uid > 0);
  });
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (other) spawnSync("userdel", [other.name]);
  });
  const giveAway = (path: string) => assert.equal(spawnSync("chown", ["-hR", `${other!.uid}:${other!.uid}`, path]).status, 0);

  /** A cache with the fixture's bundle built in it and planted, the plant proven to run while the folder is
   *  trusted. */
  function plantedCache(): string {
    const cache = temp("cache");
    assert.equal(runWith({ AGENT_LENS_CACHE_DIR: cache }).status, 0);
    plant(cache);
    assert.ok(runWith({ AGENT_LENS_CACHE_DIR: cache }).ran.includes(`${PLANTED}\n`), "control: a planted bundle in a trusted folder runs");
    return cache;
  }
  function refused(cache: string, reason: RegExp): void {
    const r = runWith({ AGENT_LENS_CACHE_DIR: cache });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.ran.includes(`${PLANTED}\n`), "the planted bundle did not run");
    assert.match(r.stderr, new RegExp(`^agent-lens: not using the cache folder ${cache}: ${reason.source}\\. Bundles are built in \\S+ for now`));
  }

  it("its bundles folder belongs to the other user (planted bundle, matching sha256): refused, the plant never runs (it ran)", () => {
    const cache = plantedCache();
    giveAway(join(cache, "bundles"));
    refused(cache, new RegExp(`${join(cache, "bundles")} belongs to another user \\(uid ${other!.uid}; you are 0\\)`));
  });

  it("its bundles folder is a link to the other user's folder holding the plant: refused (it ran)", () => {
    const cache = plantedCache();
    const theirs = temp("theirs");
    cpSync(join(cache, "bundles"), join(theirs, "bundles"), { recursive: true });
    giveAway(theirs);
    rmSync(join(cache, "bundles"), { recursive: true });
    symlinkSync(join(theirs, "bundles"), join(cache, "bundles"));
    refused(cache, new RegExp(`${join(cache, "bundles")} is a symbolic link \\(remove it; the harness makes its own folder\\)`));
  });

  it("a library layer folder belongs to the other user, its file planted with a matching sha256: refused (it ran)", () => {
    const cache = temp("cache");
    assert.equal(runWith({ AGENT_LENS_CACHE_DIR: cache }).status, 0);
    const layers = join(cache, "libraries");
    const key = readdirSync(layers).find((n) => /^[0-9a-f]{40}$/.test(n))!;
    const layerFile = join(layers, key, "layer.json");
    const layer = JSON.parse(readFileSync(layerFile, "utf8")) as { entries: Record<string, string>; files: Array<{ file: string; sha256: string }> };
    const entry = layer.entries.zod!;
    const text = `console.log(${JSON.stringify(PLANTED)});\n${readFileSync(entry, "utf8")}`;
    writeFileSync(entry, text);
    for (const f of layer.files) if (f.file === entry) f.sha256 = createHash("sha256").update(text).digest("hex");
    writeFileSync(layerFile, JSON.stringify(layer));
    assert.ok(runWith({ AGENT_LENS_CACHE_DIR: cache }).ran.includes(`${PLANTED}\n`), "control: a planted layer in a trusted folder runs");
    giveAway(join(layers, key));
    refused(cache, new RegExp(`${join(layers, key)} belongs to another user \\(uid ${other!.uid}; you are 0\\)`));
  });

  it("a folder above the cache folder belongs to the other user (who could replace the cache folder): refused", () => {
    const theirs = join(temp("above"), "theirs");
    mkdirSync(theirs, { mode: 0o755 });
    giveAway(theirs);
    const cache = join(theirs, "cache");
    refused(cache, new RegExp(`${theirs}, a folder above it, belongs to another user \\(uid ${other!.uid}; you are 0\\), who could replace it`));
  });

  it("a folder above it that anyone can write to, without the sticky bit: refused; /tmp's sticky bit is fine", () => {
    const open = join(temp("above"), "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    refused(join(open, "cache"), new RegExp(`${open}, a folder above it, can be written by others \\(mode 777, no sticky bit\\), who could replace it`));
    chmodSync(open, 0o1777);
    assert.equal(makePrivateFolder(join(open, "cache")), undefined);
  });
});
