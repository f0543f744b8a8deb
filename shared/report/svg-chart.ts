// A line chart as one inline SVG string: axes with round ticks, one polyline per series, event
// markers, a legend underneath. No script, no external resources, every label escaped — it is
// embedded in the HTML report and printed to PDF by Chromium as it is.
import { escapeHtml } from './escape';
import { niceStep } from '../format/axis';
import { formatCount } from '../format/units';
import type { ChartModel, ChartSeries } from './report-charts';

export const CHART_WIDTH = 720;
const PLOT_HEIGHT = 240;
const MARGIN = { left: 74, right: 18, top: 22, bottom: 40 };
const LEGEND_ROW = 18;
/** Series with at most this many points get a dot on each (sweeps: one point per run). */
const MAX_DOTTED_POINTS = 20;

const STYLE: Record<ChartSeries['role'], { color: string; width: number; dash?: string }> = {
  rss: { color: '#1f6feb', width: 2 },
  anon: { color: '#8250df', width: 1.5 },
  theory: { color: '#1a7f37', width: 1.5, dash: '6 4' },
  fit: { color: '#1a7f37', width: 1.5, dash: '6 4' },
  budget: { color: '#cf222e', width: 1.5, dash: '3 3' },
  projection: { color: '#bf8700', width: 1.5, dash: '2 4' },
  temperature: { color: '#bc4c00', width: 1.5 },
  rate: { color: '#1a7f37', width: 2 },
};
/** Temperature lines, one colour each in the order drawn (the hottest first). */
const TEMPERATURE_COLORS = ['#bc4c00', '#1f6feb', '#8250df', '#1a7f37', '#bf3989', '#57606a'];
const BAND_FILL = '#fff1e5';

const MARKER_COLOR: Record<string, string> = {
  oom: '#cf222e',
  error: '#cf222e',
  disconnect: '#bf8700',
  reconnect: '#1a7f37',
  alert: '#bf8700',
  throttle: '#bf8700',
};

/** Byte ticks on round numbers of one unit (KiB, MiB or GiB), every label in that unit. */
function byteTicks(max: number): Array<{ value: number; label: string }> {
  const [unit, name] =
    max >= 2 * 1024 ** 3 ? [1024 ** 3, 'GiB'] : max >= 2 * 1024 ** 2 ? [1024 ** 2, 'MiB'] : [1024, 'KiB'];
  const step = niceStep(max / unit);
  const digits = Number.isInteger(step) ? 0 : 1;
  const ticks: Array<{ value: number; label: string }> = [];
  for (let k = 0; k * step * unit <= max * 1.0001; k++)
    ticks.push({ value: k * step * unit, label: k === 0 ? '0' : `${formatCount(k * step, digits)} ${name}` });
  return ticks;
}

/** Ticks on round numbers with a unit word: degrees, tokens per second. */
function unitTicks(max: number, unit: string): Array<{ value: number; label: string }> {
  return linearTicks(max).map((v) => ({
    value: v,
    label: v === 0 ? '0' : `${formatCount(v, Number.isInteger(v) ? 0 : 1)} ${unit}`,
  }));
}

function linearTicks(max: number): number[] {
  const step = niceStep(max);
  const ticks: number[] = [];
  for (let v = 0; v <= max * 1.0001; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function xTickLabel(v: number, unit: ChartModel['xUnit']): string {
  if (unit === 'seconds') return `${formatCount(v, v < 10 && !Number.isInteger(v) ? 1 : 0)} s`;
  return formatCount(v);
}

const r1 = (v: number) => Math.round(v * 10) / 10;

export function renderSvgChart(chart: ChartModel): string {
  const width = CHART_WIDTH;
  const plotW = width - MARGIN.left - MARGIN.right;
  const legendRows = chart.series.length + (chart.markers.length ? 1 : 0) + (chart.bands ? 1 : 0);
  /** Each series' look: its role's, a temperature line's colour by its place among them. */
  let temperatures = 0;
  const styles = new Map(
    chart.series.map((s) => {
      const st = STYLE[s.role];
      if (s.role !== 'temperature') return [s, st];
      return [s, { ...st, color: TEMPERATURE_COLORS[temperatures++ % TEMPERATURE_COLORS.length] ?? st.color }];
    }),
  );
  const height = MARGIN.top + PLOT_HEIGHT + MARGIN.bottom + legendRows * LEGEND_ROW + 6;
  const xMax = chart.xMax > 0 ? chart.xMax : 1;
  const yMax = chart.yMax > 0 ? chart.yMax : 1;
  const xs = (x: number) => MARGIN.left + (Math.min(Math.max(x, 0), xMax) / xMax) * plotW;
  const ys = (y: number) => MARGIN.top + PLOT_HEIGHT - (Math.min(Math.max(y, 0), yMax) / yMax) * PLOT_HEIGHT;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(chart.title)}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="11">`,
  );
  out.push(`<title>${escapeHtml(chart.title)}</title>`);
  out.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${PLOT_HEIGHT}" fill="#ffffff" stroke="#d0d7de"/>`,
  );
  for (const [from, to] of chart.bands?.spans ?? []) {
    const x0 = r1(xs(from));
    out.push(
      `<rect x="${x0}" y="${MARGIN.top}" width="${Math.max(1, r1(xs(to)) - x0)}" height="${PLOT_HEIGHT}" fill="${BAND_FILL}"/>`,
    );
  }
  // Grid and ticks.
  const yTicks =
    chart.yUnit === 'C'
      ? unitTicks(yMax, '°C')
      : chart.yUnit === 'tokensPerSecond'
        ? unitTicks(yMax, 'tok/s')
        : byteTicks(yMax);
  for (const t of yTicks) {
    const y = r1(ys(t.value));
    out.push(`<line x1="${MARGIN.left}" y1="${y}" x2="${MARGIN.left + plotW}" y2="${y}" stroke="#eaeef2"/>`);
    out.push(
      `<text x="${MARGIN.left - 6}" y="${y + 4}" text-anchor="end" fill="#57606a">${escapeHtml(t.label)}</text>`,
    );
  }
  for (const t of linearTicks(xMax)) {
    const x = r1(xs(t));
    out.push(`<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + PLOT_HEIGHT}" stroke="#f3f4f6"/>`);
    out.push(
      `<text x="${x}" y="${MARGIN.top + PLOT_HEIGHT + 15}" text-anchor="middle" fill="#57606a">${escapeHtml(xTickLabel(t, chart.xUnit))}</text>`,
    );
  }
  out.push(
    `<text x="${MARGIN.left + plotW / 2}" y="${MARGIN.top + PLOT_HEIGHT + 32}" text-anchor="middle" fill="#24292f">${escapeHtml(chart.xLabel)}</text>`,
  );
  // Event markers under the series.
  // Labels above the plot; one close to the previous one goes on the upper row, one near the
  // right edge is anchored at its end so it is not cut off.
  let lastLabelX = -Infinity;
  let upper = false;
  for (const m of [...chart.markers].sort((p, q) => p.x - q.x)) {
    const x = r1(xs(m.x));
    const color = MARKER_COLOR[m.kind] ?? '#8c959f';
    upper = x - lastLabelX < 70 ? !upper : false;
    lastLabelX = x;
    const nearRight = x > MARGIN.left + plotW - 70;
    out.push(
      `<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + PLOT_HEIGHT}" stroke="${color}" stroke-dasharray="2 3"/>`,
    );
    out.push(
      `<text x="${nearRight ? x - 3 : x + 3}" y="${MARGIN.top - (upper ? 13 : 3)}" text-anchor="${nearRight ? 'end' : 'start'}" fill="${color}" font-size="10">${escapeHtml(m.label)}</text>`,
    );
  }
  // Series (area-less lines; order: references first, measured on top).
  const order: ChartSeries['role'][] = ['budget', 'projection', 'theory', 'fit', 'temperature', 'rate', 'anon', 'rss'];
  const sorted = [...chart.series].sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role));
  for (const s of sorted) {
    const st = styles.get(s) ?? STYLE[s.role];
    const pts = s.points
      .filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]))
      .map((p) => ({ x: r1(xs(p[0])), y: r1(ys(p[1])) }));
    const [only] = pts;
    if (!only) continue;
    if (pts.length === 1) {
      out.push(`<circle cx="${only.x}" cy="${only.y}" r="3" fill="${st.color}"/>`);
      continue;
    }
    out.push(
      `<polyline fill="none" stroke="${st.color}" stroke-width="${st.width}"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''} stroke-linejoin="round" points="${pts.map((p) => `${p.x},${p.y}`).join(' ')}"/>`,
    );
    // Few measured points (a sweep): show each one, so a fit line on top does not hide them.
    if ((s.role === 'rss' || s.role === 'anon') && pts.length <= MAX_DOTTED_POINTS) {
      for (const p of pts)
        out.push(`<circle cx="${p.x}" cy="${p.y}" r="3.5" fill="#ffffff" stroke="${st.color}" stroke-width="2"/>`);
    }
  }
  // Legend.
  let ly = MARGIN.top + PLOT_HEIGHT + MARGIN.bottom + 8;
  for (const s of chart.series) {
    const st = styles.get(s) ?? STYLE[s.role];
    out.push(
      `<line x1="${MARGIN.left}" y1="${ly}" x2="${MARGIN.left + 26}" y2="${ly}" stroke="${st.color}" stroke-width="${st.width + 0.5}"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''}/>`,
    );
    out.push(`<text x="${MARGIN.left + 34}" y="${ly + 4}" fill="#24292f">${escapeHtml(s.name)}</text>`);
    ly += LEGEND_ROW;
  }
  if (chart.bands) {
    out.push(`<rect x="${MARGIN.left}" y="${ly - 5}" width="26" height="10" fill="${BAND_FILL}" stroke="#d0d7de"/>`);
    out.push(`<text x="${MARGIN.left + 34}" y="${ly + 4}" fill="#24292f">${escapeHtml(chart.bands.label)}</text>`);
    ly += LEGEND_ROW;
  }
  if (chart.markers.length) {
    out.push(
      `<line x1="${MARGIN.left}" y1="${ly}" x2="${MARGIN.left + 26}" y2="${ly}" stroke="#8c959f" stroke-dasharray="2 3"/>`,
    );
    out.push(
      `<text x="${MARGIN.left + 34}" y="${ly + 4}" fill="#24292f">events (first token, exit, OOM, disconnects, alerts)</text>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}
