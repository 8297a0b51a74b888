// Tools inside a speak call: which ones a speaker may call, the gates each call passes, and the history items a
// round leaves for the next one. Nothing a tool does reaches the host as an exception.
import type { Flow, HistoryItem, ProviderToolCall, Run, Step, Tool, ToolDefinition } from "../types";
import { errorText } from "../json";
import type { TurnState } from "./state";

export function toolDefinition(tool: Tool<any, any>): ToolDefinition {
  return { name: tool.id, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters: tool.parameters ?? { type: "object", properties: {} } };
}

/** A talk step's tools: its own list, else its flow's, else every agent tool. */
export function toolsForTalk(s: TurnState, flow: Flow<any, any>, step: Step<any, any>): Tool<any, any>[] {
  const ids = (step as { tools?: string[] }).tools ?? flow.tools;
  return ids === undefined ? s.engine.tools : ids.map((id) => s.engine.tools.find((t) => t.id === id)).filter((t): t is Tool<any, any> => !!t);
}

export function toolsForIdle(s: TurnState): Tool<any, any>[] {
  const idle = s.engine.idle;
  const ids = typeof idle === "object" ? idle.tools : undefined;
  return ids === undefined ? s.engine.tools : ids.map((id) => s.engine.tools.find((t) => t.id === id)).filter((t): t is Tool<any, any> => !!t);
}

function serialize(value: unknown, max: number | undefined): string {
  const text = typeof value === "string" ? value : value === undefined ? '{"ok":true}' : (JSON.stringify(value) ?? String(value));
  if (max === undefined || text.length <= max) return text;
  return `${text.slice(0, max)}[truncated: ${text.length} chars total, showing the first ${max}]`;
}

interface Done {
  content: string;
  data?: Record<string, unknown>;
}

async function runOne(s: TurnState, offered: Tool<any, any>[], call: ProviderToolCall, history: HistoryItem[], data: Record<string, unknown>, run: Run | undefined): Promise<Done> {
  const tool = offered.find((t) => t.id === call.toolName);
  if (!tool) return { content: JSON.stringify({ error: `Tool "${call.toolName}" is not available.` }) };
  let args = call.arguments ?? {};
  const ctx = { context: s.context, data: { ...s.session.data, ...data }, history: [...history], ...(run ? { run } : {}), now: new Date(s.nowMs) };
  try {
    if (tool.validateInput) {
      const v = await tool.validateInput(args, ctx);
      if (!v.valid) return { content: JSON.stringify({ error: `Validation failed: ${v.error ?? "invalid input"}`, ...(v.correctedInput ? { correctedInput: v.correctedInput } : {}) }) };
      if (v.correctedInput) args = v.correctedInput;
    }
    if (tool.checkPermissions) {
      const p = await tool.checkPermissions(args, ctx);
      if (!p.allowed) return { content: JSON.stringify({ error: `Permission denied: ${p.reason ?? "not allowed"}` }) };
    }
    const result = (await tool.handler(args, ctx)) ?? {};
    return { content: serialize(result.value, tool.maxResultSizeChars), ...(result.data && typeof result.data === "object" ? { data: result.data as Record<string, unknown> } : {}) };
  } catch (error) {
    return { content: JSON.stringify({ error: errorText(error) }) };
  }
}

function safe(tool: Tool<any, any> | undefined, args: Record<string, unknown>): boolean {
  if (!tool || tool.isDestructive?.(args)) return false;
  return tool.isConcurrencySafe ? tool.isConcurrencySafe(args) : (tool.isReadOnly?.(args) ?? false);
}

/**
 * Runs one round's calls (consecutive safe calls together, any other alone, in order), appends the assistant item
 * and one tool item per call to `history`, and merges each call's `data` into `data` in call order.
 */
export async function runToolRound(s: TurnState, offered: Tool<any, any>[], calls: ProviderToolCall[], text: string, round: number, history: HistoryItem[], data: Record<string, unknown>, run: Run | undefined): Promise<void> {
  const ids = calls.map((_, i) => `call-${round}-${i}`);
  const seen = [...history];
  const results: Done[] = [];
  for (let i = 0; i < calls.length; ) {
    let j = i + 1;
    if (safe(offered.find((t) => t.id === calls[i]!.toolName), calls[i]!.arguments ?? {})) {
      while (j < calls.length && safe(offered.find((t) => t.id === calls[j]!.toolName), calls[j]!.arguments ?? {})) j++;
    }
    // Each call sees the data earlier groups of this call wrote; a group's own patches merge in call order.
    const group = await Promise.all(calls.slice(i, j).map((c) => runOne(s, offered, c, seen, data, run)));
    for (const r of group) if (r.data) Object.assign(data, r.data);
    results.push(...group);
    i = j;
  }
  history.push({ role: "assistant", content: text || null, tool_calls: calls.map((c, i) => ({ id: ids[i]!, name: c.toolName, arguments: c.arguments ?? {} })) });
  results.forEach((r, i) => history.push({ role: "tool", tool_call_id: ids[i]!, name: calls[i]!.toolName, content: r.content }));
}
