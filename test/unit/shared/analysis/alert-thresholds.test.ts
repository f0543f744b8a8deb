// The alert settings' one schema: what a run request may carry (refused when out of range or
// incomplete, as the bridge refuses it), and what stored settings fall back from.
import { describe, expect, it } from 'vitest';
import { RunRequestSchema } from '../../../../shared/api/schemas';
import { DEFAULT_ALERT_THRESHOLDS, sanitizeThresholds } from '../../../../shared/analysis/alert-thresholds';

const request = (alertThresholds: unknown) => ({
  target: { kind: 'local' },
  engine: { kind: 'command', command: 'llama-cli -m m.gguf' },
  alertThresholds,
});

describe('RunRequest.alertThresholds', () => {
  it('takes the settings as the popover keeps them, and none at all', () => {
    const user = { ...DEFAULT_ALERT_THRESHOLDS, nearTripC: 12 };
    expect(RunRequestSchema.parse(request(user)).alertThresholds).toEqual(user);
    expect(RunRequestSchema.parse(request(undefined)).alertThresholds).toBeUndefined();
  });

  it.each([
    ['a threshold out of its range', { ...DEFAULT_ALERT_THRESHOLDS, nearTripC: -1 }, 'nearTripC'],
    ['a fraction above the budget', { ...DEFAULT_ALERT_THRESHOLDS, rssBudgetFraction: 1.5 }, 'rssBudgetFraction'],
    // A token count is whole: 10.5 tokens was taken.
    ['a fraction of a token', { ...DEFAULT_ALERT_THRESHOLDS, oomHorizonTokens: 10.5 }, 'oomHorizonTokens'],
    [
      'an unknown rule',
      { ...DEFAULT_ALERT_THRESHOLDS, enabled: { ...DEFAULT_ALERT_THRESHOLDS.enabled, fan: true } },
      'enabled',
    ],
    ['a rule left out', { ...DEFAULT_ALERT_THRESHOLDS, enabled: { throttling: false } }, 'enabled'],
    ['an unknown field', { ...DEFAULT_ALERT_THRESHOLDS, fanC: 3 }, ''],
  ])('refuses %s', (_what, thresholds, field) => {
    const parsed = RunRequestSchema.safeParse(request(thresholds));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.slice(0, 2).join('.')).toBe(
      field ? `alertThresholds.${field}` : 'alertThresholds',
    );
  });
});

describe('sanitizeThresholds', () => {
  it('keeps stored values inside the ranges the schema sets, to their edges', () => {
    const t = sanitizeThresholds({
      rssBudgetFraction: 0.05,
      nearTripC: 100,
      swapInBytesPerSecond: 0,
      oomHorizonTokens: 0,
    });
    expect([t.rssBudgetFraction, t.nearTripC, t.swapInBytesPerSecond, t.oomHorizonTokens]).toEqual([0.05, 100, 0, 0]);
    expect(sanitizeThresholds({ rssBudgetFraction: 0.04, nearTripC: Infinity }).rssBudgetFraction).toBe(0.8);
    expect(sanitizeThresholds({ nearTripC: Infinity }).nearTripC).toBe(5);
  });

  it('takes the default for a stored OOM horizon that is not a whole number of tokens', () => {
    expect(sanitizeThresholds({ oomHorizonTokens: 10.5 }).oomHorizonTokens).toBe(1024);
    expect(sanitizeThresholds({ oomHorizonTokens: 2048 }).oomHorizonTokens).toBe(2048);
  });
});
