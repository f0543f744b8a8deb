// `profile --out` and `import --out` naming an existing session: it was deleted and replaced in
// silence, someone's hours of measurement gone. Now the old one is kept as <name>.<n><ext> and the
// command still succeeds (scripts re-run with the same --out), and a profile that records nothing
// leaves --out as it was (electron/node/session/session-backup.ts). Real CLI, real SQLite; needs
// `npm run build` (the demo engine bundle).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { FAST_DEMO_ARGS, projectRoot, runCli } from '../../helpers/cli';
import { freePort } from '../../helpers/sshd';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-out-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

/** The run ids stored in a session file. */
const runIds = (file: string) => readSession(file).runs.map((r) => r.id);

async function profileDemo(out: string, target = 'local') {
  return runCli(['profile', target, '--demo', '--tokens', '20', ...FAST_DEMO_ARGS, '--out', out]);
}

describe('profile --out over an existing session', () => {
  it('keeps each earlier session as run.1.kvscope, run.2.kvscope … and says so; the newest is at --out', async () => {
    const ids: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const r = await profileDemo(at('run.kvscope'));
      expect(r.code, r.stderr).toBe(0);
      const kept =
        i === 0
          ? []
          : [`kvscope profile: the session that was at ${at('run.kvscope')} is kept as ${at(`run.${i}.kvscope`)}`];
      expect(r.stderr.split('\n').filter((l) => l.includes(' is kept as '))).toEqual(kept);
      ids.push(runIds(at('run.kvscope')));
    }
    expect(runIds(at('run.1.kvscope'))).toEqual(ids[0]);
    expect(runIds(at('run.2.kvscope'))).toEqual(ids[1]);
    expect(runIds(at('run.kvscope'))).toEqual(ids[2]);
    expect(new Set(ids.flat()).size).toBe(3);
    // The -wal and -shm of each old session were folded into it (SQLite's own close), not left beside it.
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('run.'))
        .sort(),
    ).toEqual(['run.1.kvscope', 'run.2.kvscope', 'run.kvscope']);
  });

  it('a profile that records nothing (unreachable board) leaves --out byte for byte as it was, with no backup', async () => {
    const first = await profileDemo(at('kept.kvscope'));
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(at('kept.kvscope'));
    const port = await freePort();
    const r = await profileDemo(at('kept.kvscope'), `nobody@127.0.0.1:${port}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`kvscope profile: nothing recorded: ${at('kept.kvscope')} is left as it was\n`);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^kvscope profile: cannot reach host /);
    expect(readFileSync(at('kept.kvscope')).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith('kept.'))).toEqual(['kept.kvscope']);
  });
});

describe('import --out over an existing session', () => {
  const log = join(projectRoot, 'test/fixtures/tegrastats/agx-orin-64gb-jp5/agx_orin_64gb_jp5_gdwr_issue14.txt');

  it('keeps the earlier session as board.1.kvscope, in the --json document and on stderr', async () => {
    const first = await runCli(['import', 'tegrastats', log, '--out', at('board.kvscope'), '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).not.toHaveProperty('previousSessionKeptAs');
    const firstLabel = readSession(at('board.kvscope')).runs[0]?.label;
    const again = await runCli(['import', 'tegrastats', log, '--out', at('board.kvscope'), '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ previousSessionKeptAs: at('board.1.kvscope') });
    expect(again.stderr).toContain(
      `kvscope import: the session that was at ${at('board.kvscope')} is kept as ${at('board.1.kvscope')}\n`,
    );
    expect(readSession(at('board.1.kvscope')).runs.map((r) => r.label)).toEqual([firstLabel]);
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('board.'))
        .sort(),
    ).toEqual(['board.1.kvscope', 'board.kvscope']);
  });
});
