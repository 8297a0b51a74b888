// Lays out a machine (states, nested) or a flow (steps) with dagre. Pure: no DOM, so it is unit-tested
// in Node; the panel script turns the result into SVG.
import dagre from "@dagrejs/dagre";
import type { AgentGraph } from "../../server/src/analysis/api";

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
}

export interface Layout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

const CHAR = 7; // average glyph width at the panel's 12px font
const NODE_H = 32;

export function layoutGraph(graph: AgentGraph): Layout {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: true });
  g.setGraph({ rankdir: graph.kind === "flow" ? "LR" : "TB", nodesep: 28, ranksep: 44, edgesep: 12, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(graph.nodes.map((n) => n.id));
  const parents = new Set(graph.nodes.flatMap((n) => (n.parent && ids.has(n.parent) ? [n.parent] : [])));
  for (const node of graph.nodes) {
    const compound = parents.has(node.id);
    g.setNode(node.id, { width: Math.max(64, node.label.length * CHAR + 28), height: NODE_H, label: node.label, ...(compound ? { paddingTop: 28 } : {}) });
  }
  for (const node of graph.nodes) if (node.parent && ids.has(node.parent)) g.setParent(node.id, node.parent);
  graph.edges.forEach((edge, i) => {
    if (!ids.has(edge.source) || !ids.has(edge.target)) return;
    // dagre cannot route edges that touch a cluster; attach those to a child instead.
    const source = parents.has(edge.source) ? firstLeaf(graph, edge.source, parents) : edge.source;
    const target = parents.has(edge.target) ? initialLeaf(graph, edge.target, parents) : edge.target;
    g.setEdge(source, target, { label: edge.label, width: edge.label ? edge.label.length * 6 + 8 : 0, height: edge.label ? 14 : 0, labelpos: "c" }, `e${i}`);
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
    });
  });
  const minY = Math.min(0, ...nodes.map((n) => n.y));
  if (minY < 0) shift(nodes, edges, -minY + 4);
  const width = Math.max(...nodes.map((n) => n.x + n.width), ...edges.flatMap((e) => e.points.map((p) => p.x)), 0) + 12;
  const height = Math.max(...nodes.map((n) => n.y + n.height), ...edges.flatMap((e) => e.points.map((p) => p.y)), 0) + 12;
  return { width, height, nodes, edges };
}

function shift(nodes: LaidOutNode[], edges: LaidOutEdge[], dy: number): void {
  for (const n of nodes) n.y += dy;
  for (const e of edges) {
    for (const p of e.points) p.y += dy;
    if (e.labelAt) e.labelAt.y += dy;
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
