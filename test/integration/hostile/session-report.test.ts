// `kvscope report` / `compare` on crafted session files, as a user runs them (the real CLI in a
// child process). Before the guard (electron/node/session/session-file-guard.ts) a `runs` view over
// a recursive CTE ran until killed (6 GB after 11 minutes, SIGTERM unanswered): runCli's timeout
// SIGKILLs such a child, and its null exit code fails the test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { TAMPERINGS, tamper, WRONG_TYPED_VALUES, writeSmallSession } from '../../helpers/hostile-session';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-hostile-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function craft(name: string, sql = TAMPERINGS[name] ?? ''): string {
  const path = join(dir, `${name.replace(/\W+/g, '-')}.kvscope`);
  writeSmallSession(path);
  tamper(path, sql);
  return path;
}

describe('crafted session files: one line on stderr and exit 1, or a report of what could be read; no hang', () => {
  it.each(['view as runs', 'recursive view as samples', 'trigger'])('report of a session with a %s', async (name) => {
    const path = craft(name);
    const r = await runCli(['report', path, '--format', 'md', '-o', join(dir, 'out.md')], { timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^kvscope report: .* is not a KVScope session as KVScope writes them: it contains a (?:view|trigger) .*\n$/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each(['html', 'md', 'csv', 'json', 'perfetto', 'prometheus'])(
    'report of a session with wrong-typed values as %s: written, the values left out or shown as text',
    async (format) => {
      const path = craft('wrong-typed values', WRONG_TYPED_VALUES);
      const out = join(dir, `wrong.${format}`);
      const r = await runCli(['report', path, '--format', format, '-o', out], { timeoutMs: 30_000 });
      expect(r.code).toBe(0);
      expect(r.stderr.startsWith(`kvscope report: ${format} report of 1 run(s) written to ${out}`)).toBe(true);
      const text = readFileSync(out, 'utf8');
      if (format === 'json' || format === 'perfetto') expect(() => JSON.parse(text) as unknown).not.toThrow();
      if (format === 'html') expect(text).toContain('&lt;b&gt;blob&lt;/b&gt;');
    },
  );

  it('compare with a crafted session on either side', async () => {
    const good = join(dir, 'good.kvscope');
    writeSmallSession(good);
    const bad = craft('view as runs');
    const r = await runCli(['compare', good, bad, '-o', join(dir, 'c.md')], { timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `kvscope compare: ${bad} is not a KVScope session as KVScope writes them: it contains a view ("runs") (a tampered file?)\n`,
    );
    const ok = await runCli(['report', good, '--format', 'md', '-o', join(dir, 'good.md')], { timeoutMs: 30_000 });
    expect(ok.code).toBe(0);
  });
});
