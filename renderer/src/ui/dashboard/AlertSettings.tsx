// The alert thresholds popover: each rule on/off with its threshold and the reason for its
// default (shared/analysis/alerts.ts). Remembered in localStorage by the dashboard slice.
import { useState } from 'react';
import {
  ALERT_REASONS,
  ALERT_RULES,
  DEFAULT_ALERT_THRESHOLDS,
  type AlertRule,
  type AlertThresholds,
} from '../../../../shared/analysis/alerts';
import { useAppStore, useAppStoreApi } from '../store-context';

type NumericField = Exclude<keyof AlertThresholds, 'enabled'>;

/** The threshold field of each rule, shown in the unit people think in. */
const FIELDS: Partial<
  Record<
    AlertRule,
    { field: NumericField; unit: string; toInput: (v: number) => number; fromInput: (v: number) => number }
  >
> = {
  'rss-budget': {
    field: 'rssBudgetFraction',
    unit: '% of budget',
    toInput: (v) => Math.round(v * 100),
    fromInput: (v) => v / 100,
  },
  'oom-horizon': { field: 'oomHorizonTokens', unit: 'tokens', toInput: (v) => v, fromInput: (v) => v },
  'near-trip': { field: 'nearTripC', unit: '°C below trip', toInput: (v) => v, fromInput: (v) => v },
  'swap-in': {
    field: 'swapInBytesPerSecond',
    unit: 'MiB/s',
    toInput: (v) => v / 1048576,
    fromInput: (v) => v * 1048576,
  },
};

export function AlertSettings() {
  const thresholds = useAppStore((s) => s.dash.thresholds);
  const store = useAppStoreApi();
  const setThresholds = (t: AlertThresholds) => store.getState().setThresholds(t);
  const [open, setOpen] = useState(false);
  return (
    <div className="popover-anchor">
      <button
        type="button"
        className="button-secondary button-small"
        aria-expanded={open}
        aria-controls="alert-settings"
        onClick={() => setOpen(!open)}
        data-testid="alert-settings-toggle"
      >
        Alerts…
      </button>
      {open && (
        <div id="alert-settings" className="popover" role="dialog" aria-label="Alert thresholds">
          {ALERT_RULES.map((rule) => {
            const f = FIELDS[rule];
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
                {f && (
                  <span className="alert-threshold">
                    <input
                      id={inputId}
                      type="number"
                      className="input-small"
                      aria-label={`${ALERT_REASONS[rule].label} threshold`}
                      aria-describedby={`${inputId}-unit`}
                      value={f.toInput(thresholds[f.field])}
                      data-testid={`threshold-${rule}`}
                      onChange={(e) => {
                        const v = Number(e.target.value);
                        if (e.target.value !== '' && Number.isFinite(v))
                          setThresholds({ ...thresholds, [f.field]: f.fromInput(v) });
                      }}
                    />
                    <span id={`${inputId}-unit`} className="muted small">
                      {f.unit}
                    </span>
                  </span>
                )}
                <p className="muted small">{ALERT_REASONS[rule].reason}</p>
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
