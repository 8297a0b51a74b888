// Descendant discovery by the run token: a process carrying AGENT_LENS_RUN=<token> in its environment is
// found wherever it went (another session, re-parented to init) and killed with the run.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { environHasToken, newRunToken, ProcessTree, processesWithToken, RUN_TOKEN_VAR, runTokenValue } from "../../runtime/src/harness/process-tree";
import { psSurvivors } from "./support";

const env = (entries: string[]) => Buffer.from(`${entries.join("\0")}\0`);

describe("harness: the run token", function () {
  this.timeout(20_000);

  it("reads the token from an environment block: whole tokens of the variable only", () => {
    assert.ok(environHasToken(env(["PATH=/bin", `${RUN_TOKEN_VAR}=abc`]), "abc"));
    assert.ok(environHasToken(env([`${RUN_TOKEN_VAR}=outer abc`, "HOME=/root"]), "abc"), "a run inside a run");
    assert.ok(!environHasToken(env([`${RUN_TOKEN_VAR}=abcd`]), "abc"), "not a prefix");
    assert.ok(!environHasToken(env([`X_${RUN_TOKEN_VAR}=abc`]), "abc"), "not another variable's value");
    assert.ok(!environHasToken(env([`NOTE=${RUN_TOKEN_VAR}=abc`]), "abc"), "not inside another value");
    assert.ok(!environHasToken(Buffer.alloc(0), "abc"));
  });

  it("a run inside a run adds its token to the inherited one", () => {
    assert.equal(runTokenValue("inner", "outer"), "outer inner");
    assert.equal(runTokenValue("only", undefined), "only");
    assert.match(newRunToken(), /^[0-9a-f]{24}$/);
    assert.notEqual(newRunToken(), newRunToken());
  });

  it("finds and kills a process in its own session that carries the token, and nothing else", async () => {
    const token = newRunToken();
    // setsid: a new session and process group; the token comes along in the environment.
    const marked = spawn("setsid", ["sleep", "9873"], { env: { ...process.env, [RUN_TOKEN_VAR]: `someone-else ${token}` }, stdio: "ignore" });
    const unmarked = spawn("sleep", ["9874"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(processesWithToken(token).map((p) => p.pid), [marked.pid]);
      // A tree rooted at a process that never existed still finds it through the token.
      const tree = new ProcessTree(2 ** 22 + 12345, token);
      tree.stop();
      assert.deepEqual(tree.survivors().map((p) => [p.pid, p.command]), [[marked.pid, "sleep 9873"]]);
      await tree.killAllAndWait();
      assert.deepEqual(processesWithToken(token), []);
      assert.deepEqual(psSurvivors(undefined, ["sleep 9873"]), []);
      assert.equal(psSurvivors(undefined, ["sleep 9874"]).length, 1, "the unmarked process is left alone");
    } finally {
      marked.kill("SIGKILL");
      unmarked.kill("SIGKILL");
    }
  });
});
