// One tool call from a speak reply: check it is offered, validate the arguments, run it, and give back
// the history lines the next speak call sees plus the outcome line to log. Never throws.
import type { HistoryItem, Outcome, ToolContext, ToolDef } from "./types";
import { validateArgs } from "./tools";
import { errorText, jsonSafe, safeStringify } from "./json";

export interface ToolCallDone {
  history: HistoryItem[];
  line: Pick<Outcome, "kind" | "status" | "code" | "tool" | "value" | "message">;
}

export async function runToolCall(tool: ToolDef<any> | undefined, offered: boolean, name: string, args: Record<string, unknown>, ctx: ToolContext<unknown>): Promise<ToolCallDone> {
  const call: HistoryItem = { role: "assistant", content: safeStringify({ toolCall: { toolName: name, arguments: args } }) };
  const done = (content: unknown, line: ToolCallDone["line"]): ToolCallDone => ({ history: [call, { role: "tool", toolName: name, content: safeStringify(content) }], line });
  if (!tool || !offered) {
    return done({ error: `unknown tool ${name}` }, { kind: "tool", status: "failed", code: "unknown-tool", tool: name, message: `The provider called "${name}", which this step does not offer.` });
  }
  try {
    const valid = await validateArgs(tool, args);
    if (!valid.ok) return done({ error: valid.error }, { kind: "tool", status: "failed", code: "tool-failed", tool: name, message: `Tool "${name}" got invalid arguments: ${valid.error}.` });
    const result = await tool.run(valid.value, ctx);
    return done(result, { kind: "tool", status: "ok", code: "tool-ran", tool: name, value: jsonSafe(result), message: `Tool "${name}" ran.` });
  } catch (error) {
    return done({ error: errorText(error) }, { kind: "tool", status: "failed", code: "tool-failed", tool: name, message: `Tool "${name}" failed: ${errorText(error)}.` });
  }
}
