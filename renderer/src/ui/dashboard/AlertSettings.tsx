// The alert thresholds popover: each rule on/off with its threshold and the reason for its
// default (shared/analysis/alerts.ts). Remembered in localStorage by the dashboard slice, and sent
// with every run started here (RunRequest.alertThresholds): the run's own alerts follow them. The
// dashboard re-judges its rules at once when they change; the run's thermal rules (near a trip
// point, throttling) keep the settings of the run's start, and the popover says so.
import { useEffect, useRef, useState } from 'react';
import {
  ALERT_REASONS,
  ALERT_RULES,
  DEFAULT_ALERT_THRESHOLDS,
  sanitizeThresholds,
  type AlertRule,
  type AlertThresholds,
} from '../../../../shared/analysis/alerts';
import { DASHBOARD_ALERT_RULES } from '../../state/dashboard-slice';
import { useAppStore, useAppStoreApi } from '../store-context';
import { allowedThresholdText, THRESHOLD_FIELDS, type ThresholdField } from './alert-threshold-fields';

/**
 * One threshold as typed: the text is the field's own while it has focus, so it can be emptied
 * and retyped; a value the thresholds accept applies at once, one they would replace by the
 * default (empty, out of range) is marked and left out; on blur the field shows what applies.
 */
function ThresholdInput({ rule, inputId, field: f }: { rule: AlertRule; inputId: string; field: ThresholdField }) {
  const thresholds = useAppStore((s) => s.dash.thresholds);
  const store = useAppStoreApi();
  const [text, setText] = useState<string | null>(null);
  const accepted = (value: string) => {
    const v = f.fromInput(Number(value));
    return value.trim() !== '' && sanitizeThresholds({ ...thresholds, [f.field]: v })[f.field] === v ? v : null;
  };
  const invalid = text !== null && accepted(text) === null;
  return (
    <span className="alert-threshold">
      <input
        id={inputId}
        type="number"
        className="input-small"
        aria-label={`${ALERT_REASONS[rule].label} threshold`}
        aria-describedby={`${inputId}-unit`}
        aria-invalid={invalid}
        value={text ?? f.toInput(thresholds[f.field])}
        data-testid={`threshold-${rule}`}
        onChange={(e) => {
          setText(e.target.value);
          const v = accepted(e.target.value);
          if (v !== null) store.getState().setThresholds({ ...thresholds, [f.field]: v });
        }}
        onBlur={() => setText(null)}
      />
      <span id={`${inputId}-unit`} className="muted small">
        {f.unit}
        {invalid ? ` · allowed: ${allowedThresholdText(f)}; ${f.toInput(thresholds[f.field])} applies` : ''}
      </span>
    </span>
  );
}

/**
 * A button and the non-modal dialog it shows (WAI-ARIA: a disclosure of a dialog): the button says
 * whether it is open (aria-expanded) and what it opens (aria-haspopup); the dialog is not
 * aria-modal (it does not hold the focus: Tab goes on to the page and a press outside closes it).
 * Opening puts the focus on its first control; Escape, from the dialog or its button, closes it and
 * gives the focus back to the button (it fell to <body> with the dialog's control that had it).
 */
export function AlertSettings() {
  const thresholds = useAppStore((s) => s.dash.thresholds);
  const store = useAppStoreApi();
  const setThresholds = (t: AlertThresholds) => store.getState().setThresholds(t);
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  // A press outside the popover (and its toggle) leaves it, as menus do.
  useEffect(() => {
    if (!open) return;
    const onPress = (e: PointerEvent) => {
      if (!anchor.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPress);
    return () => document.removeEventListener('pointerdown', onPress);
  }, [open]);
  useEffect(() => {
    if (open) popover.current?.querySelector<HTMLElement>('input, button')?.focus();
  }, [open]);
  return (
    <div
      className="popover-anchor"
      ref={anchor}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        // Nothing else acts on this Escape (the app's shortcuts listen on window).
        e.stopPropagation();
        setOpen(false);
        toggle.current?.focus();
      }}
    >
      <button
        ref={toggle}
        type="button"
        className="button-secondary button-small"
        aria-expanded={open}
        aria-haspopup="dialog"
        aria-controls={open ? 'alert-settings' : undefined}
        onClick={() => setOpen(!open)}
        data-testid="alert-settings-toggle"
      >
        Alerts…
      </button>
      {open && (
        <div ref={popover} id="alert-settings" className="popover" role="dialog" aria-label="Alert thresholds">
          {ALERT_RULES.map((rule) => {
            const f = THRESHOLD_FIELDS[rule];
            const inputId = `alert-${rule}`;
            return (
              <div key={rule} className="alert-rule">
                <label className="check">
                  <input
                    type="checkbox"
                    checked={thresholds.enabled[rule]}
                    onChange={(e) =>
                      setThresholds({ ...thresholds, enabled: { ...thresholds.enabled, [rule]: e.target.checked } })
                    }
                  />
                  {ALERT_REASONS[rule].label}
                </label>
                {f && <ThresholdInput rule={rule} inputId={inputId} field={f} />}
                <p className="muted small">{ALERT_REASONS[rule].reason}</p>
                {!DASHBOARD_ALERT_RULES.has(rule) && (
                  <p className="muted small" data-testid={`alert-next-run-${rule}`}>
                    Judged by the run on the board: a change applies from the next run.
                  </p>
                )}
              </div>
            );
          })}
          <button
            type="button"
            className="button-secondary button-small"
            onClick={() => setThresholds(DEFAULT_ALERT_THRESHOLDS)}
          >
            Reset to defaults
          </button>
        </div>
      )}
    </div>
  );
}
