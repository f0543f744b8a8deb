// The pmap collector on this machine: its smaps table agrees with the real `pmap -x` (procps-ng)
// of the same process, both read by the one pmap parser; and in a real local run of the demo
// engine in growth mode, the largest anonymous mapping (its KV cache) grows with the tokens; and
// run by a real second local user against a root process, it says `denied` with what to do.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  it('on a kernel without smaps it runs pmap -x itself each tick (in English whatever the login speaks), and ends with the engine', () => {
    // This kernel has smaps: the script's setup looks for another name, as on a kernel without
    // CONFIG_PROC_PAGE_MONITOR.
    const smaps = '"/proc/$P/smaps"';
    expect(pmapCollector.script?.split(smaps).length).toBe(3);
    const script = join(dir, 'pmap-nosmaps.sh');
    writeFileSync(script, (pmapCollector.script ?? '').replaceAll(smaps, '"/proc/$P/no-smaps-here"'));
    // Not our child (which would stay a zombie while spawnSync blocks this process): a shell's, reaped by init.
    const engine = `${process.execPath} -e 'globalThis.b = Buffer.alloc(32 << 20, 1); setTimeout(() => {}, 1400)'`;
    const pid = Number(spawnSync('sh', ['-c', `${engine} >/dev/null 2>&1 & echo $!`], { encoding: 'utf8' }).stdout);
    try {
      spawnSync('sleep', ['0.3']);
      // A German login: procps-ng's own translation (`Adresse kByte RSS Dirty Modus Zuordnung`, `kB
      // gesamt`), which this machine has (LANGUAGE is honoured outside the plain C locale).
      const german = { ...process.env, LC_ALL: 'C.UTF-8', LANGUAGE: 'de' };
      expect(spawnSync('pmap', ['-x', String(pid)], { env: german, encoding: 'utf8' }).stdout).toMatch(/^Adresse\s/m);
      const ran = spawnSync('timeout', ['5', 'sh', script, String(pid), '0.4'], { env: german, encoding: 'utf8' });
      // Ended by itself once the engine was gone, before the timeout.
      expect(ran.status).toBe(0);
      const parser = pmapCollector.createParser();
      const records = [...ran.stdout.split('\n').map((l) => parser.push(l)), ...parser.end()].filter(
        (r): r is CollectorRecord => r !== null,
      );
      expect(ran.stdout.split('\n')[0]).toBe('H v=1 source=pmap');
      expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
      const samples = records.filter((r) => r.kind === 'sample');
      expect(samples.length).toBeGreaterThanOrEqual(2);
      // The last may be of node tearing its heap down on the way out (its buffer unmapped, its map not yet gone).
      for (const s of samples.slice(0, -1))
        expect(s.kind === 'sample' && s.values['pmap.largestAnonBytes']).toBeGreaterThanOrEqual(32 << 20);
    } finally {
      spawnSync('kill', ['-9', String(pid)]);
    }
  });

  it('an unchanged map is walked once: the ticks after are one `same` line each, read as the table again, until statm changes', async () => {
    const script = join(dir, 'pmap-unchanged.sh');
    writeFileSync(script, pmapCollector.script ?? '', { mode: 0o755 });
    // 16 MiB at once, then idle; 8 MiB more 3 s later, then idle again (perl: nothing moves its
    // memory meanwhile, as a runtime's collector would).
    const target = spawn('perl', ['-e', '$a = "x" x (16 << 20); sleep 3; $b = "y" x (8 << 20); sleep 30'], {
      stdio: 'ignore',
    });
    // Bytes the collector's awk has read (its /proc/<pid>/io): one smaps read of node is ~100 KB.
    const awkReadBytes = (shPid: number): number => {
      const awk = readdirSync('/proc')
        .filter((e) => /^\d+$/.test(e))
        .find((e) => {
          try {
            const stat = readFileSync(`/proc/${e}/stat`, 'utf8')
              .replace(/^.*\) /s, '')
              .split(' ');
            return Number(stat[1]) === shPid && /awk/.test(readFileSync(`/proc/${e}/comm`, 'utf8'));
          } catch {
            return false; // gone meanwhile
          }
        });
      const io = awk ? readFileSync(`/proc/${awk}/io`, 'utf8') : '';
      return Number(/^rchar: (\d+)/m.exec(io)?.[1] ?? NaN);
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const start = (unchangedEvery: string) => {
      const child = spawn('sh', [script, String(target.pid), '0.1', unchangedEvery], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const run = { child, out: '' };
      child.stdout.on('data', (d: Buffer) => (run.out += d.toString()));
      return run;
    };
    const read = (out: string) => {
      const parser = pmapCollector.createParser();
      return [...out.split('\n').map((l) => parser.push(l)), ...parser.end()].filter(
        (r): r is CollectorRecord => r !== null,
      );
    };
    const samples = (records: CollectorRecord[]) =>
      records.filter((r): r is Extract<CollectorRecord, { kind: 'sample' }> => r.kind === 'sample');
    try {
      // Perl has built its 16 MiB once statm holds still (a loaded machine may take a while).
      const statm = () => readFileSync(`/proc/${target.pid}/statm`, 'utf8');
      for (let last = '', i = 0; i < 50 && (last === '' || last !== statm()); i++) {
        last = statm();
        await sleep(100);
      }
      const smapsBytes = readFileSync(`/proc/${target.pid}/smaps`).length;
      // Re-walk an unchanged map only every 1000 ticks: about 10 ticks, one walk.
      const sparing = start('1000');
      await sleep(1200);
      expect(awkReadBytes(sparing.child.pid!)).toBeLessThan(3 * smapsBytes);
      // The 8 MiB come at 3 s: the next tick sees statm change and walks.
      await sleep(2600);
      sparing.child.kill('SIGTERM');
      // Two tables (the first walk, the walk after the change; a third when a tick caught perl
      // half-way through its 8 MiB on a loaded machine); every other tick is one line.
      const lines = sparing.out.split('\n').filter((l) => l !== '');
      const ticks = lines.filter((l) => l.startsWith('t='));
      expect(ticks.length).toBeGreaterThanOrEqual(20);
      const tables = lines.filter((l) => l.startsWith('total kB')).length;
      expect(tables === 2 || tables === 3, `${tables} tables`).toBe(true);
      expect(ticks.filter((l) => /^t=[\d.]+ same$/.test(l))).toHaveLength(ticks.length - tables);
      const records = read(sparing.out);
      expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
      const said = samples(records);
      expect(said).toHaveLength(ticks.length);
      const distinct = [...new Set(said.map((s) => JSON.stringify(s.values)))];
      expect(distinct).toHaveLength(tables);
      expect(said.findIndex((s) => JSON.stringify(s.values) === distinct[1])).toBeGreaterThan(5);
      const anon = (s: string) => (JSON.parse(s) as Record<string, number>)['pmap.anonBytes'] ?? 0;
      expect(anon(distinct.at(-1)!) - anon(distinct[0]!)).toBeGreaterThanOrEqual(8 << 20);
      // Walking at every tick (0): ~10 smaps reads in the same time, and each walk reads what the
      // "same" lines said (the map has not changed since).
      const walking = start('0');
      await sleep(1200);
      expect(awkReadBytes(walking.child.pid!)).toBeGreaterThan(6 * smapsBytes);
      walking.child.kill('SIGTERM');
      const walked = samples(read(walking.out));
      expect(walking.out).not.toContain(' same');
      expect(walked.length).toBeGreaterThanOrEqual(5);
      for (const s of walked) expect(JSON.stringify(s.values)).toBe(distinct.at(-1));
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
    // While the engine generates (up to its last token): an engine that ends frees its memory
    // before it exits, and a tick of a loaded machine can land in between (it did in CI).
    const lastTokenMs = run?.samples.filter((s) => s.source === 'engine').at(-1)?.tMs ?? 0;
    const generating = pmap.filter((s) => s.tMs <= lastTokenMs);
    expect(generating.length).toBeGreaterThanOrEqual(4);
    const largest = generating.map((s) => s.values['pmap.largestAnonBytes'] ?? 0);
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
