// The pieces every replay shares (runtime/src/shared/recording): the canonical form inputs are kept and
// compared in, redaction of secrets, the input diff and its words, and matching a test's calls by
// (key, occurrence) with the three kinds of drift.
import assert from "node:assert/strict";
import { canonical, canonicalJson, plainJson } from "../../../runtime/src/shared/recording/canonical";
import { recordedCallsOf, recordingProblem, type RecordedCall } from "../../../runtime/src/shared/recording/format";
import { changedFields, describeChange, inputDiff } from "../../../runtime/src/shared/recording/input-diff";
import { redact, REDACTED, secretValues } from "../../../runtime/src/shared/recording/redact";
import { TestReplay } from "../../../runtime/src/shared/recording/replayer";

const call = (key: string, occurrence: number, input: unknown, output: unknown = { result: key }): RecordedCall => ({ library: "stately", key, occurrence, input, output });

describe("recordings: canonical form", () => {
  it("sorts every object's keys and drops undefined values and functions, keeping arrays in order", () => {
    const value = { b: 1, a: { d: [3, { z: 1, y: undefined, x: () => 1 }], c: undefined }, e: new Date(Date.UTC(2026, 0, 2)) };
    assert.equal(JSON.stringify(canonical(value)), '{"a":{"d":[3,{"z":1}]},"b":1,"e":"2026-01-02T00:00:00.000Z"}');
    assert.equal(canonicalJson({ y: 1, x: 2 }), canonicalJson({ x: 2, y: 1 }));
  });

  it("keeps an answer's own key order (plainJson) and cuts cycles", () => {
    const answer: Record<string, unknown> = { result: { score: 4, notes: "ok" }, usage: { inputTokens: 1 } };
    answer.self = answer;
    assert.equal(JSON.stringify(plainJson(answer)), '{"result":{"score":4,"notes":"ok"},"usage":{"inputTokens":1},"self":"[Circular]"}');
  });
});

describe("recordings: secrets", () => {
  const env = { OPENAI_API_KEY: "placeholder-live-abcdef123456", GITHUB_TOKEN: "placeholder-gh-0123456789", SHORT_KEY: "abc", PATH: "/usr/bin:/bin:/usr/local/bin" };

  it("takes the values (8 characters or more) of variables named like KEY, TOKEN, SECRET or PASSWORD", () => {
    assert.deepEqual(secretValues(env), ["placeholder-live-abcdef123456", "placeholder-gh-0123456789"]);
  });

  it("replaces them wherever they occur in a string, and the values of credential-named properties", () => {
    const secrets = secretValues(env);
    const value = { prompt: "Use placeholder-live-abcdef123456 twice: placeholder-live-abcdef123456.", headers: { Authorization: "Bearer x", "x-api-key": "k" }, apiKey: "anything", path: "/usr/bin" };
    const out = redact(value, secrets);
    assert.deepEqual(out, { prompt: `Use ${REDACTED} twice: ${REDACTED}.`, headers: { Authorization: REDACTED, "x-api-key": REDACTED }, apiKey: REDACTED, path: "/usr/bin" });
    assert.equal(JSON.stringify(out).includes("sk-live"), false);
  });
});

describe("recordings: what changed", () => {
  it("names the changed fields in words", () => {
    assert.deepEqual(changedFields({ prompt: "a", system: "s" }, { prompt: "b", system: "s" }), ["prompt"]);
    assert.equal(describeChange(["prompt"]), "the prompt changed");
    assert.equal(describeChange(["prompt", "system", "tools"]), "the prompt, the system prompt and the tools changed");
  });

  it("diffs a multi-line prompt by line, with two lines of context and the rest cut", () => {
    const before = { kind: "text", prompt: "One.\nTwo.\nThree.\nFour.\nFive.\nSix.", settings: {} };
    const after = { ...before, prompt: "One.\nTwo.\nThree!\nFour.\nFive.\nSix." };
    assert.deepEqual(inputDiff(before, after), ["  prompt: |", "    | One.", "    | Two.", "-   | Three.", "+   | Three!", "    | Four.", "    | Five."]);
  });
});

describe("recordings: replaying a test's calls", () => {
  const recorded = [call("draftEmail", 1, { prompt: "Write." }), call("scoreDraft", 1, { prompt: "Score." }), call("draftEmail", 2, { prompt: "Again." })];

  it("matches by key and occurrence, whatever the order the calls come in", () => {
    const replay = new TestReplay(recorded);
    assert.equal(replay.next({ library: "stately", key: "draftEmail", input: { prompt: "Write." } }).recorded, recorded[0]);
    assert.equal(replay.next({ library: "stately", key: "draftEmail", input: { prompt: "Again." } }).recorded, recorded[2]);
    assert.equal(replay.next({ library: "stately", key: "scoreDraft", input: { prompt: "Score." } }).recorded, recorded[1]);
    assert.equal(replay.missing(), undefined);
  });

  it("a changed input is drift at that call, with the fields and the diff; every later call is refused with it", () => {
    const replay = new TestReplay(recorded);
    replay.next({ library: "stately", key: "draftEmail", input: { prompt: "Write." } });
    const step = replay.next({ library: "stately", key: "scoreDraft", input: { prompt: "Score it." } });
    assert.equal(step.drift?.message, 'replay drifted at call #2 (request "scoreDraft", occurrence 1): the prompt changed');
    assert.deepEqual(step.drift?.changed, ["prompt"]);
    assert.deepEqual(step.drift?.diff, ['- prompt: "Score."', '+ prompt: "Score it."']);
    assert.equal(replay.next({ library: "stately", key: "draftEmail", input: { prompt: "Again." } }).drift, step.drift);
    assert.equal(replay.missing(), undefined, "after a drift, the drift is the news");
  });

  it("a call the recording does not have, and a recorded call that never came, are drift too", () => {
    const extra = new TestReplay(recorded);
    extra.next({ library: "stately", key: "draftEmail", input: { prompt: "Write." } });
    extra.next({ library: "stately", key: "draftEmail", input: { prompt: "Again." } });
    assert.equal(
      extra.next({ library: "stately", key: "draftEmail", input: { prompt: "More." } }).drift?.message,
      'replay drifted at call #3 (request "draftEmail", occurrence 3): the recording of this test has no such call (it recorded 2 "draftEmail" calls)',
    );
    const short = new TestReplay(recorded);
    short.next({ library: "stately", key: "draftEmail", input: { prompt: "Write." } });
    assert.equal(short.missing()?.message, 'replay drifted at call #2 (request "scoreDraft", occurrence 1): the recording has this call, and the test no longer makes it');
  });

  it("a changed model is drift when both sides name one; a falai call is a `call`, not a request", () => {
    const replay = new TestReplay([{ library: "falai", key: "speak", occurrence: 1, model: "gpt-5-mini", input: { prompt: "p" }, output: { message: "hi" } }]);
    const step = replay.next({ library: "falai", key: "speak", model: "gpt-5", input: { prompt: "p" } });
    assert.equal(step.drift?.message, 'replay drifted at call #1 (call "speak", occurrence 1): the model changed');
  });

  it("keys in another order are the same input (a hand-edited file)", () => {
    const replay = new TestReplay([call("a", 1, { z: 1, y: { b: 2, a: 1 } })]);
    assert.ok(replay.next({ library: "stately", key: "a", input: { y: { a: 1, b: 2 }, z: 1 } }).recorded);
  });
});

describe("recordings: the file", () => {
  const file = { version: 1, file: "x.test.ts", tests: { one: { recordedAt: "2026-12-04T00:00:00.000Z", calls: [call("a", 1, {})] }, two: { recordedAt: "2026-12-04T00:00:00.000Z", calls: [] } } };

  it("says what is wrong with a file that is not a recording", () => {
    assert.equal(recordingProblem(file), undefined);
    assert.equal(recordingProblem({ ...file, version: 2 }), "its version is 2, not 1");
    assert.equal(recordingProblem({ ...file, tests: { one: { recordedAt: "x", calls: [{ key: "a" }] } } }), 'test "one": call 1 needs a library ("stately" or "falai"), a key and an occurrence (1, 2, ...)');
  });

  it("a library-level replay takes one test: named, the only one, or given as its calls", () => {
    assert.equal((recordedCallsOf(file, "one", "stately") as RecordedCall[]).length, 1);
    assert.match(recordedCallsOf(file, undefined, "stately") as string, /holds 2 tests \("one", "two"\): name one with \{ test \}/);
    assert.match(recordedCallsOf(file, "three", "stately") as string, /no test "three"/);
    assert.equal((recordedCallsOf(file.tests.one.calls, undefined, "falai") as RecordedCall[]).length, 0);
  });
});
