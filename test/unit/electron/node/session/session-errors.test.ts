// The one line a session file's open error gives its user.
import { describe, expect, it } from 'vitest';
import {
  damagedFileText,
  describeCreateError,
  describeOpenError,
} from '../../../../../electron/node/session/session-errors';
import { createSession } from '../../../../../electron/node/session/session-store';

/** SQLite's error for a schema whose text a damaged page cut (the fuzz test's counterexample). */
const corrupt = Object.assign(new Error('malformed database schema (\nngine_log_by_run)'), { code: 'SQLITE_CORRUPT' });

describe('session open errors', () => {
  it('says a damaged file is damaged, on one line even when SQLite quotes schema text with a newline', () => {
    expect(damagedFileText('/s/a.kvscope', corrupt)).toBe(
      '/s/a.kvscope is damaged: cut short or partly overwritten (SQLite: malformed database schema ( ngine_log_by_run))',
    );
    expect(describeOpenError('/s/a.kvscope', corrupt).message).not.toMatch(/[\n\r]/);
  });

  it('is no damage for another error', () => {
    expect(damagedFileText('/s/a.kvscope', new Error('unable to open database file'))).toBeNull();
    expect(
      describeOpenError('/s/a.kvscope', Object.assign(new Error('unable\nto open'), { code: 'SQLITE_CANTOPEN' }))
        .message,
    ).toBe('cannot open /s/a.kvscope: unable to open');
  });

  it('says why a new session cannot be made where SQLite says only "unable to open database file"', () => {
    expect(() => createSession('/proc/kvscope-session-errors.kvscope', { appVersion: 'test' })).toThrow(
      'cannot create /proc/kvscope-session-errors.kvscope: its folder takes no new file (a file system such as /proc or /sys)',
    );
    // Any other error is an open error as before.
    expect(describeCreateError('/s/a.kvscope', corrupt).message).toBe(
      describeOpenError('/s/a.kvscope', corrupt).message,
    );
  });
});
