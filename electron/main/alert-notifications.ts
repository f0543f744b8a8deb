// Desktop notifications for a run's alerts (shared/analysis/alerts.ts raises them in the run):
// the field engineer is often in another window while a long run goes on. No electron import
// here, so the choice of what to show is tested under plain Node; index.ts passes Notification.
import type { ApiEventName, EventPayload } from '../../shared/api/contract';

export type ShowNotification = (title: string, body: string) => void;

/** Run events worth interrupting the user for: the run's alerts and the OOM killer. */
const NOTIFIED_KINDS: ReadonlySet<string> = new Set(['alert', 'oom']);

/** An API event sink that shows a notification for each alert or OOM event of any run. */
export function alertNotifier(show: ShowNotification) {
  return <E extends ApiEventName>(event: E, payload: EventPayload<E>): void => {
    if (event !== 'runEvent') return;
    const { event: runEvent } = payload as EventPayload<'runEvent'>;
    if (!NOTIFIED_KINDS.has(runEvent.kind)) return;
    const title = runEvent.kind === 'oom' ? 'KVScope: engine killed by the OOM killer' : 'KVScope alert';
    show(title, runEvent.message ?? runEvent.kind);
  };
}
