// A node:test reporter (loaded by the child through --test-reporter): it hands every test event to the
// harness child running in the same process, which turns them into test-start / test-end events.
const HOOK = Symbol.for("agent-lens.node-test-hook");

export default async function* agentLensReporter(source: AsyncIterable<{ type: string; data: unknown }>): AsyncGenerator<string> {
  for await (const event of source) {
    const hook = (globalThis as Record<symbol, unknown>)[HOOK];
    if (typeof hook === "function") hook(event);
  }
  yield "";
}
