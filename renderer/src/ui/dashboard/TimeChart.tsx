// One track of a panel on the dashboard's shared x axis: a <canvas> drawn by TrackPainter
// (track-painter.ts, which says why canvas) in the dashboard's one animation frame, only when its
// inputs changed. The cursor and the drag selection live in an SVG overlay that re-renders alone
// on mouse moves; wheel, drag and double-click set the shared view (the wheel through a native
// non-passive listener, so zooming does not also scroll the page).
import { useLayoutEffect, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { ThrottleInterval } from '../../../../shared/analysis/throttle';
import { useAppStore, useAppStoreApi } from '../store-context';
import { useNonPassiveWheel } from './dashboard-hooks';
import { frameScheduler } from './frame-scheduler';
import type { Domain, PointsInputs, TrackModel, VLine } from './panel-model';
import {
  PAD_BOTTOM_PX,
  PAD_TOP_PX,
  PLOT_LEFT_PX,
  PLOT_RIGHT_PX,
  themeColors,
  TRACK_HEIGHT_PX,
  TrackPainter,
  type PaintResult,
} from './track-painter';

/** Each wheel notch zooms by this factor (trackpads send many small deltas: scaled by deltaY). */
const WHEEL_ZOOM_PER_100PX = 1.25;
/** A drag shorter than this is a click, not a selection. */
const MIN_SELECTION_PX = 4;

interface Props extends Omit<PointsInputs, 'plotWidthPx'> {
  track: TrackModel;
  widthPx: number;
  throttle: readonly ThrottleInterval[];
  eventTimes: readonly number[];
  vLines: readonly VLine[];
}

/**
 * What the canvas drew, as DOM: one element per series with the points drawn (data-points) and
 * one per reference line (data-drawn), written by the painter after each paint, not by React.
 */
function writeResult(root: HTMLElement | null, result: PaintResult) {
  if (!root) return;
  for (const el of root.querySelectorAll<HTMLElement>('[data-series]')) {
    const n = String(result.points[el.dataset.series ?? ''] ?? 0);
    if (el.dataset.points !== n) el.dataset.points = n;
  }
  for (const el of root.querySelectorAll<HTMLElement>('[data-ref]')) {
    const drawn = String(result.refDrawn[el.dataset.ref ?? ''] === true);
    if (el.dataset.drawn !== drawn) el.dataset.drawn = drawn;
  }
}

function TrackCanvas(props: Props) {
  const { track } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const painterRef = useRef<TrackPainter | null>(null);
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const painter = new TrackPainter(
      canvas,
      themeColors,
      () => window.devicePixelRatio || 1,
      (result) => writeResult(canvas, result),
    );
    painterRef.current = painter;
    frameScheduler.register(painter);
    return () => {
      frameScheduler.unregister(painter);
      painterRef.current = null;
    };
  }, []);
  // Every render hands the painter its inputs and asks for a frame; the painter draws only when
  // they changed (a new tick, a zoom, a resize, a theme), and a frame serves every chart at once.
  useLayoutEffect(() => {
    const painter = painterRef.current;
    if (!painter) return;
    painter.setInputs(props);
    frameScheduler.request(painter);
  });
  const label = `${track.title}: ${track.series.map((s) => s.label).join(', ')}`;
  return (
    <canvas
      ref={canvasRef}
      className="time-chart"
      style={{ width: props.widthPx, height: TRACK_HEIGHT_PX }}
      role="img"
      aria-label={label}
      data-testid="track-canvas"
    >
      {track.series.map((s) => (
        <span key={s.key} data-testid={`series-${s.key}`} data-series={s.key} />
      ))}
      {track.refLines.map((r) => (
        <span key={r.label} data-testid="ref-line" data-ref={r.label}>
          {r.label}
        </span>
      ))}
    </canvas>
  );
}

/** The cursor line and the drag selection. */
function Overlay({
  domain,
  widthPx,
  selection,
}: {
  domain: Domain;
  widthPx: number;
  selection: [number, number] | null;
}) {
  const cursor = useAppStore((s) => s.dash.cursorTMs);
  const plotW = Math.max(10, widthPx - PLOT_LEFT_PX - PLOT_RIGHT_PX);
  const span = domain.t1 - domain.t0 || 1;
  const x = (t: number) => PLOT_LEFT_PX + ((t - domain.t0) / span) * plotW;
  return (
    <svg className="chart-overlay" width={widthPx} height={TRACK_HEIGHT_PX} aria-hidden="true">
      {cursor !== null && cursor >= domain.t0 && cursor <= domain.t1 && (
        <line
          className="cursor-line"
          x1={x(cursor)}
          x2={x(cursor)}
          y1={PAD_TOP_PX}
          y2={TRACK_HEIGHT_PX - PAD_BOTTOM_PX}
        />
      )}
      {selection && (
        <rect
          className="selection"
          x={Math.min(selection[0], selection[1])}
          y={PAD_TOP_PX}
          width={Math.abs(selection[1] - selection[0])}
          height={TRACK_HEIGHT_PX - PAD_TOP_PX - PAD_BOTTOM_PX}
        />
      )}
    </svg>
  );
}

export function TimeChart(props: Props) {
  const store = useAppStoreApi();
  const { domain, widthPx } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [selection, setSelection] = useState<[number, number] | null>(null);
  const plotW = Math.max(10, widthPx - PLOT_LEFT_PX - PLOT_RIGHT_PX);
  const span = domain.t1 - domain.t0 || 1;
  const pxOf = (e: { clientX: number }) => e.clientX - (ref.current?.getBoundingClientRect().left ?? 0);
  const timeAt = (px: number) => domain.t0 + ((px - PLOT_LEFT_PX) / plotW) * span;

  const onMouseMove = (e: ReactMouseEvent) => {
    const px = pxOf(e);
    if (selection) setSelection([selection[0], px]);
    const inside = px >= PLOT_LEFT_PX && px <= PLOT_LEFT_PX + plotW;
    store.getState().setCursor(inside ? timeAt(px) : null);
  };
  const onMouseDown = (e: ReactMouseEvent) => {
    if (e.button !== 0) return;
    const px = pxOf(e);
    if (px >= PLOT_LEFT_PX) setSelection([px, px]);
  };
  const onMouseUp = () => {
    if (selection && Math.abs(selection[1] - selection[0]) >= MIN_SELECTION_PX) {
      const a = timeAt(Math.min(selection[0], selection[1]));
      const b = timeAt(Math.max(selection[0], selection[1]));
      store.getState().setTimeView({ follow: false, t0: a, t1: b });
    }
    setSelection(null);
  };
  const onWheel = (e: WheelEvent) => {
    const dx = e.shiftKey ? e.deltaY : e.deltaX;
    if (Math.abs(dx) > Math.abs(e.shiftKey ? 0 : e.deltaY)) {
      // Horizontal scroll (or Shift+wheel) pans.
      const shift = (dx / plotW) * span;
      store.getState().setTimeView({ follow: false, t0: domain.t0 + shift, t1: domain.t1 + shift });
      return;
    }
    if (e.deltaY === 0) return;
    const factor = WHEEL_ZOOM_PER_100PX ** (e.deltaY / 100);
    const center = timeAt(pxOf(e));
    store.getState().setTimeView({
      follow: false,
      t0: center - (center - domain.t0) * factor,
      t1: center + (domain.t1 - center) * factor,
    });
  };
  useNonPassiveWheel(ref, onWheel);

  return (
    <div
      ref={ref}
      className="chart-wrap"
      data-testid={`track-${props.track.id}`}
      data-t0={Math.round(domain.t0)}
      data-t1={Math.round(domain.t1)}
      onMouseMove={onMouseMove}
      onMouseLeave={() => {
        setSelection(null);
        store.getState().setCursor(null);
      }}
      onMouseDown={onMouseDown}
      onMouseUp={onMouseUp}
      onDoubleClick={() => store.getState().setTimeView({ follow: true, spanMs: null })}
    >
      <TrackCanvas {...props} />
      <Overlay domain={domain} widthPx={widthPx} selection={selection} />
    </div>
  );
}
