// What changed between a recorded input and the one a replayed call makes: the fields that differ, named
// in words ("the prompt changed"), and a compact diff — the changed lines with two lines of context, each
// value rendered one line per scalar and multi-line strings one line per line of text, so an edited
// sentence in a long prompt shows as that line, not as one changed JSON string.

const CONTEXT = 2;
const MAX_DIFF_LINES = 40;
/** Above this many line pairs (after the common head and tail are cut) the middle is shown whole. */
const MAX_LCS_CELLS = 4_000_000;

const FIELD_WORDS: Record<string, string> = {
  prompt: "the prompt",
  system: "the system prompt",
  messages: "the messages",
  history: "the history",
  input: "the request input",
  outputSchema: "the output schema",
  jsonSchema: "the output schema",
  events: "the events it may choose",
  attempts: "the earlier attempts",
  tools: "the tools",
  settings: "the settings",
  temperature: "the temperature",
  maxOutputTokens: "the output token limit",
  stream: "streaming",
  kind: "the request kind",
  model: "the model",
};

/** The fields (top-level keys) whose values differ. */
export function changedFields(recorded: unknown, live: unknown): string[] {
  const a = asObject(recorded);
  const b = asObject(live);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** "the prompt changed", "the prompt and the tools changed", "the prompt, the tools and the model changed". */
export function describeChange(fields: readonly string[]): string {
  const words = fields.map((f) => FIELD_WORDS[f] ?? `\`${f}\``);
  if (words.length === 0) return "the input changed";
  const list = words.length === 1 ? words[0]! : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
  return `${list} changed`;
}

/** The diff lines: "  " context, "- " recorded, "+ " now, "…" between hunks; at most 40 lines. */
export function inputDiff(recorded: unknown, live: unknown): string[] {
  const before = renderLines(recorded);
  const after = renderLines(live);
  const ops = diffLines(before, after);
  const keep = new Set<number>();
  ops.forEach((op, i) => {
    if (op.kind === " ") return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(ops.length - 1, i + CONTEXT); j++) keep.add(j);
  });
  // Each hunk under a nested value also shows the field it is in (the nearest top-level line above it).
  for (const i of [...keep].sort((x, y) => x - y)) {
    if (keep.has(i - 1) || !ops[i]!.line.startsWith(" ")) continue;
    for (let j = i - 1; j >= 0; j--) {
      if (!ops[j]!.line.startsWith(" ") && ops[j]!.kind === " ") {
        keep.add(j);
        break;
      }
    }
  }
  const out: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((x, y) => x - y)) {
    if (last >= 0 && i > last + 1) out.push("…");
    const op = ops[i]!;
    out.push(`${op.kind} ${op.line}`);
    last = i;
  }
  if (out.length > MAX_DIFF_LINES) {
    const more = out.length - MAX_DIFF_LINES;
    return [...out.slice(0, MAX_DIFF_LINES), `… ${more} more line${more === 1 ? "" : "s"}`];
  }
  return out;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

/** A value as lines: `key: scalar`, `key:` then its members indented, `key: |` then a string's lines. */
function renderLines(value: unknown, pad = "", label = ""): string[] {
  const head = label === "-" ? `${pad}-` : label ? `${pad}${label}:` : "";
  if (typeof value === "string" && value.includes("\n")) {
    const lines = value.split("\n").map((l) => `${pad}${label ? "  " : ""}| ${l}`);
    return head ? [`${head} |`, ...lines] : lines;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${head || pad}${head ? " " : ""}[]`];
    const inner = label ? `${pad}  ` : pad;
    return [...(head ? [head] : []), ...value.flatMap((item) => renderLines(item, inner, "-"))];
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [`${head || pad}${head ? " " : ""}{}`];
    const inner = label ? `${pad}  ` : pad;
    return [...(head ? [head] : []), ...entries.flatMap(([k, v]) => renderLines(v, inner, k))];
  }
  const scalar = JSON.stringify(value) ?? "undefined";
  return [head ? `${head} ${scalar}` : `${pad}${scalar}`];
}

interface Op {
  kind: " " | "-" | "+";
  line: string;
}

/** A line diff (longest common subsequence), the common head and tail cut first. */
function diffLines(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const middle: Op[] = x.length * y.length > MAX_LCS_CELLS
    ? [...x.map((line) => ({ kind: "-" as const, line })), ...y.map((line) => ({ kind: "+" as const, line }))]
    : lcs(x, y);
  return [...a.slice(0, head).map((line) => ({ kind: " " as const, line })), ...middle, ...a.slice(a.length - tail).map((line) => ({ kind: " " as const, line }))];
}

function lcs(x: string[], y: string[]): Op[] {
  const n = x.length;
  const m = y.length;
  // lengths[i][j]: the LCS of x[i..] and y[j..], in one flat array
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] = x[i] === y[j] ? lengths[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lengths[(i + 1) * (m + 1) + j]!, lengths[i * (m + 1) + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      ops.push({ kind: " ", line: x[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * (m + 1) + j]! >= lengths[i * (m + 1) + j + 1]!) ops.push({ kind: "-", line: x[i++]! });
    else ops.push({ kind: "+", line: y[j++]! });
  }
  while (i < n) ops.push({ kind: "-", line: x[i++]! });
  while (j < m) ops.push({ kind: "+", line: y[j++]! });
  return ops;
}
