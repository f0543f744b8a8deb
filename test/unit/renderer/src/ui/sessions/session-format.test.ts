// The age a left run is offered with: the largest whole unit, rounded, singular for one.
import { describe, expect, it } from 'vitest';
import { ageSince, formatAge } from '../../../../../../renderer/src/ui/sessions/session-format';

describe('formatAge', () => {
  it.each([
    [0, '0 seconds ago'],
    [1, '1 second ago'],
    [89, '89 seconds ago'],
    [90, '2 minutes ago'],
    [59 * 60, '59 minutes ago'],
    [90 * 60, '2 hours ago'],
    [35 * 3600, '35 hours ago'],
    [36 * 3600, '2 days ago'],
    [3 * 86_400 + 100, '3 days ago'],
    [14 * 86_400, '14 days ago'],
    [null, 'age unknown'],
  ])('%s s → %s', (ageS, text) => {
    expect(formatAge(ageS)).toBe(text);
  });
});

describe('ageSince', () => {
  it('adds the time since the list was read: a run 30 s old when listed 5 minutes ago is 5 minutes old', () => {
    expect(formatAge(ageSince(30, 1_000_000, 1_000_000 + 5 * 60_000))).toBe('6 minutes ago');
    expect(ageSince(30, 1_000_000, 1_000_000)).toBe(30);
  });

  it('an unknown age stays unknown; a clock that went back adds nothing', () => {
    expect(ageSince(null, 0, 60_000)).toBeNull();
    expect(ageSince(30, 60_000, 0)).toBe(30);
  });
});
