// A node:test reporter (loaded by the child through --test-reporter): it hands every test event, and the
// end of the stream (undefined), to the harness child running in the same process. The child takes its
// events straight from the runner's stream when it can (child/node-test.ts); this is the fallback. It
// prints nothing (Node's default reporter would write to the captured stdout).
const HOOK = Symbol.for("agent-lens.node-test-hook");

function hand(event: { type: string; data: unknown } | undefined): void {
  const hook = (globalThis as Record<symbol, unknown>)[HOOK];
  if (typeof hook === "function") hook(event);
}

export default async function* agentLensReporter(source: AsyncIterable<{ type: string; data: unknown }>): AsyncGenerator<string> {
  for await (const event of source) hand(event);
  hand(undefined);
  yield "";
}
