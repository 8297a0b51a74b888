// A tiny DOM for testing the panel renderer in Node: elements, text nodes, attributes and listeners.
// Parsing HTML is deliberately impossible here (innerHTML / outerHTML / insertAdjacentHTML throw), so a
// renderer that tried to turn a string into markup fails the test.
import type { Doc, El } from "../../client/media/render";

export class FakeText {
  constructor(readonly data: string) {}
}

export class FakeElement implements El {
  readonly children: Array<FakeElement | FakeText> = [];
  readonly attributes = new Map<string, string>();
  readonly listeners = new Map<string, Array<(e: { preventDefault(): void }) => void>>();
  constructor(readonly tag: string, readonly ns?: string) {}

  appendChild(child: El | object): unknown {
    if (!(child instanceof FakeElement) && !(child instanceof FakeText)) throw new Error("appendChild: not a node");
    this.children.push(child);
    return child;
  }
  setAttribute(name: string, value: string): void {
    if (/^on/i.test(name)) throw new Error(`refusing event-handler attribute ${name}`);
    this.attributes.set(name, value);
  }
  addEventListener(type: string, listener: (e: { preventDefault(): void }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  get textContent(): string {
    return this.children.map((c) => (c instanceof FakeText ? c.data : c.textContent)).join("");
  }
  set textContent(value: string | null) {
    this.children.length = 0;
    if (value) this.children.push(new FakeText(value));
  }
  set innerHTML(_: string) {
    throw new Error("innerHTML used");
  }
  set outerHTML(_: string) {
    throw new Error("outerHTML used");
  }
  insertAdjacentHTML(): void {
    throw new Error("insertAdjacentHTML used");
  }
  click(): void {
    for (const l of this.listeners.get("click") ?? []) l({ preventDefault() {} });
  }
  /** Every element below (and including) this one. */
  all(): FakeElement[] {
    return [this, ...this.children.flatMap((c) => (c instanceof FakeElement ? c.all() : []))];
  }
  find(pred: (e: FakeElement) => boolean): FakeElement | undefined {
    return this.all().find(pred);
  }
  byClass(cls: string): FakeElement[] {
    return this.all().filter((e) => (e.attributes.get("class") ?? "").split(/\s+/).includes(cls));
  }
  texts(): string[] {
    return this.children.flatMap((c) => (c instanceof FakeText ? [c.data] : c.texts()));
  }
}

export const fakeDocument: Doc & { created: FakeElement[] } = {
  created: [],
  createElement(tag: string) {
    const e = new FakeElement(tag);
    this.created.push(e);
    return e;
  },
  createElementNS(ns: string, tag: string) {
    const e = new FakeElement(tag, ns);
    this.created.push(e);
    return e;
  },
  createTextNode(text: string) {
    return new FakeText(text);
  },
};
