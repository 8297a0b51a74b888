// What the results panel's diagrams draw, measured in the page: every edge (its path's points, in the
// drawing's units) against every edge label, badge and state name (their boxes as the browser laid the
// text out, getBBox), and whether every state is inside the drawing's box as it is shown (zoomed or not).
import type { FrameLocator } from "playwright-core";

export interface DiagramReport {
  graph: string;
  labels: number;
  edges: number;
  /** "edge a → b through label \"x\"", … (empty when nothing is in anything's way). */
  crossings: string[];
  /** States whose box lies (partly) outside the drawing's box on screen. */
  cut: string[];
  /** On screen: the drawing's box, the scrolling box around it. */
  drawn: { width: number; height: number; viewBox: string };
  scroll: { clientWidth: number; scrollWidth: number };
}

// Runs in the page, as plain JavaScript (see contrast.ts for why).
const MEASURE = String.raw`(root) => {
  const hits = (a, b, r) => {
    for (let i = 0; i <= 200; i++) {
      const t = i / 200, x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t;
      if (x > r.x0 && x < r.x1 && y > r.y0 && y < r.y1) return true;
    }
    return false;
  };
  const boxOf = (el, pad) => { const b = el.getBBox(); return { x0: b.x - pad, y0: b.y - pad, x1: b.x + b.width + pad, y1: b.y + b.height + pad }; };
  const out = [];
  for (const figure of root.querySelectorAll("figure.diagram-box")) {
    const svg = figure.querySelector("svg.diagram");
    const obstacles = [];
    for (const t of svg.querySelectorAll("text.edge-label")) obstacles.push(["label \"" + t.textContent + "\"", boxOf(t, 1)]);
    for (const t of svg.querySelectorAll("text.seam-label")) obstacles.push(["badge \"" + t.textContent + "\"", boxOf(t, 1)]);
    for (const t of svg.querySelectorAll("g.node:not(.compound) > text.node-label")) obstacles.push(["name \"" + t.textContent + "\"", boxOf(t, 0)]);
    const crossings = [];
    const paths = svg.querySelectorAll("path.edge");
    for (const p of paths) {
      const pts = (p.getAttribute("d").match(/-?[\d.]+\s+-?[\d.]+/g) || []).map((s) => { const [x, y] = s.trim().split(/\s+/).map(Number); return { x, y }; });
      for (const [what, box] of obstacles) {
        for (let i = 1; i < pts.length; i++) if (hits(pts[i - 1], pts[i], box)) { crossings.push("edge " + p.getAttribute("d").slice(0, 40) + "… through " + what); break; }
      }
    }
    const drawn = svg.getBoundingClientRect();
    const cut = [];
    for (const g of svg.querySelectorAll("g.node")) {
      const r = g.querySelector("rect").getBoundingClientRect();
      if (r.left < drawn.left - 0.5 || r.top < drawn.top - 0.5 || r.right > drawn.right + 0.5 || r.bottom > drawn.bottom + 0.5) cut.push(g.getAttribute("data-node"));
    }
    const scroller = figure.querySelector(".diagram-scroll");
    out.push({ graph: figure.getAttribute("data-graph"), labels: obstacles.length, edges: paths.length, crossings, cut,
      drawn: { width: drawn.width, height: drawn.height, viewBox: svg.getAttribute("viewBox") },
      scroll: { clientWidth: scroller.clientWidth, scrollWidth: scroller.scrollWidth } });
  }
  return out;
}`;

export async function measureDiagrams(panel: FrameLocator, root: string): Promise<DiagramReport[]> {
  // A forwarder without inner functions of its own (nothing for the transform to wrap), calling MEASURE.
  return (await panel.locator(root).first().evaluate((el, code) => (0, eval)(code)(el), MEASURE)) as DiagramReport[];
}
