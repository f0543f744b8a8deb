// The alert popover's threshold fields say what they allow in their own unit, from the schema's range.
import { describe, expect, it } from 'vitest';
import {
  allowedThresholdText,
  THRESHOLD_FIELDS,
} from '../../../../../../renderer/src/ui/dashboard/alert-threshold-fields';
import { defined } from '../../../../../helpers/defined';

describe('allowedThresholdText', () => {
  it.each([
    ['rss-budget', 'a number from 5 to 100 %'],
    ['oom-horizon', 'a whole number from 0 to 100,000,000 tokens'],
    ['near-trip', 'a number from 0 to 100 °C'],
    // 1 TiB/s: whole in the MiB/s the field is typed in.
    ['swap-in', 'a number from 0 to 1,048,576 MiB/s'],
  ] as const)('%s: %s', (rule, text) => {
    expect(allowedThresholdText(defined(THRESHOLD_FIELDS[rule]))).toBe(text);
  });
});
