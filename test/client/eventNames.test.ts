import assert from "node:assert/strict";
import { actorName, describeEvent, describeRequestName } from "../../client/src/panel/event-names";

describe("client: transition events as users think of them", () => {
  it("names XState's own events by the state they belong to, keeping the raw id for hover", () => {
    assert.deepEqual(describeEvent("xstate.done.actor.0.(machine).drafting"), { text: "done: drafting", raw: "xstate.done.actor.0.(machine).drafting" });
    assert.equal(describeEvent("xstate.error.actor.1.(machine).review.scoring").text, "error: review.scoring");
    assert.equal(describeEvent("xstate.done.actor", { actorId: "0.(machine).scoring" }).text, "done: scoring");
    assert.equal(describeEvent("xstate.done.actor", { actorId: "0.(machine).scoring" }).raw, "xstate.done.actor (0.(machine).scoring)");
    assert.equal(describeEvent("@xstate.init", { input: {} }).text, "start");
    assert.equal(describeEvent("xstate.done.state.emailAgent.review").text, "finished: review");
    assert.equal(describeEvent("xstate.after.86400000.(machine).waiting").text, "after 24 h: waiting");
    assert.equal(describeEvent("xstate.after.1500.(machine).waiting").text, "after 1500 ms: waiting");
  });

  it("leaves the user's own events and ids as they are", () => {
    assert.deepEqual(describeEvent("ANSWER"), { text: "ANSWER", raw: "ANSWER" });
    assert.equal(describeEvent("xstate.done.actor.judge").text, "done: judge");
    assert.equal(actorName("judge"), "judge");
    assert.equal(actorName("2.myMachine.a.b"), "a.b");
  });

  it("names an unnamed request by its state, not by its generated invoke id (kept for hover)", () => {
    assert.deepEqual(describeRequestName("0.(machine).titling"), { text: "unnamed request of titling", raw: "0.(machine).titling" });
    assert.equal(describeRequestName("1.notes.review.scoring").text, "unnamed request of review.scoring");
    assert.deepEqual(describeRequestName("summarize"), { text: "summarize", raw: "summarize" });
    assert.equal(describeRequestName("v1.2").text, "v1.2");
  });
});
