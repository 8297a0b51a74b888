// The parent's result-channel reader against everything a hostile file can put on descriptor 3: random
// bytes, truncated frames, forged frames without the secret or out of sequence, a hello with another
// secret, frames that are not JSON or not events, oversized frames, and a flood without a newline. Nothing
// may throw; every real frame must come through.
import assert from "node:assert/strict";
import { HELLO_PREFIX } from "../../runtime/src/harness/channel-protocol";
import { ChannelReader, type ChannelItem } from "../../runtime/src/harness/channel-reader";
import { ChannelTrouble } from "../../runtime/src/harness/channel-trouble";

const TOKEN = "0123456789abcdef0123456789abcdef";
const hello = (token = TOKEN) => Buffer.from(`${HELLO_PREFIX}${token}\n`);
/** Frame number `seq` as the child writes it. */
const frame = (value: unknown, seq: number, token = TOKEN) => Buffer.from(`${token}${seq} ${JSON.stringify(value)}\n`);
const numbered = (values: unknown[], from = 0) => values.map((v, i) => frame(v, from + i));

/** A small deterministic PRNG (mulberry32), so a failure names a seed that reproduces it. */
function prng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n | 0;
  };
}

const EVENTS: unknown[] = [
  { type: "console", stream: "stdout", text: "hello\nworld\n" },
  { type: "test-start", test: "a > b", location: { file: "/x.ts", line: 3, column: 1 }, path: ["a", "b"] },
  { type: "test-end", test: "a > b", status: "failed", durationMs: 2.5, failure: { message: "boom", code: "ERR_ASSERTION", expected: { a: [1] }, actual: null } },
  { type: "result", kind: "seam", callSite: { file: "/x.ts", line: 9, column: 4 }, data: { seamOutput: "ünïcødé ✓", calls: [] } },
  { type: "fail", failure: { message: "x" } },
  { type: "done", exitCode: 0 },
];

/** Feeds `bytes` to a reader in chunks cut at the given sizes; returns every item (end included). */
function feed(bytes: Buffer, cut: (remaining: number) => number, max?: number): { items: ChannelItem[]; reader: ChannelReader } {
  const reader = new ChannelReader(TOKEN, max);
  const items: ChannelItem[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = Math.max(1, Math.min(bytes.length - at, cut(bytes.length - at)));
    // A fresh copy per chunk, and the caller's buffer overwritten afterwards: the reader must not keep views.
    const chunk = Buffer.from(bytes.subarray(at, at + size));
    items.push(...reader.push(chunk));
    chunk.fill(0x21);
    at += size;
  }
  items.push(...reader.end());
  return { items, reader };
}

const frames = (items: ChannelItem[]) => items.flatMap((i) => (i.kind === "frame" ? [i.frame] : []));
const foreignBytes = (items: ChannelItem[]) => items.reduce((n, i) => n + (i.kind === "foreign" ? i.bytes : 0), 0);
const invalid = (items: ChannelItem[]) => items.filter((i) => i.kind === "invalid");

describe("harness: result-channel reader", () => {
  it("reads the hello and every frame, however the stream is cut into chunks", () => {
    const stream = Buffer.concat([hello(), ...numbered(EVENTS)]);
    for (let size = 1; size <= 64; size++) {
      const { items, reader } = feed(stream, () => size);
      assert.ok(reader.opened);
      assert.deepEqual(frames(items), EVENTS, `chunks of ${size} bytes`);
      assert.deepEqual(items.filter((i) => i.kind !== "frame"), []);
    }
  });

  it("names the foreign bytes by their start, the same however the pipe cut them", () => {
    const forged = Buffer.from(`${JSON.stringify({ type: "test-end", test: "forged.test.ts", status: "passed", durationMs: 1 })}\n`);
    const stream = Buffer.concat([hello(), frame(EVENTS[0], 0), forged, frame(EVENTS[5], 1)]);
    const messages = new Set<string>();
    for (let size = 1; size <= stream.length; size += 7) {
      const trouble = new ChannelTrouble();
      for (const item of feed(stream, () => size).items) if (item.kind !== "frame") trouble.note(item);
      messages.add(trouble.failure()?.message ?? "none");
    }
    assert.deepEqual([...messages], [`The result channel was tampered with: something other than the harness wrote ${forged.length} bytes to it (file descriptor 3), starting ${JSON.stringify(forged.toString())}. The results that did arrive are kept, but the file cannot pass: its report may be incomplete.`]);
  });

  it("counts bytes outside frames as foreign (null, a forged event without the token, junk before the hello) and keeps the real frames", () => {
    const forged = Buffer.from(`${JSON.stringify({ type: "test-end", test: "x", status: "passed", durationMs: 1 })}\n`);
    const stream = Buffer.concat([Buffer.from("early junk"), hello(), frame(EVENTS[0], 0), Buffer.from("null\n"), forged, frame(EVENTS[5], 1)]);
    const { items } = feed(stream, () => 7);
    assert.deepEqual(frames(items), [EVENTS[0], EVENTS[5]]);
    assert.equal(foreignBytes(items), "early junk".length + 5 + forged.length);
    assert.deepEqual(invalid(items), []);
  });

  it("refuses frames with the token that are not JSON, not a harness event, or over the size cap, and goes on", () => {
    const stream = Buffer.concat([
      hello(), Buffer.from(`${TOKEN}0 {not json\n`), frame({ type: "end", file: "/x", status: "passed" }, 1), frame({ type: "console", stream: "fd9", text: "x" }, 2),
      frame({ type: "console", stream: "stdout", text: "y".repeat(500) }, 3), frame(EVENTS[1], 4),
    ]);
    const { items } = feed(stream, () => 13, 300);
    assert.deepEqual(frames(items), [EVENTS[1]]);
    const reasons = invalid(items).map((i) => (i.kind === "invalid" ? i.reason : ""));
    assert.equal(reasons.length, 4, reasons.join(" | "));
    assert.match(reasons[0]!, /^not JSON/);
    assert.match(reasons[1]!, /^not a harness event/);
    assert.match(reasons[2]!, /^not a harness event \(stream/);
    assert.match(reasons[3]!, /frame of \d+ bytes \(the limit is 300\)/);
  });

  it("a frame with the secret but out of sequence is refused: one forged with the number due makes the real one after it a replay", () => {
    const forged = { type: "test-end", test: "x", status: "passed", durationMs: 1 };
    const stream = Buffer.concat([hello(), frame(EVENTS[0], 0), frame(forged, 1), frame(EVENTS[2], 1), frame(EVENTS[5], 2), frame(forged, 7), Buffer.from(`${TOKEN}{"type":"done","exitCode":0}\n`)]);
    const { items } = feed(stream, () => 11);
    assert.deepEqual(frames(items), [EVENTS[0], forged, EVENTS[5]], "the forgery that guessed the number is read…");
    const trouble = new ChannelTrouble();
    for (const item of items) if (item.kind !== "frame") trouble.note(item);
    // …but the file's real frame with that number is then refused, so the file cannot pass.
    assert.deepEqual(invalid(items).map((i) => i.kind === "invalid" && i.reason), [
      "a frame out of sequence (number 1 where 2 was due: forged or replayed)",
      "a frame out of sequence (number 7 where 3 was due: forged or replayed)",
      "a frame without its sequence number",
    ]);
    assert.match(trouble.failure()?.message ?? "", /^The result channel was tampered with: 3 frames were refused \(a frame out of sequence/);
  });

  it("a hello with another secret, and frames with it, are someone else's bytes: the child's own hello opens the channel", () => {
    const OTHER = "fedcba9876543210fedcba9876543210";
    const theirs = Buffer.concat([hello(OTHER), frame(EVENTS[5], 0, OTHER)]);
    const { items, reader } = feed(Buffer.concat([theirs, hello(), frame(EVENTS[0], 0)]), () => 9);
    assert.ok(reader.opened);
    assert.deepEqual(frames(items), [EVENTS[0]]);
    assert.equal(foreignBytes(items), theirs.length);
    const alone = feed(theirs, () => 9);
    assert.equal(alone.reader.opened, false, "a hello with a secret the parent did not give opens nothing");
    assert.deepEqual(frames(alone.items), []);
  });

  it("a flood without a newline is counted as it streams by, never held, and the next real frame still arrives", () => {
    const reader = new ChannelReader(TOKEN);
    let foreign = 0;
    const take = (items: ChannelItem[]) => {
      for (const i of items) if (i.kind === "foreign") foreign += i.bytes;
    };
    take(reader.push(hello()));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    // What the reader itself holds, not the process' arrayBuffers: those also count garbage other suites
    // left for a collector that has not run yet, so a process-wide figure failed in a combined run.
    let held = 0;
    for (let i = 0; i < 1600; i++) {
      take(reader.push(chunk)); // 100 MB in all
      held = Math.max(held, reader.heldBytes);
    }
    assert.ok(held <= HELLO_PREFIX.length + TOKEN.length + 1, `the reader does not keep the flood (held ${held} bytes)`);
    const last = reader.push(frame(EVENTS[5], 0));
    take(last);
    take(reader.end());
    assert.equal(foreign, 1600 * chunk.length);
    assert.deepEqual(frames(last), [EVENTS[5]]);
  });

  it("an oversized frame is dropped up to its newline without being buffered", () => {
    const reader = new ChannelReader(TOKEN, 1024);
    const items = [...reader.push(hello()), ...reader.push(Buffer.from(`${TOKEN}0 `))];
    for (let i = 0; i < 100; i++) items.push(...reader.push(Buffer.alloc(4096, 0x62)));
    items.push(...reader.push(Buffer.from(`tail\n`)), ...reader.push(frame(EVENTS[0], 1)), ...reader.end());
    assert.deepEqual(frames(items), [EVENTS[0]], "the oversized frame took its number: the next one is in sequence");
    assert.equal(invalid(items).length, 1);
  });

  it("a stream cut off anywhere yields the frames before the cut and at most one truncated item", () => {
    const stream = Buffer.concat([hello(), ...numbered(EVENTS)]);
    const ends: number[] = [];
    for (let at = 0, i = -1; i < EVENTS.length; i++) ends.push((at += i < 0 ? hello().length : frame(EVENTS[i], i).length));
    for (let cut = 0; cut <= stream.length; cut++) {
      const { items } = feed(stream.subarray(0, cut), () => 5);
      const complete = ends.slice(1).filter((e) => e <= cut).length;
      assert.deepEqual(frames(items), EVENTS.slice(0, complete), `cut at ${cut}`);
      assert.ok(items.filter((i) => i.kind !== "frame").length <= 1, `cut at ${cut}: ${JSON.stringify(items.filter((i) => i.kind !== "frame"))}`);
    }
  });

  it("fuzz: random bytes, random frames and random junk in random chunks never throw, and every frame between junk comes through", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = prng(seed);
      const parts: Buffer[] = [];
      const expected: unknown[] = [];
      let junk = 0;
      let refused = 0;
      const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => rand(256)));
      if (rand(4) === 0) {
        const b = randomBytes(rand(50));
        parts.push(b);
        junk += b.length;
      }
      parts.push(hello());
      let seq = 0;
      for (let k = rand(30); k > 0; k--) {
        const what = rand(10);
        if (what < 5) {
          const e = EVENTS[rand(EVENTS.length)];
          parts.push(frame(e, seq++));
          expected.push(e);
        } else if (what < 8) {
          // Junk ends with a newline so it cannot run into the next frame's token.
          const b = Buffer.concat([randomBytes(rand(200)), Buffer.from("\n")]);
          parts.push(b);
          junk += b.length;
        } else if (what === 8) {
          // The secret, then bytes that are not a sequence number (a forger who has the secret but not the count).
          parts.push(Buffer.concat([Buffer.from(`${TOKEN}x`), randomBytes(rand(100)).map((c) => (c === 10 ? 32 : c)), Buffer.from("\n")]));
          refused++;
        } else {
          parts.push(frame({ type: "console", stream: "stdout", text: "z".repeat(2000) }, seq++));
          refused++;
        }
      }
      const stream = Buffer.concat(parts);
      let items: ChannelItem[] = [];
      assert.doesNotThrow(() => (items = feed(stream, () => 1 + rand(300), 1000).items), `seed ${seed}`);
      assert.deepEqual(frames(items), expected, `seed ${seed}`);
      assert.equal(foreignBytes(items), junk, `seed ${seed}`);
      // A refused frame of random bytes may still parse (a bare number, say): then it is refused as not an event.
      assert.equal(invalid(items).length, refused, `seed ${seed}`);

      // The same stream truncated at a random point, and pure noise: no exception either.
      assert.doesNotThrow(() => feed(stream.subarray(0, rand(stream.length + 1)), () => 1 + rand(64), 1000), `seed ${seed} truncated`);
      const noise = randomBytes(rand(4000));
      let noiseItems: ChannelItem[] = [];
      assert.doesNotThrow(() => (noiseItems = feed(noise, () => 1 + rand(500)).items), `seed ${seed} noise`);
      assert.deepEqual(frames(noiseItems), []);
    }
  });
});
