// Edge labels beside their edges, never on them. dagre keeps a slot for each label in the rank between
// the edge's ends (a label node), twice the label's size across the edge, with the edge through its
// middle: the edge then runs straight through the slot (a short stub along the rank direction) and the
// label takes the half of the slot no edge crosses. Pure geometry, unit-tested in Node.

export interface Point {
  x: number;
  y: number;
}

/** A box by its corners. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Height of an edge label's box (11px text, with room for the font's ascent and descent). */
export const LABEL_H = 16;
/** Between an edge and its label. */
const GAP = 6;
/** Room beside a node for a transition to itself (its loop, then its label). */
const LOOP = 30;

/** The size dagre keeps for a label `width` wide: room for it on either side of its edge. */
export function reservedLabelSize(width: number, rankdir: "TB" | "LR", selfLoop: boolean): { width: number; height: number } {
  if (selfLoop) return { width: width + LOOP, height: LABEL_H };
  return rankdir === "TB" ? { width: 2 * (width + GAP), height: LABEL_H + 8 } : { width: width + 8, height: 2 * (LABEL_H + GAP) };
}

interface LabelledEdge {
  points: Point[];
  labelAt?: Point;
  labelWidth: number;
}

/** Runs `edge` straight through its label's slot and puts the label on the side of it that no edge
 *  crosses and no node covers (the first side when both are free; else the one with fewer in its way). */
export function placeEdgeLabel(edge: LabelledEdge, rankdir: "TB" | "LR", edges: readonly LabelledEdge[], nodes: readonly Box[]): void {
  const c = edge.labelAt;
  if (!c || !edge.points.length) return;
  const w = edge.labelWidth;
  const k = nearest(edge.points, c);
  const stub = rankdir === "TB"
    ? [{ x: c.x, y: c.y - LABEL_H / 2 - 4 }, { x: c.x, y: c.y + LABEL_H / 2 + 4 }]
    : [{ x: c.x - w / 2 - 4, y: c.y }, { x: c.x + w / 2 + 4, y: c.y }];
  // The stub goes the way the edge does (a reversed edge runs bottom-up or right-to-left).
  const before = edge.points[k - 1] ?? edge.points[k]!;
  const after = edge.points[k + 1] ?? edge.points[k]!;
  const forward = rankdir === "TB" ? after.y >= before.y : after.x >= before.x;
  edge.points.splice(k, 1, ...(forward ? stub : stub.reverse()));
  const sides: Box[] = rankdir === "TB"
    ? [{ x0: c.x + GAP, x1: c.x + GAP + w, y0: c.y - LABEL_H / 2, y1: c.y + LABEL_H / 2 }, { x0: c.x - GAP - w, x1: c.x - GAP, y0: c.y - LABEL_H / 2, y1: c.y + LABEL_H / 2 }]
    : [{ x0: c.x - w / 2, x1: c.x + w / 2, y0: c.y - GAP - LABEL_H, y1: c.y - GAP }, { x0: c.x - w / 2, x1: c.x + w / 2, y0: c.y + GAP, y1: c.y + GAP + LABEL_H }];
  // Checked with a margin: the browser's text box is a little larger than the measured width and height.
  const conflicts = (box: Box) => {
    const wide = { x0: box.x0 - 3, y0: box.y0 - 3, x1: box.x1 + 3, y1: box.y1 + 3 };
    return edges.filter((e) => crosses(e.points, wide)).length + nodes.filter((n) => overlaps(n, wide)).length;
  };
  const [first, second] = sides.map(conflicts);
  const chosen = second! < first! ? sides[1]! : sides[0]!;
  edge.labelAt = { x: (chosen.x0 + chosen.x1) / 2, y: (chosen.y0 + chosen.y1) / 2 };
}

function nearest(points: readonly Point[], c: Point): number {
  let best = 0;
  points.forEach((p, i) => {
    if (Math.hypot(p.x - c.x, p.y - c.y) < Math.hypot(points[best]!.x - c.x, points[best]!.y - c.y)) best = i;
  });
  return best;
}

/** Does the polyline pass through the box's inside? */
export function crosses(points: readonly Point[], box: Box): boolean {
  for (let i = 1; i < points.length; i++) if (segmentHits(points[i - 1]!, points[i]!, box)) return true;
  return false;
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Liang–Barsky: does the segment a→b enter the box's open inside? */
function segmentHits(a: Point, b: Point, box: Box): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q > 0;
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
    return true;
  };
  if (!clip(-dx, a.x - box.x0) || !clip(dx, box.x1 - a.x) || !clip(-dy, a.y - box.y0) || !clip(dy, box.y1 - a.y)) return false;
  if (t0 >= t1) return false;
  // Touching an edge of the box is not entering it.
  const mid = { x: a.x + dx * ((t0 + t1) / 2), y: a.y + dy * ((t0 + t1) / 2) };
  return mid.x > box.x0 && mid.x < box.x1 && mid.y > box.y0 && mid.y < box.y1;
}
