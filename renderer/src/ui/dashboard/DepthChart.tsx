// Tokens/s against context depth (decode slows as the KV cache it reads grows), with the
// roofline ceiling at each depth: not on the time axis, so a small chart of its own.
import type { RooflineParams } from '../../../../shared/analysis/roofline';
import { rooflineFromDepthRates } from '../../../../shared/analysis/roofline';
import { tokensPerSecondByDepth } from '../../../../shared/analysis/throughput';
import { niceLinearTicks } from '../../../../shared/format/axis';
import { tokenEventsAt } from './derived';
import { formatTick } from './format-unit';
import type { SeriesBuffer } from './series-store';

/** Drawn as wide as the panel's time tracks (Dashboard's width); never narrower than this. */
const MIN_W = 240;
const H = 150;
const PAD = { left: 44, right: 8, top: 8, bottom: 18 };
/** About this many labelled values on each axis, at round numbers (one label at the top read as no scale). */
const TICK_COUNT = 3;
/** About this many buckets over the run: enough to see the slope, each still many tokens. */
const BUCKETS = 16;
const MIN_BUCKET_TOKENS = 8;

/** Bucket k covers tokens (k·B, (k+1)·B] (shared/analysis/throughput.ts): the counts its rate reads. */
function bucketEdges(last: number, bucket: number): number[] {
  const edges = [1];
  for (let k = 1; k * bucket <= last; k++) edges.push(k * bucket);
  return edges;
}

export function DepthChart({
  tokens,
  roofline,
  width,
}: {
  tokens: SeriesBuffer | undefined;
  roofline: RooflineParams | null;
  width: number;
}) {
  const W = Math.max(MIN_W, Math.floor(width));
  const last = tokens?.v[tokens.length - 1] ?? 0;
  const bucket = Math.max(MIN_BUCKET_TOKENS, Math.floor(last / BUCKETS));
  const events = tokenEventsAt(tokens, bucketEdges(last, bucket));
  const rates = tokensPerSecondByDepth(events, { bucketTokens: bucket });
  if (rates.length < 2) return null;
  const points = roofline ? rooflineFromDepthRates(roofline, rates) : null;
  const xs = rates.map((r) => (r.depthStart + r.depthEnd) / 2);
  const measured = rates.map((r) => r.tokensPerSecond);
  const ceiling = points ? points.map((p) => p.ceilingTokensPerSecond) : [];
  const xAxis = niceLinearTicks(Math.max(...xs), TICK_COUNT, true);
  const yAxis = niceLinearTicks(Math.max(...measured, ...ceiling.filter((c): c is number => c !== null)), TICK_COUNT);
  const xMax = xAxis.top;
  const yMax = yAxis.top;
  const px = (d: number) => PAD.left + (d / (xMax || 1)) * (W - PAD.left - PAD.right);
  const py = (v: number) => PAD.top + (1 - v / yMax) * (H - PAD.top - PAD.bottom);
  const line = (ys: Array<number | null>) =>
    ys.map((y, i) => (y === null ? '' : `${px(xs[i] ?? 0).toFixed(1)},${py(y).toFixed(1)}`)).join(' ');
  return (
    <figure className="depth-chart">
      <svg
        width={W}
        height={H}
        role="img"
        aria-label="Tokens per second against context depth"
        data-testid="depth-chart"
        data-points={rates.length}
      >
        {yAxis.ticks.map((v) => (
          <g key={`y${v}`} className="depth-y">
            <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={py(v)} y2={py(v)} />
            <text className="time-tick" x={PAD.left - 4} y={py(v) + 3} textAnchor="end">
              {formatTick('tokens-per-second', v)}
            </text>
          </g>
        ))}
        {xAxis.ticks.map((v, i) => (
          <text
            key={`x${v}`}
            className="time-tick depth-x"
            x={px(v)}
            y={H - 4}
            textAnchor={i === 0 ? 'start' : i === xAxis.ticks.length - 1 ? 'end' : 'middle'}
          >
            {formatTick('count', v)}
            {i === xAxis.ticks.length - 1 ? ' tokens deep' : ''}
          </text>
        ))}
        <polyline points={line(measured)} fill="none" stroke="#4c9bff" strokeWidth={1.75} />
        {points && (
          <polyline points={line(ceiling)} fill="none" stroke="#c77dff" strokeWidth={1.5} strokeDasharray="6 4" />
        )}
      </svg>
      <figcaption className="muted small">
        tokens/s against context depth{points ? ' · dashed: roofline ceiling' : ''}
      </figcaption>
    </figure>
  );
}
