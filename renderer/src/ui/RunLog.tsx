import { useEffect, useRef } from 'react';
import { formatRunTimeMs } from '../../../shared/format/units';
import { useAppStore } from './store-context';

export function RunLog() {
  const events = useAppStore((s) => s.run.events);
  const output = useAppStore((s) => s.run.output);
  const outputRef = useRef<HTMLPreElement>(null);

  useEffect(() => {
    const el = outputRef.current;
    // Follow the tail unless the user scrolled up to read.
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 48) el.scrollTop = el.scrollHeight;
  }, [output]);

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
          <pre className="output mono" ref={outputRef} data-testid="engine-output">
            {output.map((line, i) => (
              <span key={i} className={line.stream === 'stderr' ? 'output-stderr' : undefined}>
                {line.text}
                {'\n'}
              </span>
            ))}
          </pre>
        )}
      </section>
    </div>
  );
}
