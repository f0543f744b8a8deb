// Tokens/s against context depth (decode slows as the KV cache it reads grows), with the
// roofline ceiling at each depth: not on the time axis, so a small chart of its own.
import type { RooflineParams } from '../../../../shared/analysis/roofline';
import { rooflineFromDepthRates } from '../../../../shared/analysis/roofline';
import { tokensPerSecondByDepth } from '../../../../shared/analysis/throughput';
import { tokenEventsAt } from './derived';
import { formatTick } from './format-unit';
import type { SeriesBuffer } from './series-store';

const W = 360;
const H = 120;
const PAD = { left: 44, right: 8, top: 8, bottom: 18 };
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
}: {
  tokens: SeriesBuffer | undefined;
  roofline: RooflineParams | null;
}) {
  const last = tokens?.v[tokens.length - 1] ?? 0;
  const bucket = Math.max(MIN_BUCKET_TOKENS, Math.floor(last / BUCKETS));
  const events = tokenEventsAt(tokens, bucketEdges(last, bucket));
  const rates = tokensPerSecondByDepth(events, { bucketTokens: bucket });
  if (rates.length < 2) return null;
  const points = roofline ? rooflineFromDepthRates(roofline, rates) : null;
  const xs = rates.map((r) => (r.depthStart + r.depthEnd) / 2);
  const measured = rates.map((r) => r.tokensPerSecond);
  const ceiling = points ? points.map((p) => p.ceilingTokensPerSecond) : [];
  const xMax = Math.max(...xs);
  const yMax = Math.max(...measured, ...ceiling.filter((c): c is number => c !== null)) * 1.08 || 1;
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
        <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} />
        <text className="time-tick" x={PAD.left - 4} y={PAD.top + 8} textAnchor="end">
          {formatTick('tokens-per-second', yMax)}
        </text>
        <text className="time-tick" x={W - PAD.right} y={H - 4} textAnchor="end">
          {formatTick('count', xMax)} tokens deep
        </text>
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
