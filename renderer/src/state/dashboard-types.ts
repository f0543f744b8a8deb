// The dashboard slice's shape (renderer/src/state/dashboard-slice.ts), apart from types.ts so the
// store's types can include it without an import cycle.
import type { ApiEventName, EventPayload } from '../../../shared/api/contract';
import type { PackedSampleSink, PackedSamples } from '../../../shared/api/packed-samples';
import type { RunEvent, Sample } from '../../../shared/api/schemas';
import type { AlertThresholds } from '../../../shared/analysis/alerts';
import type { PanelId } from '../ui/dashboard/series-catalog';
import type { SeriesStore } from '../ui/dashboard/series-store';

export type ThemeChoice = 'system' | 'light' | 'dark';

/** follow: the window ends at the newest sample (spanMs null = the whole run); else a fixed window. */
export type TimeView = { follow: true; spanMs: number | null } | { follow: false; t0: number; t1: number };

export interface DashboardLayout {
  order: PanelId[];
  collapsed: Partial<Record<PanelId, boolean>>;
}

export interface DashboardState {
  /** Bumps when the series store changed since the last tick (panels redraw on it). */
  version: number;
  runId: string | null;
  view: TimeView;
  cursorTMs: number | null;
  layout: DashboardLayout;
  theme: ThemeChoice;
  thresholds: AlertThresholds;
  /** Alerts raised here with the user's thresholds (the run raises its own with those it was started with). */
  uiAlerts: RunEvent[];
  markerError: string | null;
}

export interface DashboardSlice {
  dash: DashboardState;
  /** The series of the run on screen; read it in render through `dash.version`. */
  seriesStore: SeriesStore;
  handleDashboardEvent<E extends ApiEventName>(event: E, payload: EventPayload<E>): void;
  /**
   * The run's getRun snapshot, fetched once by the live-run slice for both (empty when getRun
   * failed), with the samples that arrived live while it was on its way.
   */
  receiveRunSnapshot(runId: string, snapshotSamples: readonly Sample[], liveSamples: readonly Sample[]): void;
  /**
   * A recorded run's packed samples (an opened session): ingested in one pass that also feeds
   * `alsoFeed` (the live-run slice's memory ring and readouts), with no Sample object built.
   */
  receiveRecordedRun(
    runId: string,
    samples: PackedSamples,
    alsoFeed: readonly PackedSampleSink[],
    /** again: the run on show, from other samples of it (a preview's full samples): alerts judged anew, view and cursor kept. */
    options?: { again?: boolean },
  ): void;
  /** The few-times-a-second tick: follows a run change, publishes new points, evaluates alerts. */
  flushDashboard(): void;
  /** The shared cursor, rounded to whole milliseconds (null: follow the latest sample). */
  setCursor(tMs: number | null): void;
  setTimeView(view: TimeView): void;
  togglePanel(id: PanelId): void;
  movePanel(id: PanelId, delta: -1 | 1): void;
  setTheme(theme: ThemeChoice): void;
  setThresholds(thresholds: AlertThresholds): void;
  addMarker(label?: string): Promise<void>;
}
