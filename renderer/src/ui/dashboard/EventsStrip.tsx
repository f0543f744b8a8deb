// The Events panel's content: every event of the run on the shared time axis (start/stop,
// alerts, throttling, disconnect/reconnect, OOM, markers) and as a list, newest first. Clicking
// one puts the shared cursor on it.
import { alarmEpisodeMessage, type AlarmEpisode } from '../../../../shared/analysis/alarm-sensors';
import type { AlertRule } from '../../../../shared/analysis/alerts';
import type { RunEvent } from '../../../../shared/api/schemas';
import { DASHBOARD_ALERT_RULES } from '../../state/dashboard-slice';
import { useAppStore, useAppStoreApi } from '../store-context';
import { formatRunTime } from './format-unit';
import type { Domain } from './panel-model';
import { PLOT_LEFT_PX, PLOT_RIGHT_PX } from './track-painter';

/** Rows in the list: a long run's events stay on the strip; the list shows the newest. */
const LIST_ROWS = 60;
const STRIP_HEIGHT_PX = 28;

const KIND_LABEL: Record<RunEvent['kind'], string> = {
  start: 'start',
  stop: 'stop',
  exit: 'exit',
  disconnect: 'disconnect',
  reconnect: 'reconnect',
  throttle: 'throttling',
  alert: 'alert',
  oom: 'OOM',
  error: 'error',
  info: 'info',
  marker: 'marker',
};

/**
 * The run's events, the dashboard's own alerts, the throttle intervals the dashboard found and the
 * PMIC's die-temperature alarms its series show (shared/analysis/alarm-sensors.ts), in time order.
 * For the rules the dashboard judges itself, its alerts (the user's thresholds and switches as they
 * are now) stand for the run's (those of the run's start): a rule set to 50 % or turned off mid-run
 * must not show the run's 80 % alert.
 */
export function mergeEvents(
  runEvents: readonly RunEvent[],
  uiAlerts: readonly RunEvent[],
  throttle: ReadonlyArray<{ startMs: number; endMs: number }>,
  alarms: readonly AlarmEpisode[] = [],
): RunEvent[] {
  const ruleOf = (e: RunEvent) => (e.data as { rule?: unknown } | undefined)?.rule;
  const judgedHere = (e: RunEvent) => e.kind === 'alert' && DASHBOARD_ALERT_RULES.has(ruleOf(e) as AlertRule);
  const bands: RunEvent[] = throttle.map((i) => ({
    tMs: i.startMs,
    kind: 'throttle',
    message: `throttled for ${((i.endMs - i.startMs) / 1000).toFixed(1)} s`,
  }));
  const raised: RunEvent[] = alarms.map((e) => ({ tMs: e.startMs, kind: 'alert', message: alarmEpisodeMessage(e) }));
  return [...runEvents.filter((e) => !judgedHere(e)), ...uiAlerts, ...bands, ...raised].sort((a, b) => a.tMs - b.tMs);
}

export function EventsStrip({
  events,
  domain,
  widthPx,
}: {
  events: RunEvent[];
  domain: Domain | null;
  widthPx: number;
}) {
  const store = useAppStoreApi();
  const cursor = useAppStore((s) => s.dash.cursorTMs);
  const plotW = Math.max(10, widthPx - PLOT_LEFT_PX - PLOT_RIGHT_PX);
  const x = (t: number) => (domain ? PLOT_LEFT_PX + ((t - domain.t0) / (domain.t1 - domain.t0 || 1)) * plotW : 0);
  const visible = domain ? events.filter((e) => e.tMs >= domain.t0 && e.tMs <= domain.t1) : [];
  const list = events.slice(-LIST_ROWS).reverse();
  return (
    <div className="events">
      {domain && (
        <svg
          width={widthPx}
          height={STRIP_HEIGHT_PX}
          className="events-strip"
          data-testid="events-strip"
          role="img"
          aria-label="Events on the time axis"
        >
          <line
            className="events-axis"
            x1={PLOT_LEFT_PX}
            x2={PLOT_LEFT_PX + plotW}
            y1={STRIP_HEIGHT_PX / 2}
            y2={STRIP_HEIGHT_PX / 2}
          />
          {visible.map((e, i) => (
            <g key={`${e.tMs}-${e.kind}-${i}`} className={`event-mark dash-ev-${e.kind}`} data-kind={e.kind}>
              <title>{`${formatRunTime(e.tMs)} ${KIND_LABEL[e.kind]}: ${e.message ?? ''}`}</title>
              <line x1={x(e.tMs)} x2={x(e.tMs)} y1={4} y2={STRIP_HEIGHT_PX - 4} />
            </g>
          ))}
          {cursor !== null && cursor >= domain.t0 && cursor <= domain.t1 && (
            <line className="cursor-line" x1={x(cursor)} x2={x(cursor)} y1={0} y2={STRIP_HEIGHT_PX} />
          )}
        </svg>
      )}
      <ol className="dash-event-list" aria-label="Run events, newest first">
        {list.map((e, i) => (
          <li
            key={`${e.tMs}-${e.kind}-${i}`}
            className={`dash-event-row dash-ev-${e.kind}`}
            data-testid="event-item"
            data-kind={e.kind}
          >
            <button type="button" className="dash-event-time" onClick={() => store.getState().setCursor(e.tMs)}>
              {formatRunTime(e.tMs)}
            </button>
            <span className="dash-event-kind">{KIND_LABEL[e.kind]}</span>
            <span className="dash-event-message">{e.message ?? ''}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
