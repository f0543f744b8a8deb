// Work per frame: the frame scheduler serves every ask of a tick in one frame, each chart once;
// a chart whose inputs did not change neither downsamples nor touches its canvas; a new sample,
// a zoom or a theme repaints it; and what was drawn is reported (points per series, reference
// lines inside the range) for the DOM that describes the canvas. Counted in calls, not time.
import { describe, expect, it } from 'vitest';
import { FrameScheduler, type Paintable } from '../../../../../../renderer/src/ui/dashboard/frame-scheduler';
import type { TrackModel } from '../../../../../../renderer/src/ui/dashboard/panel-model';
import { PointsCache } from '../../../../../../renderer/src/ui/dashboard/points-cache';
import { SeriesStore } from '../../../../../../renderer/src/ui/dashboard/series-store';
import {
  TrackPainter,
  type CanvasLike,
  type ChartColors,
  type Context2D,
  type PaintResult,
  type TrackInputs,
} from '../../../../../../renderer/src/ui/dashboard/track-painter';

/** A 2D context that counts its calls (what drawing would cost). */
function recordingCanvas() {
  const calls: string[] = [];
  const record = (name: string) => () => void calls.push(name);
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    font: '',
    textAlign: 'left',
    globalAlpha: 1,
    ...Object.fromEntries(
      [
        'setTransform',
        'clearRect',
        'fillRect',
        'beginPath',
        'moveTo',
        'lineTo',
        'stroke',
        'fillText',
        'setLineDash',
        'save',
        'restore',
        'rect',
        'clip',
      ].map((name) => [name, record(name)]),
    ),
  } as unknown as Context2D;
  const canvas: CanvasLike = { width: 0, height: 0, getContext: () => ctx };
  return { canvas, calls };
}

const DARK: ChartColors = { grid: '#222', faint: '#666', throttleBand: 'rgba(255,0,0,0.1)', font: 'sans-serif' };
const LIGHT: ChartColors = { ...DARK, grid: '#eee' };

const track: TrackModel = {
  id: 'process-memory',
  title: 'Engine memory',
  unit: 'bytes',
  series: [{ key: 'rssBytes', label: 'RSS', color: '#4c9bff', sourceUnit: 'bytes' }],
  refLines: [
    { y: 1.5e6, label: 'budget', color: '#f00' },
    { y: 1e12, label: 'far budget', color: '#f00' },
  ],
};

function setup(points = 5000) {
  const store = new SeriesStore();
  store.ingest(
    Array.from({ length: points }, (_, i) => ({ tMs: i * 100, source: 'procfs', values: { rssBytes: 1e6 + i * 10 } })),
  );
  const cache = new PointsCache();
  const { canvas, calls } = recordingCanvas();
  let colors = DARK;
  const results: PaintResult[] = [];
  const painter = new TrackPainter(
    canvas,
    () => colors,
    () => 1,
    (r) => results.push(r),
  );
  const inputs = (patch: Partial<TrackInputs> = {}): TrackInputs => ({
    track,
    store,
    cache,
    domain: { t0: 0, t1: (points - 1) * 100 },
    widthPx: 876,
    roofline: null,
    promptTokens: 0,
    throttle: [],
    eventTimes: [],
    vLines: [],
    ...patch,
  });
  return { store, cache, canvas, calls, painter, inputs, results, setColors: (c: ChartColors) => (colors = c) };
}

describe('TrackPainter', () => {
  it('draws once, then does no work for a frame with the same inputs', () => {
    const { painter, inputs, calls, cache, results, canvas } = setup();
    painter.setInputs(inputs());
    expect(painter.paint()).toBe(true);
    const drawCalls = calls.length;
    expect(drawCalls).toBeGreaterThan(0);
    expect(cache.computed).toBe(1);
    expect(canvas.width).toBe(876);
    // 5,000 points on an 800 px plot (876 − 64 − 12): at most 2 per column, the line is drawn whole.
    expect(results[0]?.points.rssBytes).toBeLessThanOrEqual(2 * 800 + 2);
    expect(calls.filter((c) => c === 'lineTo').length).toBeGreaterThanOrEqual((results[0]?.points.rssBytes ?? 0) - 1);
    // The budget is inside the data's range; the far one is not drawn.
    expect(results[0]?.refDrawn).toEqual({ budget: true, 'far budget': false });

    // Same values in new objects (a React re-render): nothing downsampled, nothing drawn.
    painter.setInputs(inputs({ eventTimes: [], throttle: [], domain: { ...inputs().domain } }));
    expect(painter.paint()).toBe(false);
    expect(calls.length).toBe(drawCalls);
    expect(cache.computed).toBe(1);
    expect(results).toHaveLength(1);
  });

  it('repaints for a new sample, a zoom, an event, a resize and a theme', () => {
    const { painter, inputs, store, cache, calls, setColors } = setup(100);
    painter.setInputs(inputs());
    painter.paint();
    let before = calls.length;
    const repainted = () => {
      const drew = painter.paint() && calls.length > before;
      before = calls.length;
      return drew;
    };
    store.ingest([{ tMs: 100 * 100, source: 'procfs', values: { rssBytes: 2e6 } }]);
    expect(repainted()).toBe(true);
    expect(cache.computed).toBe(2);
    painter.setInputs(inputs({ domain: { t0: 1000, t1: 5000 } }));
    expect(repainted()).toBe(true);
    painter.setInputs(inputs({ domain: { t0: 1000, t1: 5000 }, eventTimes: [2000] }));
    expect(repainted()).toBe(true);
    expect(cache.computed).toBe(3); // an event line does not downsample again
    painter.setInputs(inputs({ domain: { t0: 1000, t1: 5000 }, eventTimes: [2000], widthPx: 600 }));
    expect(repainted()).toBe(true);
    setColors(LIGHT);
    expect(repainted()).toBe(true);
    expect(repainted()).toBe(false);
  });
});

describe('FrameScheduler', () => {
  it('serves every ask of a tick in one frame, each chart once', () => {
    const frames: Array<() => void> = [];
    const scheduler = new FrameScheduler((run) => frames.push(run));
    const painted: string[] = [];
    const chart = (name: string): Paintable => ({ paint: () => (painted.push(name), true) });
    const a = chart('a');
    const b = chart('b');
    scheduler.request(a);
    scheduler.request(b);
    scheduler.request(a);
    expect(frames).toHaveLength(1);
    frames[0]?.();
    expect(painted).toEqual(['a', 'b']);
    expect(scheduler.frames).toBe(1);
    // Nothing asked: no frame is requested.
    expect(frames).toHaveLength(1);
    scheduler.register(a);
    scheduler.register(b);
    scheduler.unregister(b);
    scheduler.requestAll();
    frames[1]?.();
    expect(painted).toEqual(['a', 'b', 'a']);
  });
});
