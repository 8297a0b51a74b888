// The results panel's model calls (issue 25, item 6): replay badges, tokens, estimated cost per call and per
// run from the price table (and the setting over it), a drift's input diff in its error card — from the
// harness's own event shapes, drawn on the fake DOM.
import assert from "node:assert/strict";
import type { DriftInfo, HarnessEvent, ModelCallInfo } from "@agent-lens/protocol";
import { DEFAULT_MODEL_PRICES } from "@agent-lens/settings/model-prices";
import { Renderer } from "../../client/media/render";
import { priceView, sourceText } from "../../client/src/panel/model-calls";
import { buildResultView } from "../../client/src/panel/view-model";
import { FakeElement, fakeDocument } from "./fakeDom";
import { EVAL } from "./samples";

const call = (over: Partial<ModelCallInfo>): ModelCallInfo => ({ index: 1, library: "stately", key: "draftEmail", occurrence: 1, source: "live", input: { prompt: "p" }, ...over });
const start: HarnessEvent = { type: "start", file: EVAL, pid: 1, time: "2026-12-05T00:00:00.000Z", runtime: {} };
const end = (status: "passed" | "failed"): HarnessEvent => ({ type: "end", file: EVAL, status, durationMs: 12, summary: { passed: status === "passed" ? 2 : 0, failed: status === "failed" ? 1 : 0, skipped: 0 } });

function draw(events: HarnessEvent[], prices = DEFAULT_MODEL_PRICES): FakeElement {
  const view = priceView(buildResultView({ runId: 1, title: "Eval · email.eval.ts", file: EVAL, events, graphs: [] }), prices);
  return new Renderer(fakeDocument, { reveal() {}, rerun() {} }).view(view) as FakeElement;
}

describe("client: model calls in the results panel", () => {
  it("says where each answer came from, with tokens, and prices the live calls whose model is known", () => {
    const root = draw([
      start,
      { type: "model-call", test: "drafts", call: call({ source: "replayed", recordedAt: "2026-12-04T09:30:00.000Z", model: "openai/gpt-5-mini", usage: { inputTokens: 100, outputTokens: 20 } }) },
      { type: "model-call", test: "scores", call: call({ key: "scoreDraft", model: "gpt-5-mini", usage: { inputTokens: 1000, outputTokens: 500 } }) },
      { type: "model-call", test: "scores", call: call({ index: 2, key: "scoreDraft", occurrence: 2, model: "my-own-model", usage: { inputTokens: 10, outputTokens: 5 } }) },
      end("passed"),
    ]);
    const badges = root.byClass("call-source").map((b) => b.textContent);
    assert.deepEqual(badges, ["replayed (recorded 2026-12-04, openai/gpt-5-mini)", "live", "live"]);
    const rows = root.find((e) => e.tag === "table" && /model-call-rows/.test(e.attributes.get("class") ?? ""))!.find((e) => e.tag === "tbody")!.children as FakeElement[];
    assert.match(rows[0]!.textContent, /100 in \/ 20 out tokens.*none \(replayed\)/);
    const price = DEFAULT_MODEL_PRICES["gpt-5-mini"]!;
    const expected = (1000 * price.input + 500 * price.output) / 1e6;
    assert.ok(expected > 0);
    assert.equal(root.byClass("cost")[0]!.textContent, `≈ $${expected >= 0.01 ? expected.toFixed(2) : expected.toFixed(6).replace(/0+$/, "")}`);
    assert.match(rows[2]!.textContent, /no price/);
    const total = root.byClass("run-cost")[0]!.textContent;
    assert.match(total, /^3 model calls: 2 live, 1 replayed · 1,110 in \/ 525 out tokens · live calls ≈ \$[\d.]+ \(list prices as of 2026-04, may be stale; no price for my-own-model\)$/);
  });

  it("a price from the setting overrides the table; a replay-only run says nothing was spent", () => {
    const events = [start, { type: "model-call", test: "t", call: call({ model: "house-llm", usage: { inputTokens: 1_000_000, outputTokens: 0 } }) } as HarnessEvent, end("passed")];
    assert.equal(draw(events, { ...DEFAULT_MODEL_PRICES, "house-llm": { input: 3, output: 9 } }).byClass("cost")[0]!.textContent, "≈ $3.00");
    const replayed = draw([start, { type: "model-call", test: "t", call: call({ source: "replayed", recordedAt: "2026-12-01T00:00:00.000Z" }) }, end("passed")]);
    assert.match(replayed.byClass("run-cost")[0]!.textContent, /1 replayed · nothing spent/);
    assert.equal(sourceText({ source: "replayed" }), "replayed (recorded)");
  });

  it("a drift's card says the drift once and draws its input diff, recorded against now", () => {
    const drift: DriftInfo = {
      reason: "changed", index: 2, library: "stately", key: "draftEmail", occurrence: 1, model: "gpt-5-mini",
      message: 'replay drifted at call #2 (request "draftEmail", occurrence 1): the prompt changed',
      changed: ["prompt"], diff: ["  prompt:", "- Write a short email.", "+ Write a long email."],
      recording: "/w/evals/__recordings__/email.eval.ts.json", rerecord: "agent-lens run --record evals/email.eval.ts",
      callSite: { file: EVAL, line: 9, column: 3 },
    };
    const failure = { message: `${drift.message}\n${drift.diff!.join("\n")}\nRecord it again: ${drift.rerecord}`, code: "replay-drift", location: drift.callSite };
    const root = draw([start, { type: "drift", test: "drafts", drift }, { type: "test-end", test: "drafts", status: "failed", durationMs: 3, failure }, { type: "fail", test: "drafts", failure }, end("failed")]);
    const cards = root.byClass("error-card");
    assert.equal(cards.length, 1);
    assert.equal(cards[0]!.byClass("message")[0]!.textContent, drift.message);
    assert.deepEqual(cards[0]!.byClass("diff-del").map((e) => e.textContent), ["- Write a short email.\n"]);
    assert.deepEqual(cards[0]!.byClass("diff-add").map((e) => e.textContent), ["+ Write a long email.\n"]);
    assert.match(cards[0]!.textContent, /Record it again: agent-lens run --record evals\/email\.eval\.ts/);
  });
});
