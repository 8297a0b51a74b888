// WCAG contrast of what the results panel draws, computed in the page from the rendered colours: each
// badge-like element's text colour against the background it is drawn on (its own, else the nearest
// ancestor's, alpha and opacity blended), and the diagram's seam label against its tab. Used by the
// end-to-end suite in light, dark and high-contrast themes.
import type { FrameLocator } from "playwright-core";

export interface ContrastSample {
  what: string;
  text: string;
  ratio: number;
  color: string;
  background: string;
}

/** The selectors whose text must reach WCAG AA (4.5:1, small text). */
const BADGE_SELECTORS = [".badge", ".status", ".source", ".seam-split", "svg.diagram text.seam-label", ".error-head .code"];

// Runs in the page, as plain JavaScript (the test runner's TypeScript transform would add helpers the page
// does not have).
const MEASURE = String.raw`(root, selectors) => {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || "");
    if (!m) return undefined;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const ch = (i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
    return [ch(0), ch(1), ch(2), a];
  };
  const lum = (c) => {
    const f = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const isSvg = (el) => el.namespaceURI === "http://www.w3.org/2000/svg";
  const background = (el) => {
    if (!el) return parse(getComputedStyle(document.body).backgroundColor) || [255, 255, 255, 1];
    const own = isSvg(el) ? undefined : parse(getComputedStyle(el).backgroundColor);
    const below = background(el.parentElement);
    return own && own[3] > 0 ? over(own, below) : below;
  };
  const opacity = (el) => (el ? Number(getComputedStyle(el).opacity || "1") * opacity(el.parentElement) : 1);
  const rgb = (c) => "rgb(" + c.slice(0, 3).map((v) => Math.round(v)).join(", ") + ")";
  const out = [];
  for (const selector of selectors) {
    for (const el of root.querySelectorAll(selector)) {
      const text = (el.textContent || "").trim();
      if (!text || (!isSvg(el) && el.offsetParent === null)) continue;
      const style = getComputedStyle(el);
      let fg;
      let bg;
      if (isSvg(el)) {
        fg = parse(style.fill);
        const tab = el.parentElement && el.parentElement.querySelector("rect.seam-badge");
        const svg = el.closest("svg");
        bg = over(parse(tab ? getComputedStyle(tab).fill : "rgba(0, 0, 0, 0)") || [0, 0, 0, 0], background(svg ? svg.parentElement : null));
      } else {
        fg = parse(style.color);
        bg = background(el);
      }
      if (!fg) continue;
      const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
      const [hi, lo] = [lum(shown), lum(bg)].sort((x, y) => y - x);
      out.push({ what: selector + " " + (el.getAttribute("class") || "").trim(), text: text.slice(0, 40), ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100, color: rgb(shown), background: rgb(bg) });
    }
  }
  return out;
}`;

export async function contrastSamples(panel: FrameLocator, root: string): Promise<ContrastSample[]> {
  // A forwarder without inner functions of its own (nothing for the transform to wrap), calling MEASURE.
  return (await panel.locator(root).first().evaluate((el, [code, selectors]) => (0, eval)(code)(el, selectors), [MEASURE, BADGE_SELECTORS] as const)) as ContrastSample[];
}
