// The zoom of a diagram: how much bigger than its natural size it is drawn. Zooming scales the drawing's
// box (the SVG's width and height; its viewBox always holds the whole drawing), inside a box that scrolls
// — so zoomed in, everything is still there, a scroll away. At 100% a diagram wider than the panel is
// shrunk to fit it. Pure arithmetic, unit-tested without a DOM.

const MAX_ZOOM = 8;

export class Zoom {
  level = 1;

  constructor(readonly width: number, readonly height: number) {}

  /** Zooms by `factor` (> 1 in), between 100% and MAX_ZOOM. */
  by(factor: number): void {
    this.level = Math.min(MAX_ZOOM, Math.max(1, Math.round(this.level * factor * 1000) / 1000));
  }

  fit(): void {
    this.level = 1;
  }

  /** The drawing's size on screen (before the panel shrinks a 100% drawing to its width). */
  get size(): { width: number; height: number } {
    return { width: Math.ceil(this.width * this.level), height: Math.ceil(this.height * this.level) };
  }

  get viewBox(): string {
    const r = (n: number) => Math.round(n * 100) / 100;
    return `0 0 ${r(this.width)} ${r(this.height)}`;
  }

  /** Where to scroll so the drawing point that was at (px, py) of the box's visible area stays there:
   *  `at` is the point's offset in the drawing as drawn before the zoom (pixels), `before` that zoom. */
  static keep(at: number, before: number, after: number, offsetInView: number): number {
    return Math.max(0, (at / before) * after - offsetInView);
  }
}
