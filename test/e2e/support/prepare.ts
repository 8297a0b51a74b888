// What every end-to-end file does first: code-server, Node 24 and Chromium installed (setup.sh), the
// extension built, and packaged (.vsix) into this run's own scratch folder — several checkouts may share
// AGENT_LENS_E2E_HOME, never a package.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Returns the scratch folder (`agent-lens-e2e-<name>…` in the temp folder) and the .vsix in it. */
export function prepareExtension(root: string, name: string): { scratch: string; vsix: string; packMs: number } {
  const setup = spawnSync("bash", [join(root, "test/e2e/setup.sh")], { stdio: ["ignore", "inherit", "inherit"], timeout: 12 * 60_000 });
  assert.equal(setup.status, 0, "test/e2e/setup.sh failed");
  if (!existsSync(join(root, "dist/client/extension.js")) || !existsSync(join(root, "dist/media/panel.js"))) {
    const build = spawnSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    assert.equal(build.status, 0, "npm run build failed");
  }
  const scratch = mkdtempSync(join(tmpdir(), `agent-lens-e2e-${name}`));
  const vsix = join(scratch, "agent-lens.vsix");
  const t0 = Date.now();
  const pack = spawnSync(process.execPath, [join(root, "node_modules/@vscode/vsce/vsce"), "package", "--target", "linux-x64", "--allow-missing-repository", "--skip-license", "-o", vsix], { cwd: root, encoding: "utf8", timeout: 5 * 60_000 });
  assert.equal(pack.status, 0, `vsce package failed:\n${pack.stdout}\n${pack.stderr}`);
  return { scratch, vsix, packMs: Date.now() - t0 };
}
