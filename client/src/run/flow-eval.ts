// A starting point for a flow's first eval ("Run turns" on a flow no eval file uses yet): a node:test file
// beside the flow, importing the flow's file and the library's test helpers, with the steps to fill in. It
// opens unsaved; once saved under its suggested name it matches agentLens.testGlobs, and "Run turns" on
// the flow runs it when its turns reach the flow. Pure.

export function starterEval(flowId: string, flowFile: string): { file: string; content: string } {
  const dir = flowFile.replace(/[\\/][^\\/]*$/, "");
  const base = (flowFile.split(/[\\/]/).pop() ?? "agent.ts").replace(/\.[cm]?[jt]sx?$/, "");
  const safe = flowId.replace(/[^A-Za-z0-9_-]+/g, "-");
  const content = [
    `// An eval for the flow "${flowId}" of ${base}.ts: script what the model answers, drive turns on a fake`,
    `// clock, and assert what the flow says and does. Agent Lens's "Run turns" on the flow runs this file.`,
    `import assert from "node:assert/strict";`,
    `import { test } from "node:test";`,
    `import { fakeClock, MemoryScheduler, MemoryStore } from "@falai/agent";`,
    `import * as agentFile from "./${base}";`,
    ``,
    `test(${JSON.stringify(`${flowId}: the first turn`)}, async () => {`,
    `  const clock = fakeClock("2026-01-01T09:00:00.000Z");`,
    `  const store = new MemoryStore();`,
    `  const scheduler = new MemoryScheduler();`,
    `  // 1. Build the agent whose flows include "${flowId}" (from agentFile), with a scripted provider and this clock.`,
    `  // 2. Drive a turn that starts the flow, e.g. const r = await agent.turn({ sessionId: "s1", message: "…" });`,
    `  // 3. Assert on it, e.g. assert.equal(r.messages[0]?.text, "…"); and keep r.session in the store.`,
    `  assert.ok(agentFile && clock && store && scheduler);`,
    `});`,
    ``,
  ].join("\n");
  return { file: `${dir}/${safe}.test.ts`, content };
}
