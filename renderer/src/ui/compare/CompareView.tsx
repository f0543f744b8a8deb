// Two or more sessions side by side: their RSS curves overlaid (aligned by tokens generated or by
// time since start) and the delta table of the headline numbers against the first session — the
// rows, values and changes of `kvscope compare` (shared/report/compare-model.ts).
import { useMemo } from 'react';
import { Line } from 'recharts';
import { formatBytesShort, formatTokensShort, niceByteTicks, niceLinearTicks } from '../../../../shared/format/axis';
import { formatBytes } from '../../../../shared/format/units';
import type { CompareAlign, LoadedSession } from '../../state/compare-slice';
import { LINE_PROPS, LineChartFrame, xAxisLabel } from '../LineChartFrame';
import { useAppStore } from '../store-context';
import { deltaTable, distinctNames, overlayCurves } from './overlay-series';
import { BeforeAfterView } from './BeforeAfterView';
import '../sessions/sessions.css';

/** One colour per compared session, in pick order (distinct on the dark and light themes). */
export const COMPARE_COLORS = ['#5aa9ff', '#f5a524', '#3ecf8e', '#c58cff', '#ff5d5d', '#e0e060'] as const;

const VERDICT_TEXT = { better: 'better', worse: 'worse', same: 'same' } as const;

type Ready = Extract<LoadedSession, { status: 'ready' }> & { id: string };

function AlignSwitch() {
  const align = useAppStore((s) => s.compareAlign);
  const setAlign = useAppStore((s) => s.setCompareAlign);
  const options: Array<[CompareAlign, string]> = [
    ['tokens', 'By tokens'],
    ['time', 'By time'],
  ];
  return (
    <div className="segmented" role="radiogroup" aria-label="Align curves">
      {options.map(([value, text]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={align === value}
          onClick={() => setAlign(value)}
          data-testid={`align-${value}`}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

function OverlayChart({ sessions }: { sessions: Ready[] }) {
  const align = useAppStore((s) => s.compareAlign);
  const curves = useMemo(() => overlayCurves(sessions, align), [sessions, align]);
  const total = curves.reduce((n, c) => n + c.points.length, 0);
  const { xAxis, yAxis } = useMemo(() => {
    const points = curves.flatMap((c) => c.points);
    return {
      xAxis: niceLinearTicks(Math.max(0, ...points.map((p) => p.x))),
      yAxis: niceByteTicks(Math.max(0, ...points.map((p) => p.y))),
    };
  }, [curves]);
  if (total === 0)
    return (
      <div className="chart-empty" data-testid="compare-chart-empty">
        <div className="chart-empty-title">No memory samples</div>
        <p>None of these sessions holds an RSS sample to draw. Their numbers are compared below.</p>
      </div>
    );
  return (
    <div
      className="chart-box"
      data-testid="compare-chart"
      data-align={align}
      data-curves={curves.length}
      data-points={curves.map((c) => c.points.length).join(',')}
      style={{ height: 340 }}
    >
      <LineChartFrame
        margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
        x={{
          dataKey: 'x',
          // Round ends and steps (the data's own end as the last tick read "9 s  9 s").
          ticks: xAxis.ticks,
          domain: [0, xAxis.top],
          tickFormatter: (v: number) => (align === 'tokens' ? formatTokensShort(v) : `${Math.round(v * 10) / 10} s`),
          label: xAxisLabel(align === 'tokens' ? 'tokens generated' : 'seconds since start', -4),
        }}
        y={{
          dataKey: 'y',
          ticks: yAxis.ticks,
          domain: [0, yAxis.top],
          tickFormatter: (v: number) => formatBytesShort(v),
        }}
        tooltip={{
          formatter: (value) => formatBytes(Number(value)),
          labelFormatter: (x) =>
            align === 'tokens' ? `${formatTokensShort(Number(x))} tokens` : `${Number(x).toFixed(1)} s`,
        }}
        // Above the plot, as on the memory chart: below, it covered the x axis' title.
        legend={{ verticalAlign: 'top', align: 'right', iconType: 'plainline', wrapperStyle: { fontSize: 12 } }}
      >
        {curves.map((curve, i) => (
          <Line
            key={curve.id}
            data={curve.points}
            dataKey="y"
            name={curve.name}
            stroke={COMPARE_COLORS[i % COMPARE_COLORS.length]}
            strokeWidth={1.6}
            {...LINE_PROPS}
          />
        ))}
      </LineChartFrame>
    </div>
  );
}

function DeltaTableView({ sessions }: { sessions: Ready[] }) {
  const table = useMemo(() => deltaTable(sessions), [sessions]);
  if (!table) return null;
  return (
    <>
      {table.notes.map((note) => (
        <p key={note} className="muted small">
          {note}
        </p>
      ))}
      <div className="table-scroll">
        <table className="delta-table" data-testid="delta-table">
          <thead>
            <tr>
              <th scope="col">Headline</th>
              <th scope="col">{table.names[0]} (reference)</th>
              {table.names.slice(1).map((name, i) => (
                <th scope="col" key={`${name}-${i}`} colSpan={2}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.label} data-testid="delta-row" data-label={row.label}>
                <th scope="row">{row.label}</th>
                <td data-testid="delta-reference">{row.reference}</td>
                {row.others.map((cell, i) => (
                  <CellPair key={i} value={cell.b} delta={cell.delta} verdict={cell.verdict} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">Change = (session − reference) ÷ reference, as `kvscope compare` reports it.</p>
    </>
  );
}

function CellPair({
  value,
  delta,
  verdict,
}: {
  value: string;
  delta: string;
  verdict: 'better' | 'worse' | 'same' | null;
}) {
  return (
    <>
      <td data-testid="delta-value">{value}</td>
      <td data-testid="delta-change" className={verdict ? `delta-${verdict}` : undefined}>
        {delta}
        {verdict && verdict !== 'same' && <span className="visually-hidden"> ({VERDICT_TEXT[verdict]})</span>}
      </td>
    </>
  );
}

export function CompareView() {
  const ids = useAppStore((s) => s.compareIds);
  const compared = useAppStore((s) => s.compared);
  const setView = useAppStore((s) => s.setView);
  const makeReference = useAppStore((s) => s.makeReference);
  const ready = useMemo(() => {
    const sessions = ids.flatMap((id): Ready[] => {
      const entry = compared[id];
      return entry?.status === 'ready' ? [{ ...entry, id }] : [];
    });
    // Two sessions of the same name (a board's default run name, twice) get told apart in every
    // legend, header and option of the view; a session keeps its "(2)" when another becomes the reference.
    const names = distinctNames(sessions);
    return sessions.map((s, i) => ({ ...s, name: names[i] ?? s.name }));
  }, [ids, compared]);
  const loading = ids.some((id) => compared[id]?.status === 'loading');
  const listed = useAppStore((s) => s.sessions);
  const toggleCompare = useAppStore((s) => s.toggleCompare);
  const vanished = useAppStore((s) => s.compareVanished);
  const failed = ids.flatMap((id) => {
    const entry = compared[id];
    const name = listed.find((s) => s.id === id)?.name ?? id;
    return entry?.status === 'error' ? [{ id, name, error: entry.error }] : [];
  });

  return (
    <section className="panel compare-view" aria-labelledby="compare-heading" data-testid="compare-view">
      <div className="panel-head">
        <h2 id="compare-heading">Compare sessions</h2>
        <div className="panel-tools">
          <AlignSwitch />
        </div>
      </div>
      {ids.length < 2 && (
        <div className="chart-empty" data-testid="compare-empty">
          <div className="chart-empty-title">Pick two or more sessions</div>
          <p>
            Tick the sessions to compare in the session list (f16 against q8_0, fan against no fan, one board against
            another), then press Compare.{' '}
            <button type="button" className="link-button" onClick={() => setView('sessions')}>
              Go to the sessions
            </button>
          </p>
        </div>
      )}
      {vanished.length > 0 && (
        <div className="banner banner-info" role="status" data-testid="compare-vanished">
          {vanished.map((name) => `“${name}”`).join(', ')} {vanished.length === 1 ? 'is' : 'are'} no longer among the
          sessions (deleted in another window, or moved on disk): left out of the comparison.
        </div>
      )}
      {failed.map(({ id, name, error }) => (
        <div key={id} className="banner banner-error" role="alert" data-testid="compare-error">
          Could not open “{name}”: {error}.{' '}
          {/* Here, where the user reads it: no trip to the session list to untick it. */}
          <button
            type="button"
            className="link-button"
            onClick={() => toggleCompare(id)}
            data-testid={`compare-remove-${id}`}
          >
            Remove it from the comparison
          </button>
        </div>
      ))}
      {loading && <p className="muted">Opening the sessions…</p>}
      {ids.length >= 2 && ready.length >= 2 && (
        <>
          <p className="muted small">
            Reference:{' '}
            <select
              aria-label="Reference session"
              value={ids[0]}
              onChange={(e) => makeReference(e.target.value)}
              data-testid="compare-reference"
            >
              {ready.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </p>
          <OverlayChart sessions={ready} />
          <BeforeAfterView sessions={ready} />
          <DeltaTableView sessions={ready} />
        </>
      )}
    </section>
  );
}
