// Zoom and pan of a diagram, as the SVG viewBox it shows: at first the whole diagram (fit), zoomed in up
// to 8×, never out past the whole. Pure arithmetic in diagram units, unit-tested without a DOM.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const MAX_ZOOM = 8;

export class Viewport {
  box: Box;

  constructor(readonly width: number, readonly height: number) {
    this.box = { x: 0, y: 0, w: width, h: height };
  }

  /** How much bigger than "fit" the diagram is drawn (1 = the whole diagram). */
  get zoom(): number {
    return this.width / this.box.w;
  }

  /** Zooms by `factor` (> 1 in) keeping the diagram point (cx, cy) where it is on screen. */
  zoomBy(factor: number, cx = this.box.x + this.box.w / 2, cy = this.box.y + this.box.h / 2): void {
    const zoom = Math.min(MAX_ZOOM, Math.max(1, this.zoom * factor));
    const w = this.width / zoom;
    const h = this.height / zoom;
    const fx = (cx - this.box.x) / this.box.w;
    const fy = (cy - this.box.y) / this.box.h;
    this.box = this.clamp({ x: cx - fx * w, y: cy - fy * h, w, h });
  }

  /** Moves the view by (dx, dy) diagram units (dragging the diagram left moves the view right). */
  panBy(dx: number, dy: number): void {
    this.box = this.clamp({ ...this.box, x: this.box.x + dx, y: this.box.y + dy });
  }

  fit(): void {
    this.box = { x: 0, y: 0, w: this.width, h: this.height };
  }

  get viewBox(): string {
    const r = (n: number) => Math.round(n * 100) / 100;
    return `${r(this.box.x)} ${r(this.box.y)} ${r(this.box.w)} ${r(this.box.h)}`;
  }

  private clamp(b: Box): Box {
    return { w: b.w, h: b.h, x: Math.min(Math.max(0, b.x), this.width - b.w), y: Math.min(Math.max(0, b.y), this.height - b.h) };
  }
}
