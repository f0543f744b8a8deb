// `kvscope web --open <file>` refuses what is not a session before serving anything.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-web-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kvscope web --open', () => {
  it('fails in one line, exit 2, for a missing file or a file that is not a session', async () => {
    const notSession = join(dir, 'notes.kvscope');
    writeFileSync(notSession, 'hello');
    for (const file of [join(dir, 'missing.kvscope'), notSession]) {
      const result = await runCli(['web', '--port', '0', '--open', file], { env: { KVSCOPE_HOME: dir } });
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(`kvscope web: --open ${file}: not a KVScope session file`);
      expect(result.stdout).toBe('');
    }
  });
});
