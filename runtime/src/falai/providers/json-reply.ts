// Reading a reply that was asked to be JSON. Whole: the parsed object (a ```json fence around it is tolerated, as
// a prompt-instructed model may add one), or nothing when the text is not a JSON object. Streamed: the text of its
// top-level "message" property as far as it has arrived, so `turnStream` hands the user the words being written,
// never the envelope's braces and quotes. A reply that turns out not to be JSON streams as plain text.

/** The system-prompt line that asks a model without a native schema mode for JSON (the schema quoted). */
export function jsonInstruction(schema: unknown): string {
  return `Reply with one JSON object and nothing else (no prose, no code fence). It must match this JSON schema:\n${JSON.stringify(schema)}`;
}

const FENCE = /^\s*```(?:json)?\s*\n?/i;

/** The object a JSON reply holds, or undefined when the text is not one. */
function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const body = text.replace(FENCE, "").replace(/\n?\s*```\s*$/, "").trim();
  if (!body.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Decodes a JSON string body from `i` (just past the opening quote) as far as it is complete. */
function stringFrom(raw: string, i: number): { text: string; end: number; closed: boolean } {
  let text = "";
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === '"') return { text, end: i + 1, closed: true };
    if (c !== "\\") {
      text += c;
      i++;
      continue;
    }
    const e = raw[i + 1];
    if (e === undefined) break;
    if (e === "u") {
      const hex = raw.slice(i + 2, i + 6);
      if (hex.length < 4) break;
      text += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else {
      text += ESCAPES[e] ?? e;
      i += 2;
    }
  }
  return { text, end: raw.length, closed: false };
}

/** Skips one JSON value from `i`; returns the index after it (raw.length when it is cut off). */
function skipValue(raw: string, i: number): number {
  if (raw[i] === '"') return stringFrom(raw, i + 1).end;
  let depth = 0;
  for (; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') {
      i = stringFrom(raw, i + 1).end - 1;
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (depth === 0) return i;
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === "," && depth === 0) return i;
  }
  return raw.length;
}

/** The decoded prefix of the top-level "message" string of a JSON object still arriving, when there is one yet. */
function partialMessage(raw: string): string | undefined {
  let i = raw.replace(FENCE, (m) => " ".repeat(m.length)).search(/\S/);
  if (i < 0 || raw[i] !== "{") return undefined;
  i++;
  for (;;) {
    while (i < raw.length && /[\s,]/.test(raw[i]!)) i++;
    if (i >= raw.length || raw[i] !== '"') return undefined;
    const key = stringFrom(raw, i + 1);
    if (!key.closed) return undefined;
    i = key.end;
    while (i < raw.length && /[\s:]/.test(raw[i]!)) i++;
    if (i >= raw.length) return undefined;
    if (key.text === "message") return raw[i] === '"' ? stringFrom(raw, i + 1).text : undefined;
    i = skipValue(raw, i);
  }
}

/** Turns the raw text of a streamed reply into deltas of what the user should read. */
export class ReplyText {
  raw = "";
  private shown = "";
  private plain: boolean;
  constructor(json: boolean) {
    this.plain = !json;
  }
  /** Adds raw text; returns the new readable text (possibly ""). */
  push(rawDelta: string): string {
    this.raw += rawDelta;
    if (!this.plain && /\S/.test(this.raw) && !/^\s*(\{|`)/.test(this.raw)) this.plain = true; // prose after all
    const now = this.plain ? this.raw : (partialMessage(this.raw) ?? this.shown);
    if (!now.startsWith(this.shown)) return "";
    const delta = now.slice(this.shown.length);
    this.shown = now;
    return delta;
  }
  get readable(): string {
    return this.shown;
  }
}

/** What a finished reply says: the message to show and the structured object, when it was asked to be JSON. */
export function finishReply(text: string, json: boolean): { message: string; structured?: Record<string, unknown> } {
  if (!json) return { message: text };
  const structured = parseJsonObject(text);
  if (!structured) return { message: text };
  return { message: typeof structured.message === "string" ? structured.message : text, structured };
}

/** A tool call's JSON arguments as an object ({} for none or for malformed text: the tool's own checks answer it). */
export function parseArguments(json: string | undefined): Record<string, unknown> {
  if (!json?.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
