// The alert popover's threshold fields (AlertSettings.tsx): each rule's threshold in the unit
// people think in (% of the budget, MiB/s), its conversion to and from the stored value
// (shared/analysis/alert-thresholds.ts), and what it allows in the field's words, from the
// schema's own range. Pure.
import { allowedNumberText, numberRangeOf } from '../../../../shared/api/number-range';
import { AlertThresholdsSchema, type AlertRule, type AlertThresholds } from '../../../../shared/analysis/alerts';

export type ThresholdFieldName = Exclude<keyof AlertThresholds, 'enabled'>;

export interface ThresholdField {
  field: ThresholdFieldName;
  /** Beside the input: what the number counts. */
  unit: string;
  /** The unit after a number in a sentence ("from 5 to 100 %"). */
  unitWord: string;
  toInput: (v: number) => number;
  fromInput: (v: number) => number;
}

const same = (v: number) => v;

/** The threshold field of each rule, shown in the unit people think in. */
export const THRESHOLD_FIELDS: Partial<Record<AlertRule, ThresholdField>> = {
  'rss-budget': {
    field: 'rssBudgetFraction',
    unit: '% of budget',
    unitWord: '%',
    // To a hundredth of a percent: 85.5 % applies as typed and reads back so (rounded to a whole
    // percent it read 86 while 85.5 applied); the rounding only hides float noise (0.07 × 100).
    toInput: (v) => Math.round(v * 10000) / 100,
    fromInput: (v) => v / 100,
  },
  'oom-horizon': { field: 'oomHorizonTokens', unit: 'tokens', unitWord: 'tokens', toInput: same, fromInput: same },
  'near-trip': { field: 'nearTripC', unit: '°C below trip', unitWord: '°C', toInput: same, fromInput: same },
  'swap-in': {
    field: 'swapInBytesPerSecond',
    unit: 'MiB/s',
    unitWord: 'MiB/s',
    toInput: (v) => v / 1048576,
    fromInput: (v) => v * 1048576,
  },
};

/** What a threshold field accepts, in its unit: "a number from 5 to 100 %". */
export function allowedThresholdText(f: ThresholdField): string {
  const range = numberRangeOf(AlertThresholdsSchema.shape[f.field]);
  return allowedNumberText(
    {
      ...range,
      min: range.min === null ? null : f.toInput(range.min),
      max: range.max === null ? null : f.toInput(range.max),
    },
    { unit: f.unitWord },
  );
}
