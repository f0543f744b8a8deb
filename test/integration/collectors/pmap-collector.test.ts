// The pmap collector on this machine: its smaps table agrees with the real `pmap -x` (procps-ng)
// of the same process, both read by the one pmap parser; and in a real local run of the demo
// engine in growth mode, the largest anonymous mapping (its KV cache) grows with the tokens; and
// run by a real second local user against a root process, it says `denied` with what to do.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CollectorRecord } from '../../../shared/collectors/collector';
import { PMAP_DENIED_REASON, pmapCollector } from '../../../shared/collectors/pmap-collector';
import { createPmapParser } from '../../../shared/parsers/pmap-parser';
import type { PmapRecord } from '../../../shared/parsers/records';
import { readSession } from '../../../electron/node/session/session-store';
import { runCli } from '../../helpers/cli';
import { ensureKeyUser } from '../../helpers/sshd';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-pmap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Printed {
  collectors?: Record<string, { status: string; samples: number; diagnostics: number; reason?: string }>;
}

describe('the pmap collector', () => {
  it('its smaps table reads like the real pmap -x of the same process', () => {
    const script = join(dir, 'pmap.sh');
    writeFileSync(script, pmapCollector.script ?? '', { mode: 0o755 });
    // A process whose map does not change: node blocked on a sleep after allocating 32 MiB.
    const target = spawn(
      process.execPath,
      ['-e', 'globalThis.b = Buffer.alloc(32 << 20, 1); setTimeout(() => {}, 30000)'],
      {
        stdio: 'ignore',
      },
    );
    try {
      spawnSync('sleep', ['1']);
      const ours = spawnSync('timeout', ['1.5', 'sh', script, String(target.pid), '1'], { encoding: 'utf8' }).stdout;
      const real = spawnSync('pmap', ['-x', String(target.pid)], { encoding: 'utf8' }).stdout;
      const parser = pmapCollector.createParser();
      const records = ours
        .split('\n')
        .map((l) => parser.push(l))
        .filter((r): r is CollectorRecord => r !== null);
      expect(records[0]).toEqual({ kind: 'header' });
      const sample = records.find((r) => r.kind === 'sample');
      const p = createPmapParser();
      const pmap = [...real.split('\n').flatMap((l) => p.push(l)), ...p.end()].find(
        (r): r is PmapRecord => r.kind === 'pmap',
      );
      expect(pmap?.complete).toBe(true);
      expect(sample).toMatchObject({
        kind: 'sample',
        values: {
          'pmap.mappings': pmap?.mappings,
          'pmap.largestAnonBytes': (pmap?.largestAnonKb ?? 0) * 1024,
        },
      });
      expect(sample?.kind === 'sample' && sample.values['pmap.largestAnonBytes']).toBeGreaterThanOrEqual(32 << 20);
      expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
    } finally {
      target.kill('SIGKILL');
    }
  });

  it("the demo engine's largest anonymous mapping grows with its tokens in growth mode", async () => {
    const out = join(dir, 'pmap.kvscope');
    const r = await runCli([
      'profile',
      ...['local', '--demo', '--mode', 'growth', '--tokens', '1500', '--tps', '300', '--interval-ms', '200'],
      ...['--weights-mb', '8', '--pmap-interval-ms', '1000', '--no-perf', '--out', out, '--json'],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const status = (JSON.parse(r.stdout) as Printed).collectors?.pmap;
    expect(status).toMatchObject({ status: 'ok', diagnostics: 0 });
    const run = readSession(out).runs[0];
    const pmap = run?.samples.filter((s) => s.source === 'pmap') ?? [];
    expect(pmap.length).toBe(status?.samples);
    expect(pmap.length).toBeGreaterThanOrEqual(4);
    const largest = pmap.map((s) => s.values['pmap.largestAnonBytes'] ?? 0);
    // Never shrinks, and grows by megabytes over the run (the demo appends its KV cache).
    for (let i = 1; i < largest.length; i++) expect(largest[i]).toBeGreaterThanOrEqual(largest[i - 1] ?? 0);
    expect((largest.at(-1) ?? 0) - (largest[0] ?? 0)).toBeGreaterThan(4 << 20);
    for (const s of pmap) expect(s.values['pmap.mappings']).toBeGreaterThan(5);
  });

  it("another user's engine: denied, saying so and what to do, though pmap is installed (it reads the same smaps)", async () => {
    const user = await ensureKeyUser();
    const script = join(dir, 'pmap-other.sh');
    writeFileSync(script, pmapCollector.script ?? '', { mode: 0o755 });
    chmodSync(dir, 0o755);
    // A process of root's (this test runs as root, as CI does); the collector runs as the other user.
    const engine = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const ran = spawnSync('su', ['-s', '/bin/sh', user, '-c', `timeout 5 sh ${script} ${engine.pid} 1`], {
        encoding: 'utf8',
      });
      const said = ran.stdout.split('\n').filter((l) => l !== '');
      expect(said).toEqual([`! denied ${PMAP_DENIED_REASON.replace('<pid>', String(engine.pid))}`]);
      expect(pmapCollector.createParser().push(said[0] ?? '')).toEqual({
        kind: 'status',
        status: 'denied',
        reason: `/proc/${engine.pid}/smaps of the engine is not readable: it runs as another user; profile as that user or as root`,
      });
    } finally {
      engine.kill('SIGKILL');
    }
  });
});
