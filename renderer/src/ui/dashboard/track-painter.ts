// Draws one track of a panel on a <canvas>: the series of the track against run time on the
// dashboard's shared x axis, the throttle intervals shaded, events as thin dashed lines,
// reference levels (budget, trip points) as dashed lines with their label, time markers (OOM
// horizon) as vertical lines, the y grid with its labels and the time ticks.
//
// Canvas, not recharts or SVG, is a performance choice for these dense live series (issue 9's
// UI benchmark): an SVG polyline of ~2,800 points per series costs string building, attribute
// parsing, layout and paint on every 4 Hz tick, and recharts adds its own per-point work on top
// (renderer/src/live/live-config.ts notes ≈ 1.5 s for 5,000 points here). A canvas repaint of the
// same points is one path per series. recharts stays the app's charting library (the RSS-
// against-tokens chart, renderer/src/ui/MemoryChart.tsx). What a reader or a test needs stays
// DOM: the canvas is role="img" with a label, legends and readouts are text, and each drawn
// series and reference line reports what was drawn (data-points, data-drawn) through onPainted.
import type { ThrottleInterval } from '../../../../shared/analysis/throttle';
import type { Paintable } from './frame-scheduler';
import { byteScaleOf, formatRunTime, formatTick, niceTicks, timeTicks } from './format-unit';
import { seriesPoints, type PointsInputs, type TrackModel, type VLine } from './panel-model';
import type { CachedPoints } from './points-cache';

/** Left gutter (y labels) and right margin, the same for every track so x positions line up. */
export const PLOT_LEFT_PX = 64;
export const PLOT_RIGHT_PX = 12;
export const TRACK_HEIGHT_PX = 132;
export const PAD_TOP_PX = 8;
export const PAD_BOTTOM_PX = 20;

/** Colours of the theme (renderer/src/styles/base.css custom properties), read once per theme. */
export interface ChartColors {
  grid: string;
  faint: string;
  throttleBand: string;
  font: string;
}

export interface TrackInputs extends Omit<PointsInputs, 'plotWidthPx'> {
  track: TrackModel;
  widthPx: number;
  throttle: readonly ThrottleInterval[];
  eventTimes: readonly number[];
  vLines: readonly VLine[];
}

/** What a paint drew, for the DOM that describes the canvas. */
export interface PaintResult {
  /** Points drawn per series key. */
  points: Record<string, number>;
  /** Whether each reference line (by label) fell inside the y range and was drawn. */
  refDrawn: Record<string, boolean>;
}

/** The 2D context calls the painter makes (a subset of CanvasRenderingContext2D, so tests can record them). */
export type Context2D = Pick<
  CanvasRenderingContext2D,
  | 'setTransform'
  | 'clearRect'
  | 'fillRect'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'stroke'
  | 'fillText'
  | 'setLineDash'
  | 'save'
  | 'restore'
  | 'rect'
  | 'clip'
> & {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textAlign: CanvasTextAlign;
  globalAlpha: number;
};

export interface CanvasLike {
  width: number;
  height: number;
  getContext(kind: '2d'): Context2D | null;
}

const sameNumbers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const sameIntervals = (a: readonly ThrottleInterval[], b: readonly ThrottleInterval[]) =>
  a.length === b.length && a.every((x, i) => x.startMs === b[i]?.startMs && x.endMs === b[i]?.endMs);
const sameVLines = (a: readonly VLine[], b: readonly VLine[]) =>
  a.length === b.length && a.every((x, i) => x.tMs === b[i]?.tMs && x.label === b[i]?.label);

interface Painted {
  track: TrackModel;
  points: CachedPoints[];
  t0: number;
  t1: number;
  widthPx: number;
  pixelRatio: number;
  colors: ChartColors;
  throttle: readonly ThrottleInterval[];
  eventTimes: readonly number[];
  vLines: readonly VLine[];
}

/**
 * The y range of the track: zero-based except temperatures; reference lines near the data widen it,
 * and every one of an alarm-level track (its alarm levels are what its line is read against).
 */
export function yRange(track: TrackModel, points: readonly CachedPoints[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    if (p.yMin < lo) lo = p.yMin;
    if (p.yMax > hi) hi = p.yMax;
  }
  if (!(hi >= lo)) return [0, 1];
  // Reference lines widen the range only when near the data (a budget far above stays a label).
  for (const r of track.refLines)
    if (track.alarmLevel || (r.y <= hi * 1.5 && r.y >= lo - Math.abs(hi - lo))) hi = Math.max(hi, r.y);
  const zeroBased = track.unit !== 'celsius';
  const min = zeroBased ? Math.min(0, lo) : Math.floor(lo - 2);
  const max = hi === min ? min + 1 : hi + (hi - min) * 0.06;
  return [min, max];
}

export class TrackPainter implements Paintable {
  private inputs: TrackInputs | null = null;
  private last: Painted | null = null;

  constructor(
    private readonly canvas: CanvasLike,
    private readonly colors: () => ChartColors,
    private readonly pixelRatio: () => number,
    private readonly onPainted: (result: PaintResult) => void,
  ) {}

  /** The inputs of the next paint (the chart asks the frame scheduler for one after this). */
  setInputs(inputs: TrackInputs): void {
    this.inputs = inputs;
  }

  paint(): boolean {
    const input = this.inputs;
    if (!input) return false;
    const plotWidthPx = Math.max(10, input.widthPx - PLOT_LEFT_PX - PLOT_RIGHT_PX);
    const points = input.track.series.map((s) => seriesPoints(s, { ...input, plotWidthPx }));
    const next: Painted = {
      track: input.track,
      points,
      t0: input.domain.t0,
      t1: input.domain.t1,
      widthPx: input.widthPx,
      pixelRatio: this.pixelRatio(),
      colors: this.colors(),
      throttle: input.throttle,
      eventTimes: input.eventTimes,
      vLines: input.vLines,
    };
    if (this.last && unchanged(this.last, next)) return false;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return false;
    this.last = next;
    this.onPainted(draw(ctx, this.canvas, next));
    return true;
  }
}

function unchanged(a: Painted, b: Painted): boolean {
  return (
    a.track === b.track &&
    a.t0 === b.t0 &&
    a.t1 === b.t1 &&
    a.widthPx === b.widthPx &&
    a.pixelRatio === b.pixelRatio &&
    a.colors === b.colors &&
    a.points.length === b.points.length &&
    a.points.every((p, i) => p === b.points[i]) &&
    sameIntervals(a.throttle, b.throttle) &&
    sameNumbers(a.eventTimes, b.eventTimes) &&
    sameVLines(a.vLines, b.vLines)
  );
}

function draw(ctx: Context2D, canvas: CanvasLike, p: Painted): PaintResult {
  const { track, widthPx, colors } = p;
  const heightPx = TRACK_HEIGHT_PX;
  const deviceWidth = Math.round(widthPx * p.pixelRatio);
  const deviceHeight = Math.round(heightPx * p.pixelRatio);
  // The bitmap follows the CSS size (TimeChart.tsx) times the pixel ratio; resizing clears it,
  // so only when the size really changed.
  if (canvas.width !== deviceWidth || canvas.height !== deviceHeight) {
    canvas.width = deviceWidth;
    canvas.height = deviceHeight;
  }
  ctx.setTransform(p.pixelRatio, 0, 0, p.pixelRatio, 0, 0);
  ctx.clearRect(0, 0, widthPx, heightPx);

  const plotW = Math.max(10, widthPx - PLOT_LEFT_PX - PLOT_RIGHT_PX);
  const plotH = heightPx - PAD_TOP_PX - PAD_BOTTOM_PX;
  const [y0, y1] = yRange(track, p.points);
  const span = p.t1 - p.t0 || 1;
  const x = (t: number) => PLOT_LEFT_PX + ((t - p.t0) / span) * plotW;
  const y = (v: number) => PAD_TOP_PX + plotH - ((v - y0) / (y1 - y0)) * plotH;
  const clampX = (px: number) => Math.min(PLOT_LEFT_PX + plotW, Math.max(PLOT_LEFT_PX, px));
  ctx.font = `10px ${colors.font}`;
  ctx.globalAlpha = 1;

  ctx.fillStyle = colors.throttleBand;
  for (const i of p.throttle) {
    const a = clampX(x(i.startMs));
    ctx.fillRect(a, PAD_TOP_PX, Math.max(1, clampX(x(i.endMs)) - a), plotH);
  }

  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.strokeStyle = colors.grid;
  ctx.fillStyle = colors.faint;
  ctx.textAlign = 'right';
  for (const v of niceTicks(y0, y1, 4, track.unit === 'bytes' ? byteScaleOf(y0, y1) : 1)) {
    const yy = Math.round(y(v)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(PLOT_LEFT_PX, yy);
    ctx.lineTo(PLOT_LEFT_PX + plotW, yy);
    ctx.stroke();
    ctx.fillText(formatTick(track.unit, v), PLOT_LEFT_PX - 6, yy + 4);
  }
  ctx.textAlign = 'center';
  for (const t of timeTicks(p.t0, p.t1)) ctx.fillText(formatRunTime(t), x(t), heightPx - 5);

  ctx.save();
  ctx.beginPath();
  ctx.rect(PLOT_LEFT_PX, 0, plotW, heightPx);
  ctx.clip();

  ctx.strokeStyle = colors.faint;
  ctx.globalAlpha = 0.35;
  ctx.setLineDash([2, 3]);
  ctx.beginPath();
  for (const t of p.eventTimes) {
    const xx = Math.round(x(t)) + 0.5;
    ctx.moveTo(xx, PAD_TOP_PX);
    ctx.lineTo(xx, PAD_TOP_PX + plotH);
  }
  ctx.stroke();
  ctx.globalAlpha = 1;

  const refDrawn: Record<string, boolean> = {};
  ctx.setLineDash([4, 4]);
  ctx.textAlign = 'left';
  for (const r of track.refLines) {
    const inside = r.y >= y0 && r.y <= y1;
    refDrawn[r.label] = inside;
    if (!inside) continue;
    const yy = Math.round(y(r.y)) + 0.5;
    ctx.strokeStyle = r.color;
    ctx.fillStyle = r.color;
    ctx.beginPath();
    ctx.moveTo(PLOT_LEFT_PX, yy);
    ctx.lineTo(PLOT_LEFT_PX + plotW, yy);
    ctx.stroke();
    ctx.fillText(r.label, PLOT_LEFT_PX + 4, yy - 3);
  }
  ctx.textAlign = 'right';
  for (const v of p.vLines) {
    const xx = Math.round(x(v.tMs)) + 0.5;
    ctx.strokeStyle = v.color;
    ctx.fillStyle = v.color;
    ctx.beginPath();
    ctx.moveTo(xx, PAD_TOP_PX);
    ctx.lineTo(xx, PAD_TOP_PX + plotH);
    ctx.stroke();
    ctx.fillText(v.label, xx - 4, PAD_TOP_PX + 10);
  }

  const drawn: Record<string, number> = {};
  track.series.forEach((s, k) => {
    const pts = p.points[k]?.points;
    drawn[s.key] = pts?.count ?? 0;
    if (!pts || pts.count === 0) return;
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.dashed ? 1.5 : 1.75;
    ctx.setLineDash(s.dashed ? [6, 4] : []);
    ctx.beginPath();
    ctx.moveTo(x(pts.xs[0] ?? 0), y(pts.ys[0] ?? 0));
    for (let i = 1; i < pts.count; i++) ctx.lineTo(x(pts.xs[i] ?? 0), y(pts.ys[i] ?? 0));
    ctx.stroke();
  });
  ctx.restore();
  return { points: drawn, refDrawn };
}

/** The theme’s colours from renderer/src/styles/base.css, cached per theme (data-theme on <html>, dashboard-hooks.ts). */
let colorCache: { theme: string; colors: ChartColors } | null = null;
export function themeColors(): ChartColors {
  const theme = document.documentElement.dataset.theme ?? '';
  if (colorCache?.theme === theme) return colorCache.colors;
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const colors: ChartColors = {
    grid: v('--grid', '#222a35'),
    faint: v('--text-faint', '#627086'),
    throttleBand: v('--throttle-band', 'rgba(255, 93, 93, 0.13)'),
    font: v('--sans', 'sans-serif'),
  };
  colorCache = { theme, colors };
  return colors;
}
