// Every series the run's collectors produce, newest value first seen, with its unit: the
// collector registry (shared/collectors/registry.ts) decides what is listed, so a new collector
// appears here without a change in the UI.
import { useAppStore } from './store-context';

export function SeriesPanel() {
  const series = useAppStore((s) => s.run.series);
  if (series.length === 0) return null;
  return (
    <section className="series-panel" aria-label="All series">
      <h2 className="series-panel-title">All series</h2>
      <table className="series-table">
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Source</th>
            <th scope="col">Now</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s) => (
            <tr key={s.key} data-testid={`series-${s.key}`}>
              <th scope="row" title={s.key}>
                {s.label}
              </th>
              <td>{s.sourceId}</td>
              <td className="num">{s.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
