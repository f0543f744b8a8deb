// Draws one small recharts chart once, out of sight, when the page first falls idle, then removes
// it. V8 compiles a function when it first runs, and a chart runs a large part of recharts (its
// store, selectors, axes, legend, tooltip, lines): the first chart a page draws costs ~45 ms of
// compiling and cold code more than the next ones on the 2-core test VM (bench/ui.bench.ts, the
// session opened from the Sessions list). Done here, at idle after start-up, the first session a
// user opens (and the first comparison, the KV calculator's chart) does not pay it. Not before the
// start screen is shown (a session opened at start-up would wait behind it), and not at all when
// the start screen drew a chart (its code has run). The chart is hidden from sight, from assistive
// technology and from tests' queries of the real charts (it sits outside the views,
// data-testid="chart-warmup"), and lives for about a third of a second.
import { useEffect, useState } from 'react';
import { Line, ReferenceLine } from 'recharts';
import { LINE_PROPS, LineChartFrame, xAxisLabel } from './LineChartFrame';
import { useAppStore } from './store-context';

const POINTS = [
  { x: 0, y: 1 },
  { x: 1, y: 3 },
  { x: 2, y: 2 },
];
/** Idle may never come on a busy page: draw within this anyway. */
const IDLE_TIMEOUT_MS = 3000;
/**
 * recharts finishes a chart over several commits after mounting (its store, then the lines, the
 * legend's and the axes' measurements): the chart stays this many frames (~1/3 s). Removed at
 * its first frame it saved a third as much.
 */
const FRAMES = 20;

/** The same kinds of parts as the app's charts (MemoryChart.tsx): numeric axes with given ticks, a legend, a dashed line, a labelled reference line. */
function WarmupChart() {
  return (
    <LineChartFrame
      margin={{ top: 16, right: 28, bottom: 28, left: 8 }}
      x={{
        dataKey: 'x',
        domain: [0, 2],
        ticks: [0, 1, 2],
        interval: 0,
        tickFormatter: String,
        label: xAxisLabel('x', -16),
      }}
      y={{ domain: [0, 4], ticks: [0, 2, 4], interval: 0, tickFormatter: String }}
      tooltip={{ labelFormatter: String, formatter: String }}
      legend={{ verticalAlign: 'top', align: 'right', height: 28, iconType: 'plainline', itemSorter: null }}
    >
      <Line data={POINTS} dataKey="y" name="a" stroke="currentColor" strokeWidth={2} {...LINE_PROPS} />
      <Line
        data={POINTS}
        dataKey="y"
        name="b"
        stroke="currentColor"
        strokeWidth={2}
        strokeDasharray="7 5"
        {...LINE_PROPS}
      />
      <ReferenceLine
        y={3}
        stroke="currentColor"
        strokeDasharray="4 4"
        label={{ value: 'c', position: 'insideTopLeft' }}
      />
    </LineChartFrame>
  );
}

export function ChartWarmup() {
  const [stage, setStage] = useState<'waiting' | 'drawing' | 'done'>('waiting');
  const startScreenShown = useAppStore((s) => s.startScreenShown);
  const chartDrawn = useAppStore((s) => s.chart.rss.length > 0);
  // A chart drawn before the warm-up (at start-up, or opened by the user first): nothing to warm.
  if (stage === 'waiting' && chartDrawn) setStage('done');
  useEffect(() => {
    if (stage === 'waiting') {
      if (!startScreenShown || chartDrawn) return undefined;
      // Not in every browser (Safari): a timer then.
      if (typeof window.requestIdleCallback !== 'function') {
        const timer = window.setTimeout(() => setStage('drawing'), 1000);
        return () => window.clearTimeout(timer);
      }
      const idle = window.requestIdleCallback(() => setStage('drawing'), { timeout: IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(idle);
    }
    if (stage !== 'drawing') return undefined;
    let frames = 0;
    let frame = 0;
    const count = () => {
      if (++frames >= FRAMES) setStage('done');
      else frame = window.requestAnimationFrame(count);
    };
    frame = window.requestAnimationFrame(count);
    return () => window.cancelAnimationFrame(frame);
  }, [stage, startScreenShown, chartDrawn]);
  if (stage !== 'drawing') return null;
  return (
    <div className="chart-warmup" aria-hidden="true" data-testid="chart-warmup">
      <WarmupChart />
    </div>
  );
}
