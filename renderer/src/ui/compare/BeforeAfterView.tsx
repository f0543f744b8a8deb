// The before/after table of the Compare view: for each session against the reference, what changed
// in the setup (model, board, KV type, context, limits, collectors) and what it bought (max safe
// context, decode tokens/s, peak RSS, OOM horizon, time throttled) — the rows of `kvscope compare`
// (shared/report/before-after.ts).
import { useMemo } from 'react';
import type { BeforeAfter, CompareRow } from '../../../../shared/report/before-after';
import { buildCompareModel } from '../../../../shared/report/compare-model';
import type { SessionData } from '../../../../shared/report/session-data';

interface Compared {
  name: string;
  data: SessionData;
}

function Head({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th scope="col" key={`${c}-${i}`}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Label, A, B and (for numbers) the change with its verdict. */
function Row({ row: r, change }: { row: CompareRow; change: boolean }) {
  return (
    <tr data-label={r.label}>
      <th scope="row">{r.label}</th>
      <td>{r.a}</td>
      <td>{r.b}</td>
      {change && (
        <td className={r.verdict ? `delta-${r.verdict}` : undefined} data-verdict={r.verdict ?? ''}>
          {r.delta}
          {r.verdict && r.verdict !== 'same' && <span className="visually-hidden"> ({r.verdict})</span>}
        </td>
      )}
    </tr>
  );
}

function BeforeAfterTables({ from, to, table }: { from: string; to: string; table: BeforeAfter }) {
  return (
    <div className="before-after" data-testid="before-after" data-session={to}>
      <h3>
        {from} → {to}
      </h3>
      {table.changed.length === 0 ? (
        <p className="muted small" data-testid="before-after-nothing">
          Nothing changed in the setup: the same run, twice.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="delta-table" data-testid="before-after-changed">
            <Head columns={['What changed', from, to]} />
            <tbody>
              {table.changed.map((r) => (
                <Row key={r.label} row={r} change={false} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="table-scroll">
        <table className="delta-table" data-testid="before-after-bought">
          <Head columns={['What it bought', from, to, 'Change']} />
          <tbody>
            {table.bought.map((r) => (
              <Row key={r.label} row={r} change />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** One before/after table per session against the reference (the first), of their first runs. */
export function BeforeAfterView({ sessions }: { sessions: readonly Compared[] }) {
  const tables = useMemo(() => {
    const [reference, ...others] = sessions;
    if (!reference) return [];
    return others.flatMap((o) => {
      const pair = buildCompareModel(reference.data, o.data, { a: reference.name, b: o.name }).pairs[0];
      return pair ? [{ from: reference.name, to: o.name, table: pair.beforeAfter }] : [];
    });
  }, [sessions]);
  if (tables.length === 0) return null;
  return (
    <section aria-label="Before and after" className="before-after-list">
      {tables.map((t, i) => (
        <BeforeAfterTables key={`${t.to}-${i}`} from={t.from} to={t.to} table={t.table} />
      ))}
    </section>
  );
}
