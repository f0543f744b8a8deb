// One requestAnimationFrame for every chart of the dashboard: a chart whose inputs may have
// changed asks for a paint, and all the asks of a tick are served together in the next frame,
// each chart once, however many times it asked. Nothing runs while nothing asks, and a hidden
// page (no frames) does no drawing at all.

export interface Paintable {
  /** Draws when its inputs changed since the last paint; returns whether it drew. */
  paint(): boolean;
}

export class FrameScheduler {
  private readonly dirty = new Set<Paintable>();
  private readonly registered = new Set<Paintable>();
  private pending = false;
  /** Frames run and paints that drew (benchmark and regression-test counters). */
  frames = 0;
  paints = 0;

  constructor(private readonly requestFrame: (run: () => void) => void) {}

  register(p: Paintable): void {
    this.registered.add(p);
  }

  unregister(p: Paintable): void {
    this.registered.delete(p);
    this.dirty.delete(p);
  }

  request(p: Paintable): void {
    this.dirty.add(p);
    if (this.pending) return;
    this.pending = true;
    this.requestFrame(() => this.flush());
  }

  /** Every registered chart re-checks its inputs (the theme changed outside React). */
  requestAll(): void {
    for (const p of this.registered) this.request(p);
  }

  flush(): void {
    this.pending = false;
    this.frames += 1;
    const now = [...this.dirty];
    this.dirty.clear();
    for (const p of now) if (p.paint()) this.paints += 1;
  }
}

/** The page's scheduler (tests make their own with a manual frame). */
export const frameScheduler = new FrameScheduler((run) => requestAnimationFrame(run));
