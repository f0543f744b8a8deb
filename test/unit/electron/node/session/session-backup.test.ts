// The name a session kept aside takes (session-backup.ts nextBackupPath): one above the highest
// backup next to it, so the highest is always the newest, whatever the user deleted in between.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nextBackupPath } from '../../../../../electron/node/session/session-backup';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('nextBackupPath', () => {
  it.each([
    ['no backup yet', 'run.kvscope', [], 'run.1.kvscope'],
    ['after run.1', 'run.kvscope', ['run.kvscope', 'run.1.kvscope'], 'run.2.kvscope'],
    ['a gap is not reused (run.1 deleted)', 'run.kvscope', ['run.2.kvscope'], 'run.3.kvscope'],
    ['a -wal left alone counts', 'run.kvscope', ['run.4.kvscope-wal'], 'run.5.kvscope'],
    [
      'other stems and extensions do not count',
      'run.kvscope',
      ['run2.1.kvscope', 'run.7.db', 'xrun.8.kvscope'],
      'run.1.kvscope',
    ],
    ['a name without extension', 'board', ['board', 'board.1'], 'board.2'],
    [
      'dots and brackets in the name are literal',
      'a.b[1].kvscope',
      ['a.b[1].3.kvscope', 'aXb[1].9.kvscope'],
      'a.b[1].4.kvscope',
    ],
  ])('%s', (_what, name, present, expected) => {
    dir = mkdtempSync(join(tmpdir(), 'kvscope-backup-'));
    for (const f of present) writeFileSync(join(dir, f), '');
    expect(nextBackupPath(join(dir, name))).toBe(join(dir, expected));
  });
});
