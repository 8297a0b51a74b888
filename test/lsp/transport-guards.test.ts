// The framing watch on its own: every way to cut a valid stream passes, each broken header is caught once.
import assert from "node:assert/strict";
import { FramingWatch } from "../../server/src/lsp/transport-guards";

const frame = (body: string, extra = "") => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`);

function watch(bytes: Buffer, chunk: number): string[] {
  const errors: string[] = [];
  const w = new FramingWatch((reason) => errors.push(reason));
  for (let at = 0; at < bytes.length; at += chunk) w.push(bytes.subarray(at, at + chunk));
  return errors;
}

describe("lsp: framing watch", () => {
  it("accepts valid frames however they are cut (other headers, bodies with CRLFs and multi-byte text)", () => {
    const stream = Buffer.concat([frame('{"a":1}'), frame('{"t":"ünïcødé\\r\\n\\r\\n"}', "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"), frame("{}"), frame("")]);
    for (let size = 1; size <= stream.length; size++) assert.deepEqual(watch(stream, size), [], `chunks of ${size}`);
  });

  it("reports the first framing error once", () => {
    assert.deepEqual(watch(Buffer.concat([frame("{}"), Buffer.from("Content-Length: -3\r\n\r\n"), Buffer.from("junk\r\n\r\n")]), 4), ['Content-Length is not a number: "-3"']);
    assert.deepEqual(watch(Buffer.from("X-Other: 1\r\n\r\n"), 3), ["a header without Content-Length"]);
    assert.deepEqual(watch(Buffer.from("a bare body\r\n\r\n"), 100), ['a header line without "Name: value": "a bare body"']);
    assert.deepEqual(watch(Buffer.from("{\"jsonrpc\":\"2.0\"}\r\n\r\n"), 100), ["a header without Content-Length"], "a body sent without a header");
    assert.deepEqual(watch(Buffer.alloc(8193, 0x20), 1000), ["no end of header within 8192 bytes"]);
  });

  it("refuses a Content-Length beyond any message, and reports a message that stops arriving once, after the stall timeout", async () => {
    const errors: string[] = [];
    const big = new FramingWatch((reason) => errors.push(reason), { maxBodyBytes: 1000 });
    big.push(Buffer.from("Content-Length: 1001\r\n\r\n"));
    assert.deepEqual(errors, ["Content-Length 1001 is larger than a message may be (1000 bytes)"]);

    const stalled: string[] = [];
    const w = new FramingWatch((reason) => stalled.push(reason), { stallTimeoutMs: 50 });
    w.push(Buffer.from("Content-Length: 10\r\n\r\n12345"));
    await new Promise((r) => setTimeout(r, 20));
    w.push(Buffer.from("67")); // data keeps it alive
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(stalled, []);
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(stalled, ["a message body stopped arriving: 7 of its 10 bytes (Content-Length) came, then nothing for 0.05 s"]);

    const whole: string[] = [];
    const ok = new FramingWatch((reason) => whole.push(reason), { stallTimeoutMs: 30 });
    ok.push(frame('{"a":1}'));
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(whole, [], "a complete message leaves no timer behind");
  });
});
