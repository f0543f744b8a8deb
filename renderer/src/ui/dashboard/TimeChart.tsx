// One track of a panel: series against run time on the dashboard's shared x axis, drawn as SVG
// polylines of at most ~2 points per pixel (downsample.ts). The throttle intervals are shaded,
// events drawn as thin vertical lines, reference levels (budget, trip points) as dashed lines.
// The cursor and the drag selection live in an overlay that re-renders alone on mouse moves.
import { memo, useRef, useState, type MouseEvent as ReactMouseEvent, type WheelEvent } from 'react';
import type { ThrottleInterval } from '../../../../shared/analysis/throttle';
import { useAppStore, useAppStoreApi } from '../store-context';
import type { PlotPoints } from './downsample';
import { formatRunTime, formatTick, niceTicks, timeTicks } from './format-unit';
import type { SeriesUnit } from './series-catalog';

/** Left gutter (y labels) and right margin, the same for every track so x positions line up. */
export const PLOT_LEFT_PX = 64;
export const PLOT_RIGHT_PX = 12;
export const TRACK_HEIGHT_PX = 132;
const PAD_TOP = 8;
const PAD_BOTTOM = 20;
/** Each wheel notch zooms by this factor (trackpads send many small deltas: scaled by deltaY). */
const WHEEL_ZOOM_PER_100PX = 1.25;
/** A drag shorter than this is a click, not a selection. */
const MIN_SELECTION_PX = 4;

export interface TrackSeries {
  key: string;
  label: string;
  color: string;
  points: PlotPoints;
  dashed?: boolean;
}

export interface RefLine {
  y: number;
  label: string;
  color: string;
}

export interface TrackModel {
  id: string;
  title: string;
  unit: SeriesUnit | 'tokens-per-second';
  series: TrackSeries[];
  refLines: RefLine[];
  /** Vertical markers at times (OOM horizon…). */
  vLines?: Array<{ tMs: number; label: string; color: string }>;
}

export interface Domain {
  t0: number;
  t1: number;
}

interface Props {
  track: TrackModel;
  domain: Domain;
  widthPx: number;
  throttle: readonly ThrottleInterval[];
  eventTimes: readonly number[];
}

function yRange(track: TrackModel): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of track.series)
    for (let i = 0; i < s.points.count; i++) {
      const y = s.points.ys[i] ?? 0;
      if (y < lo) lo = y;
      if (y > hi) hi = y;
    }
  if (!(hi >= lo)) return [0, 1];
  // Reference lines widen the range only when near the data (a budget far above stays a label).
  for (const r of track.refLines) if (r.y <= hi * 1.5 && r.y >= lo - Math.abs(hi - lo)) hi = Math.max(hi, r.y);
  const zeroBased = track.unit !== 'celsius';
  const min = zeroBased ? Math.min(0, lo) : Math.floor(lo - 2);
  const max = hi === min ? min + 1 : hi + (hi - min) * 0.06;
  return [min, max];
}

function ChartBody({ track, domain, widthPx, throttle, eventTimes }: Props) {
  const plotW = Math.max(10, widthPx - PLOT_LEFT_PX - PLOT_RIGHT_PX);
  const plotH = TRACK_HEIGHT_PX - PAD_TOP - PAD_BOTTOM;
  const [y0, y1] = yRange(track);
  const span = domain.t1 - domain.t0 || 1;
  const x = (t: number) => PLOT_LEFT_PX + ((t - domain.t0) / span) * plotW;
  const y = (v: number) => PAD_TOP + plotH - ((v - y0) / (y1 - y0)) * plotH;
  const clamp = (px: number) => Math.min(PLOT_LEFT_PX + plotW, Math.max(PLOT_LEFT_PX, px));
  return (
    <svg width={widthPx} height={TRACK_HEIGHT_PX} className="time-chart" role="img" aria-label={track.title}>
      <defs>
        <clipPath id={`clip-${track.id}`}>
          <rect x={PLOT_LEFT_PX} y={0} width={plotW} height={TRACK_HEIGHT_PX} />
        </clipPath>
      </defs>
      {throttle.map((i) => (
        <rect
          key={`${i.startMs}`}
          className="throttle-band"
          data-testid="throttle-band"
          x={clamp(x(i.startMs))}
          y={PAD_TOP}
          width={Math.max(1, clamp(x(i.endMs)) - clamp(x(i.startMs)))}
          height={plotH}
        />
      ))}
      {niceTicks(y0, y1).map((v) => (
        <g key={v} className="grid">
          <line x1={PLOT_LEFT_PX} x2={PLOT_LEFT_PX + plotW} y1={y(v)} y2={y(v)} />
          <text x={PLOT_LEFT_PX - 6} y={y(v) + 4} textAnchor="end">
            {formatTick(track.unit, v)}
          </text>
        </g>
      ))}
      {timeTicks(domain.t0, domain.t1).map((t) => (
        <text key={t} className="time-tick" x={x(t)} y={TRACK_HEIGHT_PX - 5} textAnchor="middle">
          {formatRunTime(t)}
        </text>
      ))}
      <g clipPath={`url(#clip-${track.id})`}>
        {eventTimes.map((t, i) => (
          <line key={`${t}-${i}`} className="event-line" x1={x(t)} x2={x(t)} y1={PAD_TOP} y2={PAD_TOP + plotH} />
        ))}
        {track.refLines.map((r) =>
          r.y >= y0 && r.y <= y1 ? (
            <g key={r.label} className="ref-line" data-testid="ref-line">
              <line x1={PLOT_LEFT_PX} x2={PLOT_LEFT_PX + plotW} y1={y(r.y)} y2={y(r.y)} stroke={r.color} />
              <text x={PLOT_LEFT_PX + 4} y={y(r.y) - 3} fill={r.color}>
                {r.label}
              </text>
            </g>
          ) : null,
        )}
        {(track.vLines ?? []).map((v) => (
          <g key={v.label} className="ref-line" data-testid="v-line">
            <line x1={x(v.tMs)} x2={x(v.tMs)} y1={PAD_TOP} y2={PAD_TOP + plotH} stroke={v.color} />
            <text x={x(v.tMs) - 4} y={PAD_TOP + 10} fill={v.color} textAnchor="end">
              {v.label}
            </text>
          </g>
        ))}
        {track.series.map((s) => {
          let points = '';
          for (let i = 0; i < s.points.count; i++)
            points += `${x(s.points.xs[i] ?? 0).toFixed(1)},${y(s.points.ys[i] ?? 0).toFixed(1)} `;
          return (
            <polyline
              key={s.key}
              data-testid={`series-${s.key}`}
              data-points={s.points.count}
              points={points}
              fill="none"
              stroke={s.color}
              strokeWidth={s.dashed ? 1.5 : 1.75}
              strokeDasharray={s.dashed ? '6 4' : undefined}
            />
          );
        })}
      </g>
    </svg>
  );
}

/** Redrawn only when its inputs change (a new tick, a zoom, a resize), never on mouse moves. */
const MemoChartBody = memo(ChartBody);

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
        <line className="cursor-line" x1={x(cursor)} x2={x(cursor)} y1={PAD_TOP} y2={TRACK_HEIGHT_PX - PAD_BOTTOM} />
      )}
      {selection && (
        <rect
          className="selection"
          x={Math.min(selection[0], selection[1])}
          y={PAD_TOP}
          width={Math.abs(selection[1] - selection[0])}
          height={TRACK_HEIGHT_PX - PAD_TOP - PAD_BOTTOM}
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
    const factor = WHEEL_ZOOM_PER_100PX ** (e.deltaY / 100);
    const center = timeAt(pxOf(e));
    store.getState().setTimeView({
      follow: false,
      t0: center - (center - domain.t0) * factor,
      t1: center + (domain.t1 - center) * factor,
    });
  };

  return (
    <div
      ref={ref}
      className="chart-wrap"
      data-testid={`track-${props.track.id}`}
      onMouseMove={onMouseMove}
      onMouseLeave={() => {
        setSelection(null);
        store.getState().setCursor(null);
      }}
      onMouseDown={onMouseDown}
      onMouseUp={onMouseUp}
      onWheel={onWheel}
      onDoubleClick={() => store.getState().setTimeView({ follow: true, spanMs: null })}
    >
      <MemoChartBody {...props} />
      <Overlay domain={domain} widthPx={widthPx} selection={selection} />
    </div>
  );
}
