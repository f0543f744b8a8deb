import { formatRunTimeMs } from '../../../shared/format/units';
import { useAppStore } from './store-context';

export function RunLog() {
  const events = useAppStore((s) => s.run.events);
  const output = useAppStore((s) => s.run.output);
  const outputLines = useAppStore((s) => s.run.outputLines);
  // Each line keyed by its number in the run: a flush adds the new lines and removes the oldest,
  // not rewrites all 300 (it did, four times a second while an engine printed a line per token).
  const first = outputLines - output.length;

  return (
    <div className="log-grid">
      <section className="panel" aria-labelledby="events-heading">
        <div className="panel-head">
          <h2 id="events-heading">Event log</h2>
          <span className="muted small">{events.length}</span>
        </div>
        {events.length === 0 ? (
          <p className="muted">Start, stop, exit, alerts and OOM kills are listed here.</p>
        ) : (
          <ol className="event-list" data-testid="event-list">
            {events.map((event, i) => (
              <li key={`${event.tMs}-${i}`}>
                <span className="event-time mono">{formatRunTimeMs(event.tMs)}</span>
                <span className={`event-kind event-${event.kind}`}>{event.kind}</span>
                <span className="event-message">{event.message ?? ''}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section className="panel" aria-labelledby="output-heading">
        <div className="panel-head">
          <h2 id="output-heading">Engine output</h2>
          <span className="muted small">last {output.length} lines</span>
        </div>
        {output.length === 0 ? (
          <p className="muted">The engine's stdout and stderr appear here.</p>
        ) : (
          // The box scrolls from its bottom (.output-scroll): it follows the tail as lines come,
          // and stays where a user scrolled up to read, with no layout read in script per update.
          <div className="output-scroll">
            <pre className="output mono" data-testid="engine-output">
              {output.map((line, i) => (
                <span key={first + i} className={line.stream === 'stderr' ? 'output-stderr' : undefined}>
                  {line.text}
                  {'\n'}
                </span>
              ))}
            </pre>
          </div>
        )}
      </section>
    </div>
  );
}
