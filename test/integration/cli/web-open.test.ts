// `kvscope web --open <file>` refuses what is not a session before serving anything.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-web-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kvscope web --open', () => {
  const notSession = join(dir, 'notes.kvscope');
  writeFileSync(notSession, 'hello');
  it.each([
    ['a missing file', join(dir, 'missing.kvscope'), 'no such file'],
    ['a folder', dir, 'a folder, not a KVScope session file'],
    ['a file that is not a session', notSession, 'not a KVScope session file'],
  ])('fails in one line, exit 2, for %s, saying which', async (_what, file, reason) => {
    const result = await runCli(['web', '--port', '0', '--open', file], { env: { KVSCOPE_HOME: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`kvscope web: --open ${file}: ${reason}`);
    expect(result.stdout).toBe('');
  });
});
