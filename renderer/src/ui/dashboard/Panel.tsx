// One dashboard panel: a landmark region with its exact accessible name, a header (collapse,
// move), the values of its series at the shared cursor (or the newest values), its legend and
// its tracks on the shared time axis.
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { decodeCeilingTokensPerSecond } from '../../../../shared/analysis/roofline';
import type { ThrottleInterval } from '../../../../shared/analysis/throttle';
import { useAppStore, useAppStoreApi } from '../store-context';
import { indexAtOrBefore } from './downsample';
import { RATE_WINDOW_MS, tokensAtTime } from './derived';
import { formatReading } from './format-unit';
import { PANEL_NAMES, toDisplay, unitFromName, type PanelId } from './series-catalog';
import { CEILING, TOKENS_PER_SECOND, type PointsInputs, type TrackModel, type VLine } from './panel-model';
import { TimeChart } from './TimeChart';

interface PanelProps {
  id: PanelId;
  index: number;
  count: number;
  children?: ReactNode;
  /** What to do next when the panel has nothing to draw. */
  empty: string | null;
  summary?: ReactNode;
}

/**
 * The panel's ↑ and ↓. The one pressed (a click, Enter) becomes disabled when the panel reaches
 * the top or the bottom, and Chromium then dropped the focus to <body>: a keyboard user lost their
 * place in the page. Once the panel has its new place the focus is on the button pressed, or on
 * the other one when the pressed one is disabled now.
 */
function useMoveButtons(index: number, movePanel: (delta: -1 | 1) => void) {
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const pressed = useRef<-1 | 1 | null>(null);
  useLayoutEffect(() => {
    const delta = pressed.current;
    pressed.current = null;
    if (delta === null) return;
    const [same, other] = delta === -1 ? [up.current, down.current] : [down.current, up.current];
    const target = same && !same.disabled ? same : other;
    if (target && !target.disabled && document.activeElement !== target) target.focus();
  }, [index]);
  const move = (delta: -1 | 1) => {
    pressed.current = delta;
    movePanel(delta);
  };
  return { up, down, move };
}

export function Panel({ id, index, count, children, empty, summary }: PanelProps) {
  const collapsed = useAppStore((s) => s.dash.layout.collapsed[id] === true);
  const store = useAppStoreApi();
  const togglePanel = (panel: PanelId) => store.getState().togglePanel(panel);
  const { up, down, move: movePanel } = useMoveButtons(index, (delta) => store.getState().movePanel(id, delta));
  const name = PANEL_NAMES[id];
  const bodyId = `panel-body-${id}`;
  return (
    <section
      role="region"
      aria-label={name}
      className="dash-panel"
      data-testid={`panel-${id}`}
      data-collapsed={collapsed}
    >
      <header className="dash-panel-head">
        <button
          type="button"
          className="panel-toggle"
          aria-expanded={!collapsed}
          aria-controls={bodyId}
          onClick={() => togglePanel(id)}
          data-testid={`toggle-${id}`}
        >
          <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> {name}
        </button>
        <div className="panel-summary">{summary}</div>
        <div className="panel-move">
          <button
            type="button"
            className="icon-button"
            ref={up}
            disabled={index === 0}
            onClick={() => movePanel(-1)}
            aria-label={`Move ${name} up`}
          >
            ↑
          </button>
          <button
            type="button"
            className="icon-button"
            ref={down}
            disabled={index === count - 1}
            onClick={() => movePanel(1)}
            aria-label={`Move ${name} down`}
          >
            ↓
          </button>
        </div>
      </header>
      {!collapsed && (
        <div id={bodyId} className="dash-panel-body">
          {empty ? (
            <p className="panel-empty" data-testid={`empty-${id}`}>
              {empty}
            </p>
          ) : (
            children
          )}
        </div>
      )}
    </section>
  );
}

interface TracksProps extends Omit<PointsInputs, 'plotWidthPx'> {
  panel: PanelId;
  tracks: TrackModel[];
  widthPx: number;
  throttle: readonly ThrottleInterval[];
  eventTimes: readonly number[];
  /** Time markers per track id (the OOM horizon on the engine-memory track). */
  vLines: Readonly<Record<string, readonly VLine[]>>;
}

const NO_VLINES: readonly VLine[] = [];

/** Value of a drawn series at tMs, in its display unit (derived series computed on the spot). */
function valueAt(input: Pick<TracksProps, 'store' | 'roofline' | 'promptTokens'>, key: string, tMs: number) {
  const { store } = input;
  if (key === TOKENS_PER_SECOND || key === CEILING) {
    const tokens = store.get('tokens');
    if (!tokens) return null;
    if (key === CEILING)
      return input.roofline
        ? decodeCeilingTokensPerSecond(input.roofline, input.promptTokens + tokensAtTime(tokens, tMs))
        : null;
    return ((tokensAtTime(tokens, tMs) - tokensAtTime(tokens, tMs - RATE_WINDOW_MS)) * 1000) / RATE_WINDOW_MS;
  }
  const b = store.get(key);
  if (!b) return null;
  const i = indexAtOrBefore(b.t, b.length, tMs);
  if (i < 0) return null;
  const unit = unitFromName(key);
  const v = b.v[i] ?? null;
  return v === null || unit === null ? v : toDisplay(unit, v);
}

/** "at 12.3 s · RSS 150 MiB · …": the same instant in every panel (the shared cursor). */
export function CursorReadout(
  props: Pick<TracksProps, 'panel' | 'tracks' | 'store' | 'domain' | 'roofline' | 'promptTokens'>,
) {
  const { panel, tracks, domain } = props;
  const cursor = useAppStore((s) => s.dash.cursorTMs);
  const tMs = cursor ?? domain.t1;
  const parts: string[] = [];
  for (const track of tracks)
    for (const s of track.series) {
      const v = valueAt(props, s.key, tMs);
      parts.push(`${s.label} ${formatReading(track.unit, s.key, v)}`);
    }
  return (
    <p className="cursor-readout" data-testid={`cursor-readout-${panel}`} data-tms={tMs} aria-live="off">
      <span className="cursor-time">{cursor === null ? 'latest' : `at ${(tMs / 1000).toFixed(1)} s`}</span>
      {parts.length > 0 && ` · ${parts.join(' · ')}`}
    </p>
  );
}

export function PanelTracks(props: TracksProps) {
  const { tracks, panel, vLines, ...chart } = props;
  return (
    <>
      <CursorReadout {...props} />
      <ul className="legend" aria-label={`${PANEL_NAMES[panel]} legend`}>
        {tracks.flatMap((t) =>
          t.series.map((s) => (
            <li key={`${t.id}-${s.key}`} data-testid="legend-entry">
              <span
                className={`swatch${s.dashed ? ' swatch-dashed' : ''}`}
                style={{ borderColor: s.color }}
                aria-hidden="true"
              />
              {s.label}
            </li>
          )),
        )}
      </ul>
      {tracks.map((track) => (
        <div key={track.id} className="track">
          <div className="track-title">{track.title}</div>
          <TimeChart track={track} vLines={vLines[track.id] ?? NO_VLINES} {...chart} />
        </div>
      ))}
    </>
  );
}
