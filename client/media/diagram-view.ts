// Draws a laid-out machine or flow (diagram-layout.ts) as SVG: states / steps (clickable to their source),
// the path a run took, the seam's badge inside its state, edges with their labels beside them; and the
// zoom controls. Zoom scales the drawing's box inside a scrolling box (viewport.ts), so nothing is cut:
// buttons, Ctrl/⌘+wheel and + - 0 zoom, dragging or the wheel scrolls.
import type { DiagramView } from "@agent-lens/protocol";
import { layoutGraph, type Measure } from "./diagram-layout";
import { element, SVG_NS, type Child, type Doc, type El } from "./dom";
import { Zoom } from "./viewport";

export interface DiagramHost {
  reveal(file: string, line: number, column: number, oneBased: boolean): void;
}

export function drawDiagram(doc: Doc, host: DiagramHost, measure: Measure, d: DiagramView): El {
  const h = (tag: string, attrs: Record<string, string | undefined> | null, ...children: Child[]) => element(doc, tag, attrs, children);
  const s = (tag: string, attrs: Record<string, string | number | undefined>, ...children: Child[]) => element(doc, tag, attrs, children, SVG_NS);
  // A compare view's split node wears a "split" badge where a seam run's seam node wears "seam".
  const badge = d.compare?.split ? [d.compare.split, "split"] as const : d.seamNode ? [d.seamNode, "seam"] as const : undefined;
  const layout = layoutGraph(d.graph, { measure, badges: new Map(badge ? [badge] : []) });
  const visited = new Set(d.visited);
  const steps = stepsOf(d.visited);
  // the earlier run's path, in a compare view
  const visitedA = new Set(d.compare?.a ?? []);
  const stepsA = stepsOf(d.compare?.a ?? []);
  const marker = `arrow-${Math.abs(hash(d.graph.id))}`;
  const markerHot = `${marker}-hot`;
  const zoom = new Zoom(layout.width, layout.height);
  const arrow = (id: string, cls: string) => s("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: cls }));
  const svg = s("svg", { class: "diagram", ...zoom.size, viewBox: zoom.viewBox, preserveAspectRatio: "xMinYMin meet", role: "img", tabindex: 0, "aria-label": `${d.graph.kind} ${d.graph.name}` },
    s("defs", {}, arrow(marker, "arrow"), arrow(markerHot, "arrow hot")));
  const pan = { dragging: false, moved: 0, x: 0, y: 0 };
  // Clusters first so their children draw on top; edges after the nodes (they end at the nodes' borders).
  for (const n of [...layout.nodes].sort((a, b) => Number(b.compound) - Number(a.compound))) {
    const source = d.graph.nodes.find((x) => x.id === n.id);
    const cls = ["node", n.compound ? "compound" : "", visited.has(n.id) ? "visited" : "", visitedA.has(n.id) ? "visited-a" : "", d.compare?.split === n.id ? "split" : "", !d.compare && d.seamNode === n.id ? "seam" : "", n.type === "final" ? "final" : "", n.initial ? "initial" : ""].filter(Boolean).join(" ");
    const b = n.badge?.box;
    const g = s("g", { class: cls, tabindex: 0, role: "button", "data-node": n.id },
      s("title", {}, source ? `${n.label} — click to reveal in source` : n.label),
      s("rect", { x: n.x, y: n.y, width: n.width, height: n.height, rx: 6, ry: 6 }),
      n.type === "final" && !n.compound ? s("rect", { x: n.x + 3, y: n.y + 3, width: n.width - 6, height: n.height - 6, rx: 4, ry: 4, class: "inner" }) : null,
      s("text", { x: n.compound ? n.x + 8 : n.textX, y: n.compound ? n.y + 16 : n.y + n.height / 2 + 4, "text-anchor": n.compound ? "start" : "middle", class: "node-label" }, n.label),
      b ? s("rect", { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0, rx: 3, ry: 3, class: "seam-badge" }) : null,
      b ? s("text", { x: (b.x0 + b.x1) / 2, y: b.y1 - 4, "text-anchor": "middle", class: "seam-label" }, n.badge!.text) : null,
    );
    if (source) {
      const reveal = () => host.reveal(source.file, source.range.startLine, source.range.startColumn, false);
      g.addEventListener("click", (e) => { e.preventDefault(); if (pan.moved < 4) reveal(); });
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); reveal(); } });
    }
    svg.appendChild(g);
  }
  for (const e of layout.edges) {
    if (!e.points.length) continue;
    const hot = steps.has(`${e.source}\u0000${e.target}`) || (visited.has(e.source) && visited.has(e.target) && d.visited.indexOf(e.target) > d.visited.indexOf(e.source));
    const path = e.points.map((p, i) => `${i ? "L" : "M"} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
    svg.appendChild(s("path", { d: path, class: hot ? "edge hot" : "edge", "marker-end": `url(#${hot ? markerHot : marker})` }));
    // A's step drawn beside B's (dashed, over it when both took it)
    if (stepsA.has(`${e.source}\u0000${e.target}`)) svg.appendChild(s("path", { d: path, class: "edge path-a" }));
    if (e.label && e.labelAt) svg.appendChild(s("text", { x: e.labelAt.x, y: e.labelAt.y + 4, "text-anchor": "middle", class: hot ? "edge-label hot" : "edge-label" }, e.label));
  }

  const box = h("div", { class: "diagram-scroll" }, svg);
  const zoomText = h("span", { class: "zoom-level muted" }, "100%");
  /** Redraws at the zoom's level, keeping the drawing point under (clientX, clientY) — else the visible
   *  middle — where it was on screen. */
  const apply = (change: () => void, at?: { clientX?: number; clientY?: number }) => {
    const before = svg.getBoundingClientRect?.();
    const view = box.getBoundingClientRect?.();
    change();
    svg.setAttribute("width", String(zoom.size.width));
    svg.setAttribute("height", String(zoom.size.height));
    svg.setAttribute("class", zoom.level > 1 ? "diagram zoomed" : "diagram");
    zoomText.textContent = `${Math.round(zoom.level * 100)}%`;
    const after = svg.getBoundingClientRect?.();
    if (!before || !view || !after || !before.width || !before.height) return;
    const cx = at?.clientX ?? view.left + view.width / 2;
    const cy = at?.clientY ?? view.top + view.height / 2;
    box.scrollLeft = Zoom.keep(cx - before.left, before.width, after.width, cx - view.left);
    box.scrollTop = Zoom.keep(cy - before.top, before.height, after.height, cy - view.top);
  };
  svg.addEventListener("wheel", (e) => {
    if (!e.ctrlKey && !e.metaKey) return; // the box scrolls
    e.preventDefault();
    apply(() => zoom.by(Math.exp(-(e.deltaY ?? 0) / 300)), e);
  });
  svg.addEventListener("pointerdown", (e) => {
    if (zoom.level === 1) return;
    Object.assign(pan, { dragging: true, moved: 0, x: e.clientX ?? 0, y: e.clientY ?? 0 });
  });
  svg.addEventListener("pointermove", (e) => {
    if (!pan.dragging) return;
    const dx = (e.clientX ?? 0) - pan.x;
    const dy = (e.clientY ?? 0) - pan.y;
    Object.assign(pan, { moved: pan.moved + Math.abs(dx) + Math.abs(dy), x: e.clientX ?? 0, y: e.clientY ?? 0 });
    box.scrollLeft = (box.scrollLeft ?? 0) - dx;
    box.scrollTop = (box.scrollTop ?? 0) - dy;
  });
  const stop = () => {
    pan.dragging = false;
    // the click that ends a drag is not a click on a node; the next press starts afresh
    setTimeout(() => (pan.moved = 0), 0);
  };
  svg.addEventListener("pointerup", stop);
  svg.addEventListener("pointerleave", stop);
  svg.addEventListener("keydown", (e) => {
    const step: Record<string, () => void> = { "+": () => zoom.by(1.25), "=": () => zoom.by(1.25), "-": () => zoom.by(0.8), "0": () => zoom.fit() };
    if (!e.key || !step[e.key]) return;
    e.preventDefault();
    apply(step[e.key]!);
  });
  const control = (label: string, title: string, act: () => void) => {
    const b = h("button", { class: "zoom", type: "button", title, "aria-label": title }, label);
    b.addEventListener("click", (e) => { e.preventDefault(); apply(act); });
    return b;
  };
  return h("figure", { class: "diagram-box", "data-graph": d.graph.id },
    h("figcaption", null,
      `${d.graph.kind === "machine" ? "Machine" : "Flow"} `, h("strong", null, d.graph.name),
      d.compare ? h("span", { class: "muted" }, " — both runs' paths") : d.visited.length ? h("span", { class: "muted" }, " — the run's path is highlighted") : null,
      h("span", { class: "zoom-controls" },
        control("−", "Zoom out", () => zoom.by(0.8)), zoomText, control("+", "Zoom in", () => zoom.by(1.25)), control("Fit", "Show the whole diagram", () => zoom.fit()))),
    box);
}

/** Each step of a path (from → to) as one key. */
function stepsOf(path: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < path.length; i++) out.add(`${path[i - 1]}\u0000${path[i]}`);
  return out;
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}
