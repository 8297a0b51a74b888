// The price table of common models and how a call's model name finds its price: exactly, after a provider
// prefix, or with a version suffix — never another model of the family.
import assert from "node:assert/strict";
import { costOf, DEFAULT_MODEL_PRICES, priceOf } from "@agent-lens/settings";

describe("model prices", () => {
  it("finds a model by its name, after a provider or models/ prefix, or with a date or version suffix", () => {
    assert.deepEqual(priceOf("gpt-5-mini"), { input: 0.25, output: 2 });
    assert.deepEqual(priceOf("openai/gpt-5-mini"), priceOf("gpt-5-mini"));
    assert.deepEqual(priceOf("models/gemini-2.5-flash"), DEFAULT_MODEL_PRICES["gemini-2.5-flash"]);
    assert.deepEqual(priceOf("claude-sonnet-4-5-20250929"), DEFAULT_MODEL_PRICES["claude-sonnet-4-5"]);
    assert.deepEqual(priceOf("gpt-4o-2024-08-06"), DEFAULT_MODEL_PRICES["gpt-4o"]);
  });

  it("never prices a model as another of its family, nor an unknown one", () => {
    assert.equal(priceOf("gpt-5.5-pro"), undefined);
    assert.equal(priceOf("gemini-2.5-flash-image"), undefined);
    assert.equal(priceOf("mock-provider/mock-model-id"), undefined);
    assert.equal(priceOf(undefined), undefined);
  });

  it("the setting's prices go over the table; the cost is tokens times the price per million", () => {
    const prices = { ...DEFAULT_MODEL_PRICES, "gpt-5-mini": { input: 1, output: 10 }, "mock-model-id": { input: 2, output: 4 } };
    assert.deepEqual(priceOf("gpt-5-mini", prices), { input: 1, output: 10 });
    assert.equal(costOf({ inputTokens: 1_000, outputTokens: 500 }, priceOf("mock-provider/mock-model-id", prices)!), 0.004);
  });
});
