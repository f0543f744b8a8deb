// The perf collector with the real perf of this VM (perf 6.1, no hardware counters: a KVM guest
// without PMU passthrough; kernel.perf_event_paranoid=2): a real local run of the demo engine
// counts its software events, says which hardware events are not supported, and stores the
// series; its script says denied (with how to enable) for a user perf may not serve, and absent
// where perf is not installed.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { perTokenSummary } from '../../../shared/analysis/per-token';
import { seriesOfSamples } from '../../../shared/analysis/time-series';
import { PERF_DEFAULT_EVENTS, PERF_ENABLE_HOW, perfCollector } from '../../../shared/collectors/perf-collector';
import { readSession } from '../../../electron/node/session/session-store';
import { runCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-perf-'));
const script = join(dir, 'perf.sh');
writeFileSync(script, perfCollector.script ?? '', { mode: 0o755 });
chmodSync(dir, 0o755); // readable by the unprivileged user the denied case runs it as
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DEMO = ['local', '--demo', '--tokens', '1200', '--tps', '300', '--interval-ms', '100', '--weights-mb', '8'];
const HARDWARE = PERF_DEFAULT_EVENTS.slice(0, 6);

interface Printed {
  collectors?: Record<string, { status: string; samples: number; diagnostics: number; reason?: string }>;
}

/** Runs the collector's script against a live process (a sleeping child) and returns its stdout. */
function runScript(env: NodeJS.ProcessEnv, asNobody: boolean): string {
  const target = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const args = [script, String(target.pid), '1', '1000', PERF_DEFAULT_EVENTS.join(',')];
    const cmd = asNobody
      ? ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '/bin/sh', ...args]
      : ['/bin/sh', ...args];
    const r = spawnSync(cmd[0] ?? '/bin/sh', cmd.slice(1), { env, encoding: 'utf8', timeout: 20_000 });
    if (r.error) throw r.error;
    return r.stdout;
  } finally {
    target.kill('SIGKILL');
  }
}

describe('the perf collector with real perf', () => {
  it('counts the demo engine: software events as series, hardware events reported not supported', async () => {
    const out = join(dir, 'perf.kvscope');
    const r = await runCli(['profile', ...DEMO, '--perf-interval-ms', '500', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const status = (JSON.parse(r.stdout) as Printed).collectors?.perf;
    expect(status?.status).toBe('ok');
    expect(status?.diagnostics).toBe(0);
    expect(status?.reason).toBe(`not supported on this target, left out: ${HARDWARE.join(', ')}`);

    const run = readSession(out).runs[0];
    const perf = run?.samples.filter((s) => s.source === 'perf') ?? [];
    expect(perf.length).toBe(status?.samples);
    // 1200 tokens at 300 tokens/s: about 4 s of decode, counted every 0.5 s.
    expect(perf.length).toBeGreaterThanOrEqual(6);
    for (const s of perf) {
      expect(Object.keys(s.values).sort()).toEqual(['perf.context-switches', 'perf.page-faults', 'perf.task-clockUs']);
    }
    const num = (v: number | null | undefined) => (typeof v === 'number' ? v : 0);
    const faults = perf.reduce((a, s) => a + num(s.values['perf.page-faults']), 0);
    const cpuUs = perf.reduce((a, s) => a + num(s.values['perf.task-clockUs']), 0);
    const durationUs = ((perf.at(-1)?.tMs ?? 0) - (perf[0]?.tMs ?? 0) + 500) * 1000;
    expect(cpuUs).toBeGreaterThan(0);
    expect(cpuUs).toBeLessThanOrEqual(durationUs * 2); // two cores at most
    // The demo appends its KV cache: each page first touched is a page fault, so the faults cover
    // the anonymous memory the engine grew by (4 KiB pages; some of it touched before perf began).
    const rss = run?.samples.filter((s) => s.source === 'procfs' && typeof s.values.rssAnonBytes === 'number') ?? [];
    // To the peak: the last sample may catch the engine already freeing its buffers on the way out.
    const anon = rss.map((s) => num(s.values.rssAnonBytes));
    const grownBytes = Math.max(...anon) - (anon[0] ?? 0);
    expect(grownBytes).toBeGreaterThan(4 << 20);
    expect(faults * 4096).toBeGreaterThan(grownBytes * 0.5);
    // Faults keep coming while tokens are generated, not only at start-up.
    const busy = perf.slice(2, -1).filter((s) => num(s.values['perf.page-faults']) > 100);
    expect(busy.length).toBeGreaterThanOrEqual(3);

    const series = seriesOfSamples(run?.samples ?? []);
    const summary = perTokenSummary((k) => series.get(k), [...series.keys()]);
    expect(summary?.tokens).toBeGreaterThan(600);
    expect(summary?.perToken.find((c) => c.key === 'perf.page-faults')?.perToken).toBeGreaterThan(0);
    // Software events only on this VM: no cycles, no IPC.
    expect(summary?.ipc).toEqual([]);

    await runCli(['report', out, '--format', 'csv', '-o', join(dir, 'samples.csv')]);
    const header = readFileSync(join(dir, 'samples.csv'), 'utf8').split('\r\n')[0]?.split(',') ?? [];
    expect(header).toEqual(expect.arrayContaining(['perf.page-faults', 'perf.task-clockUs', 'perf.context-switches']));
  });

  it("writes each interval's counts in one write(2), not one a field: one wake of the tagging awk a second", () => {
    const target = spawn('sleep', ['30'], { stdio: 'ignore' });
    const trace = join(dir, 'perf-writes.strace');
    try {
      const events = 'task-clock,page-faults,context-switches';
      const r = spawnSync(
        'strace',
        [
          '-f',
          '-s',
          '4096',
          '-e',
          'trace=write',
          '-o',
          trace,
          '/bin/sh',
          script,
          String(target.pid),
          '0.2',
          '200',
          events,
        ],
        { encoding: 'utf8', timeout: 2500 },
      );
      const intervals = r.stdout.split('\n').filter((l) => /^ *\d+\.\d+,.*,task-clock,/.test(l));
      expect(intervals.length).toBeGreaterThanOrEqual(3);
      // perf's writes to its stdout (the script's: fd 1 after `exec … 2>&1`) of a count.
      const writes = readFileSync(trace, 'utf8')
        .split('\n')
        .filter((l) => /write\(1, " *\d+\.\d+,/.test(l));
      // One a printed interval; strace may log one more, the write the timeout cut short.
      expect(writes.length - intervals.length).toBeGreaterThanOrEqual(0);
      expect(writes.length - intervals.length).toBeLessThanOrEqual(1);
      for (const w of writes) expect(w).toMatch(/task-clock.*\\n.*page-faults.*\\n.*context-switches/);
    } finally {
      target.kill('SIGKILL');
    }
  });

  it("denied for a user perf_event_paranoid keeps off another user's process, with how to enable it", () => {
    const paranoid = Number(readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8'));
    expect(paranoid).toBe(2); // this VM's setting, which the expected line below is about
    expect(runScript(process.env, true)).toMatch(
      new RegExp(
        `^! denied kernel\\.perf_event_paranoid=2: perf may not watch another user's process \\(pid \\d+\\); ${PERF_ENABLE_HOW.replace(/[().]/g, '\\$&')}\\n$`,
      ),
    );
  });

  it('absent where perf is not installed', () => {
    // A PATH with the shell's usual tools but no perf.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['uname', 'id', 'tr', 'cut', 'sleep']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const kernel = spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
    expect(runScript({ PATH: bin }, false)).toBe(
      `! absent perf is not installed (Debian: linux-perf; Ubuntu: linux-tools-${kernel})\n`,
    );
  });

  it("runs perf under LC_ALL=C whatever the user's locale (a de_DE perf writes `-x,` CSV with decimal commas)", () => {
    // A perf on PATH that only writes down the locale it was started with: the script's support check
    // runs it, finds no event counted and stops.
    const bin = join(dir, 'bin-locale');
    const seen = join(dir, 'perf-locale.txt');
    mkdirSync(bin);
    for (const tool of ['uname', 'id', 'tr', 'cut', 'sleep']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    writeFileSync(join(bin, 'perf'), `#!/bin/sh\necho "LC_ALL=$LC_ALL LANG=$LANG" >> '${seen}'\n`, { mode: 0o755 });
    const out = runScript({ PATH: bin, LC_ALL: 'de_DE.UTF-8', LANG: 'de_DE.UTF-8' }, false);
    expect(out).toMatch(/^! absent perf counts none of /);
    const lines = readFileSync(seen, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set(['LC_ALL=C LANG=de_DE.UTF-8']));
  });

  it('keeps the events a perf older than 3.14 counts (its CSV has no unit field: `value,event`)', () => {
    // A perf 3.10 stand-in (Jetson TX1 L4T R24's kernel): the shape its -x, prints, written from that
    // version's print code; the interval run prints one interval and ends.
    const bin = join(dir, 'bin-perf3');
    mkdirSync(bin);
    for (const tool of ['uname', 'id', 'tr', 'cut', 'sleep']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const perf3 = [
      '#!/bin/sh',
      'case "$*" in',
      '  *-I*) echo "     1.000123456,1234567,cycles" >&2; echo "     1.000123456,<not supported>,LLC-load-misses" >&2;;',
      '  *) echo "1234567,cycles" >&2; echo "<not supported>,LLC-load-misses" >&2; echo "<not counted>,instructions" >&2;;',
      'esac',
    ].join('\n');
    writeFileSync(join(bin, 'perf'), `${perf3}\n`, { mode: 0o755 });
    const lines = runScript({ PATH: bin }, false).split('\n');
    expect(lines[0]).toMatch(/^H v=1 t0=\d+(\.\d+)? events=cycles,instructions dropped=cache-references,/);
    expect(lines.slice(1)).toEqual([
      '     1.000123456,1234567,cycles',
      '     1.000123456,<not supported>,LLC-load-misses',
      '',
    ]);
  });

  it('the probe facts rule it out before the run where perf is missing or does not run', () => {
    expect(
      perfCollector.unavailable?.({ perf: { path: null, version: null, usable: null, eventParanoid: 2 } }),
    ).toEqual({
      status: 'absent',
      reason: 'perf is not installed (Debian: linux-perf; Ubuntu: linux-tools-<kernel>)',
    });
    expect(
      perfCollector.unavailable?.({ perf: { path: '/usr/bin/perf', version: null, usable: false, eventParanoid: 2 } }),
    ).toMatchObject({ status: 'absent' });
    expect(
      perfCollector.unavailable?.({ perf: { path: '/usr/bin/perf', version: '6.1', usable: true, eventParanoid: 2 } }),
    ).toBeNull();
  });
});
