// "This computer" as a Target: reads files as the SSH target does (test/integration/ssh/ssh-target.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalTarget } from '../../../electron/node/transport/local-target';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-local-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const target = new LocalTarget();

describe('LocalTarget.readFile', () => {
  it('reads a whole file, a byte range, and from an offset to the end', async () => {
    const path = join(dir, 'blob');
    writeFileSync(path, 'abcdefghij');
    expect((await target.readFile(path)).toString()).toBe('abcdefghij');
    expect((await target.readFile(path, { offset: 2, length: 3 })).toString()).toBe('cde');
    expect((await target.readFile(path, { offset: 7 })).toString()).toBe('hij');
  });

  it('reads procfs files whose size is 0 to their end (a launcher check reads /proc/<pid>/stat)', async () => {
    const status = (await target.readFile(`/proc/${process.pid}/status`)).toString();
    expect(status).toMatch(new RegExp(`^Pid:\\s+${process.pid}$`, 'm'));
    expect(status).toMatch(/^VmRSS:\s+\d+ kB$/m);
    expect((await target.readFile('/proc/meminfo', { offset: 0, length: 9 })).toString()).toBe('MemTotal:');
  });
});
