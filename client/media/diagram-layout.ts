// Lays out a machine (states, nested) or a flow (steps) with dagre. Pure: no DOM, so it is unit-tested
// in Node; the panel script turns the result into SVG. Text is measured by the caller (the webview
// measures with the panel's real font; tests use the estimate). Nothing drawn is in anything else's way:
// a node's badge ("seam") is part of the node's box, an edge label gets a slot of its own in dagre's
// layout (a label node) and sits beside its edge, never on it (edge-labels.ts), and the drawing's size
// covers every box, so nothing is clipped.
import dagre from "@dagrejs/dagre";
import type { AgentGraph } from "@agent-lens/protocol";
import { placeEdgeLabel, reservedLabelSize, LABEL_H, type Box, type Point } from "./edge-labels";

export type { Box, Point };

export interface LaidOutNode {
  id: string;
  label: string;
  type?: string;
  initial: boolean;
  /** Has children drawn inside it. */
  compound: boolean;
  /** Top-left corner and size. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Where the label's text is centred (a badge takes the node's right end). */
  textX: number;
  /** The node's badge, inside its box at the right end. */
  badge?: { text: string; box: Box };
}

export interface LaidOutEdge {
  source: string;
  target: string;
  label: string;
  points: Point[];
  /** The label's centre. */
  labelAt?: Point;
  /** The edge label's measured width. */
  labelWidth: number;
}

export interface Layout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

/** Width in px of a text at the diagram's font: `kind` "node" is 12px, "edge" and "badge" 11px. */
export type Measure = (text: string, kind: "node" | "edge" | "badge") => number;

/** An estimate for where nothing can measure (Node tests): generous, so real text fits in the box. */
export const estimateText: Measure = (text, kind) => [...text].length * (kind === "node" ? 7.5 : 6.8);

export interface LayoutOptions {
  measure?: Measure;
  /** Node ids that get a badge ("seam"), drawn inside the node's box. */
  badges?: ReadonlyMap<string, string>;
}

const NODE_H = 32;
const NODE_PAD = 28;
/** A flow with more steps than this is laid out top to bottom (a long row would not fit a panel). */
const FLOW_ROW_MAX = 5;
const BADGE_H = 16;
/** Space a badge takes: its text, its own padding, and the gap to the node's label. */
const BADGE_PAD = 10;
const BADGE_GAP = 8;
const MARGIN = 8;

export function layoutGraph(graph: AgentGraph, options: LayoutOptions = {}): Layout {
  const measure = options.measure ?? estimateText;
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: true });
  const rankdir = graph.kind === "flow" && graph.nodes.length <= FLOW_ROW_MAX ? "LR" : "TB";
  g.setGraph({ rankdir, nodesep: 28, ranksep: 44, edgesep: 12, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(graph.nodes.map((n) => n.id));
  const parents = new Set(graph.nodes.flatMap((n) => (n.parent && ids.has(n.parent) ? [n.parent] : [])));
  const badgeWidth = (id: string) => {
    const text = options.badges?.get(id);
    return text ? Math.ceil(measure(text, "badge")) + BADGE_PAD : 0;
  };
  for (const node of graph.nodes) {
    const compound = parents.has(node.id);
    const badge = badgeWidth(node.id);
    const width = Math.max(64, Math.ceil(measure(node.label, "node")) + NODE_PAD + (badge ? badge + BADGE_GAP : 0));
    g.setNode(node.id, { width, height: NODE_H, label: node.label, ...(compound ? { paddingTop: 28 } : {}) });
  }
  for (const node of graph.nodes) if (node.parent && ids.has(node.parent)) g.setParent(node.id, node.parent);
  // dagre cannot route edges that touch a cluster; attach those to a child instead.
  const ends = (edge: AgentGraph["edges"][number]) => ({
    source: parents.has(edge.source) ? firstLeaf(graph, edge.source, parents) : edge.source,
    target: parents.has(edge.target) ? initialLeaf(graph, edge.target, parents) : edge.target,
  });
  graph.edges.forEach((edge, i) => {
    if (!ids.has(edge.source) || !ids.has(edge.target)) return;
    const { source, target } = ends(edge);
    const size = edge.label ? reservedLabelSize(Math.ceil(measure(edge.label, "edge")), rankdir, source === target) : { width: 0, height: 0 };
    g.setEdge(source, target, { label: edge.label, ...size, labelpos: "c" }, `e${i}`);
  });
  dagre.layout(g);

  const nodes: LaidOutNode[] = graph.nodes.map((n) => {
    const box = g.node(n.id) as { x: number; y: number; width: number; height: number };
    const compound = parents.has(n.id);
    // Clusters get room at the top for their own label.
    const pad = compound ? 18 : 0;
    const x = box.x - box.width / 2;
    const y = box.y - box.height / 2 - pad;
    const laid: LaidOutNode = { id: n.id, label: n.label, type: n.type, initial: n.initial === true, compound, x, y, width: box.width, height: box.height + pad, textX: box.x };
    const text = options.badges?.get(n.id);
    const bw = badgeWidth(n.id);
    if (text && bw) {
      const top = compound ? y + 6 : y + (NODE_H - BADGE_H) / 2;
      laid.badge = { text, box: { x0: x + box.width - bw - 6, y0: top, x1: x + box.width - 6, y1: top + BADGE_H } };
      if (!compound) laid.textX = x + (box.width - bw - BADGE_GAP / 2) / 2;
    }
    return laid;
  });
  const nodeBoxes = nodes.map((n) => ({ x0: n.x, y0: n.y, x1: n.x + n.width, y1: n.y + n.height }));
  const edges: LaidOutEdge[] = [];
  graph.edges.forEach((edge, i) => {
    if (!ids.has(edge.source) || !ids.has(edge.target)) return;
    const { source, target } = ends(edge);
    const laid = g.edge({ v: source, w: target, name: `e${i}` }) as { points?: Point[]; x?: number; y?: number } | undefined;
    edges.push({ source: edge.source, target: edge.target, label: edge.label, points: (laid?.points ?? []).map((p) => ({ x: p.x, y: p.y })), labelWidth: edge.label ? measure(edge.label, "edge") : 0, ...(edge.label && laid?.x !== undefined && laid.y !== undefined ? { labelAt: { x: laid.x, y: laid.y } } : {}) });
    if (source === target) selfLoop(edges.at(-1)!, nodes.find((n) => n.id === source)!);
  });
  // Each label beside its edge, on the side no edge crosses (checked against every edge drawn).
  for (const e of edges) if (e.labelAt && e.source !== e.target) placeEdgeLabel(e, rankdir, edges, nodeBoxes);

  // Everything drawn, labels included, inside [MARGIN, size - MARGIN].
  if (!nodes.length) return { width: 2 * MARGIN, height: 2 * MARGIN, nodes, edges };
  const boxes = [
    ...nodeBoxes,
    ...edges.flatMap((e) => e.points.map((p) => ({ x0: p.x, y0: p.y, x1: p.x, y1: p.y }))),
    ...edges.flatMap((e) => (e.labelAt ? [labelBox(e)] : [])),
  ];
  const minX = Math.min(...boxes.map((b) => b.x0));
  const minY = Math.min(...boxes.map((b) => b.y0));
  shift(nodes, edges, MARGIN - minX, MARGIN - minY);
  const width = Math.max(...boxes.map((b) => b.x1)) - minX + 2 * MARGIN;
  const height = Math.max(...boxes.map((b) => b.y1)) - minY + 2 * MARGIN;
  return { width, height, nodes, edges };
}

/** The box an edge's label is drawn in. */
export function labelBox(e: Pick<LaidOutEdge, "labelAt" | "labelWidth">): Box {
  const at = e.labelAt ?? { x: 0, y: 0 };
  return { x0: at.x - e.labelWidth / 2, y0: at.y - LABEL_H / 2, x1: at.x + e.labelWidth / 2, y1: at.y + LABEL_H / 2 };
}

/** A transition from a state to itself: a small loop on the node's right side, its label right of it (in
 *  the room dagre kept beside the node for it). */
function selfLoop(e: LaidOutEdge, n: LaidOutNode): void {
  const right = n.x + n.width;
  const cy = n.y + n.height / 2;
  e.points = [{ x: right, y: cy - 8 }, { x: right + 18, y: cy - 8 }, { x: right + 18, y: cy + 8 }, { x: right, y: cy + 8 }];
  if (e.labelAt) e.labelAt = { x: right + 24 + e.labelWidth / 2, y: cy };
}

function shift(nodes: LaidOutNode[], edges: LaidOutEdge[], dx: number, dy: number): void {
  const move = (b: Box) => Object.assign(b, { x0: b.x0 + dx, x1: b.x1 + dx, y0: b.y0 + dy, y1: b.y1 + dy });
  for (const n of nodes) {
    n.x += dx;
    n.y += dy;
    n.textX += dx;
    if (n.badge) move(n.badge.box);
  }
  for (const e of edges) {
    for (const p of e.points) {
      p.x += dx;
      p.y += dy;
    }
    if (e.labelAt) e.labelAt = { x: e.labelAt.x + dx, y: e.labelAt.y + dy };
  }
}

function children(graph: AgentGraph, id: string) {
  return graph.nodes.filter((n) => n.parent === id);
}

function initialLeaf(graph: AgentGraph, id: string, parents: Set<string>): string {
  const kids = children(graph, id);
  const next = kids.find((k) => k.initial) ?? kids[0];
  if (!next) return id;
  return parents.has(next.id) ? initialLeaf(graph, next.id, parents) : next.id;
}

function firstLeaf(graph: AgentGraph, id: string, parents: Set<string>): string {
  const next = children(graph, id)[0];
  if (!next) return id;
  return parents.has(next.id) ? firstLeaf(graph, next.id, parents) : next.id;
}
