// The few DOM parts the panel's renderers use, as interfaces (so they run in Node on a fake document in
// the tests), and the one function that makes elements: attributes set one by one, text only through
// createTextNode — never HTML parsing.

/** The parts of a DOM event the panel reads (keyboard, wheel and pointer events alike). */
export interface UiEvent {
  preventDefault(): void;
  key?: string;
  clientX?: number;
  clientY?: number;
  deltaX?: number;
  deltaY?: number;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

export interface El {
  appendChild(child: El | TextLike): unknown;
  setAttribute(name: string, value: string): void;
  addEventListener(type: string, listener: (event: UiEvent) => void): void;
  textContent: string | null;
  /** Present in a browser (zoom converts pixels with it). */
  getBoundingClientRect?(): { left: number; top: number; width: number; height: number };
  /** Present in a browser: the scroll position of a scrolling box (a zoomed diagram pans by it). */
  scrollLeft?: number;
  scrollTop?: number;
}
export type TextLike = object;
export interface Doc {
  createElement(tag: string): El;
  createElementNS(ns: string, tag: string): El;
  createTextNode(text: string): TextLike;
}

export type Child = El | string | number | undefined | null | false;

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An element (SVG when `ns` is given) with its attributes and children; strings become text nodes. */
export function element(doc: Doc, tag: string, attrs: Record<string, string | number | undefined> | null, children: Child[], ns?: string): El {
  const el = ns ? doc.createElementNS(ns, tag) : doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) if (v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? doc.createTextNode(String(c)) : c);
  }
  return el;
}
