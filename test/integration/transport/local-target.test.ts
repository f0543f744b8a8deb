// "This computer" as a Target: reads files as the SSH target does (test/integration/ssh/ssh-target.test.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  // A model path typed as ~/models/x.gguf was opened as a "~" folder in the working directory.
  it("reads and writes a path starting with ~/ under this user's home ($HOME)", async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'models'), { recursive: true });
    writeFileSync(join(home, 'models', "it's x.gguf"), 'GGUF header');
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      expect((await target.readFile("~/models/it's x.gguf")).toString()).toBe('GGUF header');
      await target.writeFile('~/written.txt', 'from the app');
      expect(readFileSync(join(home, 'written.txt'), 'utf8')).toBe('from the app');
      // Only ~/ and ~ alone: ~user/… is a literal path.
      await expect(target.readFile('~nobody/models/x.gguf')).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      process.env.HOME = saved;
    }
  });
});
