import { useState } from 'react';
import { Line, ReferenceLine } from 'recharts';
import { formatBytesShort, formatTokensShort, niceByteTicks, niceLinearTicks } from '../../../shared/format/axis';
import { formatBytes, formatCount, formatTokens } from '../../../shared/format/units';
import { EMPTY_CHART, type ChartSeries } from '../live/chart-series';
import { BUDGET_SCALE_FACTOR } from '../live/live-config';
import type { AppState } from '../state/store';
import { useThrottledWhileLive } from './dashboard/dashboard-hooks';
import { LINE_PROPS, LineChartFrame, xAxisLabel } from './LineChartFrame';
import { useAppStore } from './store-context';

export const SERIES_COLORS = {
  rss: '#5aa9ff',
  anon: '#f5a524',
  file: '#3ecf8e',
  theory: '#c58cff',
  budget: '#ff5d5d',
} as const;

function EmptyState() {
  const phase = useAppStore((s) => s.run.phase);
  // Run again at every update of the store (new series come with a new dash.version).
  const boardSeries = useAppStore((s) => s.seriesStore.keys().length > 0);
  let title = 'Nothing measured yet';
  let text =
    'Choose a target and a workload, then press Start. RSS, anonymous and file-backed RSS are drawn against tokens generated, next to the theoretical KV-cache line and your memory budget.';
  if (phase === 'starting' || phase === 'running') {
    title = 'Waiting for the first sample…';
    text = 'The engine is starting; memory samples appear here as they arrive.';
  } else if (phase === 'failed') {
    title = 'No samples';
    text = 'The run failed before any memory sample was taken; the reason is shown above.';
  } else if ((phase === 'done' || phase === 'stopping') && boardSeries) {
    // An imported board log (tegrastats, vcgencmd…) or a run without the procfs collector: no
    // engine process to measure, but the board's signals are there.
    title = 'No engine memory in this run';
    text =
      'Its samples are the board’s own (an imported log, or a run without the procfs collector): they are in the panels below.';
  } else if (phase === 'done' || phase === 'stopping') {
    title = 'No samples';
    text = 'The run ended before any memory sample was taken.';
  }
  return (
    <div className="chart-empty" data-testid="chart-empty">
      <div className="chart-empty-title">{title}</div>
      <p>{text}</p>
    </div>
  );
}

/** Space between the y axis and x = 0 tokens. */
const X_AXIS_PAD_PX = 8;

const selectChart = (s: AppState) => s.chart;
/** A new run empties the chart: that lands at once, never the last run's curve under its header. */
const isEmptied = (chart: ChartSeries) => chart === EMPTY_CHART;

/** The chart's lines, drawn in this order (the legend's too). */
const LINES: Array<{
  key: 'rss' | 'anon' | 'file' | 'theory';
  style: { name: string; stroke: string; strokeWidth: number; strokeDasharray?: string };
}> = [
  { key: 'rss', style: { name: 'RSS', stroke: SERIES_COLORS.rss, strokeWidth: 2 } },
  { key: 'anon', style: { name: 'anon RSS', stroke: SERIES_COLORS.anon, strokeWidth: 1.5 } },
  { key: 'file', style: { name: 'file-backed RSS', stroke: SERIES_COLORS.file, strokeWidth: 1.5 } },
  { key: 'theory', style: { name: 'KV theory', stroke: SERIES_COLORS.theory, strokeWidth: 2, strokeDasharray: '7 5' } },
];

export function MemoryChart() {
  // recharts is costly per update: new data at most once a second while live (dashboard-hooks.ts).
  const chart = useThrottledWhileLive(selectChart, isEmptied);
  const budgetBytes = useAppStore((s) => s.run.analysis?.budgetBytes ?? s.run.budgetBytes);
  const [scaleToBudget, setScaleToBudget] = useState(false);
  const hasData = chart.rss.length > 0;
  const budgetOffScale = budgetBytes !== null && chart.yMax > 0 && budgetBytes > chart.yMax * BUDGET_SCALE_FACTOR;
  const showBudget = budgetBytes !== null && (!budgetOffScale || scaleToBudget);
  const yAxis = niceByteTicks(Math.max(chart.yMax, showBudget && budgetBytes !== null ? budgetBytes : 0) * 1.04);
  // Round ticks given, all shown (interval 0): recharts then measures no tick label in the DOM
  // to thin them out, a forced layout per label on every render.
  const xAxis = niceLinearTicks(Math.max(1, chart.xMax), 5, true);
  // Every point at one token count (a run so short or fast that no sample came after a token, or
  // prefill alone): each line is a vertical stroke, so its points are drawn as dots too.
  const oneTokenCount = hasData && chart.rss.every((p) => p.x === chart.rss[0]?.x);

  return (
    <section className="panel chart-panel" aria-labelledby="chart-heading">
      <div className="panel-head">
        <h2 id="chart-heading">Memory against tokens</h2>
        <div className="chart-tools">
          {budgetOffScale && (
            <label className="check" title="The budget is far above the measured memory">
              <input
                type="checkbox"
                checked={scaleToBudget}
                onChange={(e) => setScaleToBudget(e.target.checked)}
                data-testid="chart-scale-budget"
              />
              Scale to budget ({formatBytes(budgetBytes)})
            </label>
          )}
          {chart.samples > 0 && (
            <span className="muted small" title="Points drawn per series after LTTB downsampling">
              {formatCount(chart.rss.length)} of {formatCount(chart.samples)} points
              {chart.dropped > 0 && ` (oldest ${formatCount(chart.dropped)} scrolled out)`}
            </span>
          )}
        </div>
      </div>
      {hasData && (
        // The legend in HTML, not recharts' <Legend>: that one measures its box after the chart
        // mounts and the chart lays itself out again, a round of recharts' store and a re-render
        // each time a session opens (~35 ms of the page's part of opening an 8-hour session,
        // bench/ui.bench.ts).
        <ul className="legend chart-legend" aria-label="Memory against tokens legend">
          {LINES.map((line) => (
            <li key={line.key} data-testid="memory-chart-legend-entry">
              <span
                className={`swatch${line.style.strokeDasharray ? ' swatch-dashed' : ''}`}
                style={{ borderColor: line.style.stroke }}
                aria-hidden="true"
              />
              {line.style.name}
            </li>
          ))}
        </ul>
      )}
      <div
        className="chart-body"
        data-testid="memory-chart"
        data-rss-points={chart.rss.length}
        data-anon-points={chart.anon.length}
        data-file-points={chart.file.length}
        data-theory-points={chart.theory.length}
        data-budget-line={showBudget ? 'shown' : 'hidden'}
      >
        {!hasData ? (
          <EmptyState />
        ) : (
          <LineChartFrame
            margin={{ top: 16, right: 28, bottom: 28, left: 8 }}
            legend={false}
            x={{
              dataKey: 'x',
              // Off the y axis' line: what happens at 0 tokens (prefill, start-up) stays visible.
              padding: { left: X_AXIS_PAD_PX },
              domain: [0, xAxis.top],
              ticks: xAxis.ticks,
              interval: 0,
              tickFormatter: formatTokensShort,
              label: xAxisLabel('tokens generated', -16),
            }}
            y={{ domain: [0, yAxis.top], ticks: yAxis.ticks, interval: 0, tickFormatter: formatBytesShort }}
            tooltip={{
              labelFormatter: (x) => formatTokens(Number(x)),
              formatter: (value) => formatBytes(Number(value)),
            }}
          >
            {LINES.map((line) => (
              <Line
                key={line.key}
                data={chart[line.key]}
                dataKey="y"
                {...LINE_PROPS}
                {...line.style}
                dot={oneTokenCount ? { r: 3, strokeDasharray: '' } : false}
              />
            ))}
            {showBudget && budgetBytes !== null && (
              <ReferenceLine
                y={budgetBytes}
                stroke={SERIES_COLORS.budget}
                strokeDasharray="4 4"
                ifOverflow="extendDomain"
                label={{
                  value: `budget ${formatBytes(budgetBytes)}`,
                  position: 'insideTopLeft',
                  fill: SERIES_COLORS.budget,
                  fontSize: 12,
                }}
              />
            )}
          </LineChartFrame>
        )}
      </div>
    </section>
  );
}
