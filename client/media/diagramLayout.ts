// Lays out a machine (states, nested) or a flow (steps) with dagre. Pure: no DOM, so it is unit-tested
// in Node; the panel script turns the result into SVG. Text is measured by the caller (the webview
// measures with the panel's real font; tests use the estimate), and the layout's size covers every label
// drawn — node labels, edge labels and the seam badge — so nothing is ever clipped.
import dagre from "@dagrejs/dagre";
import type { AgentGraph } from "@agent-lens/protocol";

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
}

export interface LaidOutEdge {
  source: string;
  target: string;
  label: string;
  points: Array<{ x: number; y: number }>;
  labelAt?: { x: number; y: number };
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
  /** Node ids that get a badge ("seam") above their top-right corner: room is kept for it. */
  badges?: ReadonlyMap<string, string>;
}

const NODE_H = 32;
const NODE_PAD = 28;
/** A flow with more steps than this is laid out top to bottom (a long row would not fit a panel). */
const FLOW_ROW_MAX = 5;
const BADGE_H = 16;

export function layoutGraph(graph: AgentGraph, options: LayoutOptions = {}): Layout {
  const measure = options.measure ?? estimateText;
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: true });
  const rankdir = graph.kind === "flow" && graph.nodes.length <= FLOW_ROW_MAX ? "LR" : "TB";
  g.setGraph({ rankdir, nodesep: 28, ranksep: 44, edgesep: 12, marginx: 12, marginy: 12 + (options.badges?.size ? BADGE_H : 0) });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(graph.nodes.map((n) => n.id));
  const parents = new Set(graph.nodes.flatMap((n) => (n.parent && ids.has(n.parent) ? [n.parent] : [])));
  for (const node of graph.nodes) {
    const compound = parents.has(node.id);
    g.setNode(node.id, { width: Math.max(64, Math.ceil(measure(node.label, "node")) + NODE_PAD), height: NODE_H, label: node.label, ...(compound ? { paddingTop: 28 } : {}) });
  }
  for (const node of graph.nodes) if (node.parent && ids.has(node.parent)) g.setParent(node.id, node.parent);
  graph.edges.forEach((edge, i) => {
    if (!ids.has(edge.source) || !ids.has(edge.target)) return;
    // dagre cannot route edges that touch a cluster; attach those to a child instead.
    const source = parents.has(edge.source) ? firstLeaf(graph, edge.source, parents) : edge.source;
    const target = parents.has(edge.target) ? initialLeaf(graph, edge.target, parents) : edge.target;
    g.setEdge(source, target, { label: edge.label, width: edge.label ? Math.ceil(measure(edge.label, "edge")) + 8 : 0, height: edge.label ? 14 : 0, labelpos: "c" }, `e${i}`);
  });
  dagre.layout(g);

  const nodes: LaidOutNode[] = graph.nodes.map((n) => {
    const box = g.node(n.id) as { x: number; y: number; width: number; height: number };
    const compound = parents.has(n.id);
    // Clusters get room at the top for their own label.
    const pad = compound ? 18 : 0;
    return {
      id: n.id, label: n.label, type: n.type, initial: n.initial === true, compound,
      x: box.x - box.width / 2, y: box.y - box.height / 2 - pad, width: box.width, height: box.height + pad,
    };
  });
  const edges: LaidOutEdge[] = [];
  graph.edges.forEach((edge, i) => {
    if (!ids.has(edge.source) || !ids.has(edge.target)) return;
    const source = parents.has(edge.source) ? firstLeaf(graph, edge.source, parents) : edge.source;
    const target = parents.has(edge.target) ? initialLeaf(graph, edge.target, parents) : edge.target;
    const laid = g.edge({ v: source, w: target, name: `e${i}` }) as { points?: Array<{ x: number; y: number }>; x?: number; y?: number } | undefined;
    edges.push({
      source: edge.source, target: edge.target, label: edge.label, points: laid?.points ?? [],
      labelAt: edge.label && laid?.x !== undefined && laid.y !== undefined ? { x: laid.x, y: laid.y } : undefined,
      labelWidth: edge.label ? measure(edge.label, "edge") : 0,
    });
  });
  // Everything drawn, labels included, inside [MARGIN, size - MARGIN].
  if (!nodes.length) return { width: 2 * MARGIN, height: 2 * MARGIN, nodes, edges };
  const boxes = [
    ...nodes.map((n) => ({ x0: n.x, y0: n.y, x1: n.x + n.width, y1: n.y + n.height })),
    ...edges.flatMap((e) => e.points.map((p) => ({ x0: p.x, y0: p.y, x1: p.x, y1: p.y }))),
    ...edges.flatMap((e) => (e.labelAt ? [{ x0: e.labelAt.x - e.labelWidth / 2, y0: e.labelAt.y - 8, x1: e.labelAt.x + e.labelWidth / 2, y1: e.labelAt.y + 8 }] : [])),
    ...nodes.flatMap((n) => {
      const badge = options.badges?.get(n.id);
      return badge ? [badgeBox(n, measure(badge, "badge"))] : [];
    }),
  ];
  const minX = Math.min(...boxes.map((b) => b.x0));
  const minY = Math.min(...boxes.map((b) => b.y0));
  shift(nodes, edges, MARGIN - minX, MARGIN - minY);
  const width = Math.max(...boxes.map((b) => b.x1)) - minX + 2 * MARGIN;
  const height = Math.max(...boxes.map((b) => b.y1)) - minY + 2 * MARGIN;
  return { width, height, nodes, edges };
}

const MARGIN = 8;

/** Where a node's badge goes: a tab on its top edge, right-aligned. */
export function badgeBox(n: Pick<LaidOutNode, "x" | "y" | "width">, textWidth: number): { x0: number; y0: number; x1: number; y1: number } {
  const w = textWidth + 10;
  return { x0: n.x + n.width - w, y0: n.y - BADGE_H, x1: n.x + n.width, y1: n.y };
}

function shift(nodes: LaidOutNode[], edges: LaidOutEdge[], dx: number, dy: number): void {
  for (const n of nodes) {
    n.x += dx;
    n.y += dy;
  }
  for (const e of edges) {
    for (const p of e.points) {
      p.x += dx;
      p.y += dy;
    }
    if (e.labelAt) {
      e.labelAt.x += dx;
      e.labelAt.y += dy;
    }
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
