// The procfs sampler script run for real, on this machine's kernel, under the shells and awks
// boards have: dash + mawk with the no-fork ticker (perl or bash; Debian/Ubuntu/L4T), and busybox sh +
// busybox awk with no bash at all (Yocto/Buildroot gateways).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { procfsSamplerScript } from '../../../shared/collectors/procfs-sampler-script';
import { createProcfsSamplerParser, type SamplerRecord } from '../../../shared/collectors/procfs-sampler-parser';
import { defined } from '../../helpers/defined';

const MIB = 1024 * 1024;
let dir: string;
let watched: ChildProcess;

function statusKb(pid: number, key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${key} in status`);
  return Number(m[1]);
}

/** Waits (up to 10 s) until the process's statm reads the same twice 0.3 s apart, with at least `minRss` resident. */
async function statmSettled(pid: number, minRss: number): Promise<void> {
  const pageSize = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim());
  let last = '';
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    const now = readFileSync(`/proc/${pid}/statm`, 'utf8');
    if (now === last && Number(now.split(' ')[1]) * pageSize >= minRss) return;
    last = now;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the memory of ${pid} did not settle in 10 s`);
}

/**
 * Two perl processes for `body`: one holding 16 MiB still (its statm settled first: its 16 MiB
 * filled, perl's temporary copy freed; a fixed 0.2 s was not enough on a loaded VM), one growing
 * by 1 MiB every 50 ms; both killed after.
 */
async function withStillAndGrowing(body: (still: ChildProcess, growing: ChildProcess) => Promise<void>): Promise<void> {
  const perl = (code: string) => spawn('perl', ['-e', code], { stdio: 'ignore' });
  const still = perl('$a = "x" x (16 << 20); sleep 30');
  const growing = perl('my @a; while (1) { push @a, "x" x (1 << 20); select(undef, undef, undef, 0.05) }');
  try {
    await statmSettled(still.pid!, 16 * MIB);
    await body(still, growing);
  } finally {
    still.kill('SIGKILL');
    growing.kill('SIGKILL');
  }
}

async function sample(
  shell: string,
  env: NodeJS.ProcessEnv,
  pid: number,
  ticks: number,
  rescans: string[] = [],
  script: string | string[] = 'sampler.sh',
  intervalS = '0.1',
  /** Told the count of samples so far at each one, as it arrives. */
  onSample?: (count: number) => void,
): Promise<{ records: SamplerRecord[]; lines: string[]; exit: number | null }> {
  // `script`: the script's file in `dir`, or the whole command line before its arguments (a tracer's).
  const command = typeof script === 'string' ? [join(dir, script)] : script;
  const child = spawn(shell, [...command, String(pid), intervalS, '2', ...rescans], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const parser = createProcfsSamplerParser();
  const records: SamplerRecord[] = [];
  const lines: string[] = [];
  let buf = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        lines.push(buf.slice(0, nl));
        const r = parser.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (r) records.push(r);
        const count = records.filter((x) => x.kind === 'sample').length;
        if (r?.kind === 'sample') onSample?.(count);
        if (count >= ticks) resolve();
      }
    });
    child.on('close', () => resolve());
  });
  // The sampler is a pipeline (ticker | awk): end its whole process group, as the launcher does.
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  const exit = await new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.on('close', (c) => r(c)),
  );
  if (records.length === 0) throw new Error(`sampler printed nothing; stderr: ${stderr}`);
  return { records, lines, exit };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kvscope-sampler-'));
  writeFileSync(join(dir, 'sampler.sh'), procfsSamplerScript());
  // A process with 64 MiB of touched anonymous memory, idle afterwards.
  watched = spawn(
    process.execPath,
    ['-e', 'globalThis.b = Buffer.alloc(64 * 1024 * 1024, 7); console.log("ready"); setInterval(() => {}, 1000)'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((r) => watched.stdout!.once('data', () => r()));
});

afterAll(() => {
  watched.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('procfs sampler on this kernel', () => {
  it('dash + mawk (ticks from perl where installed): one line per tick with RSS matching /proc/<pid>/status', async () => {
    const { records } = await sample('/bin/dash', process.env, watched.pid!, 5);
    const header = records.find((r) => r.kind === 'header');
    expect(header).toMatchObject({
      kind: 'header',
      header: { pid: watched.pid, pageSizeBytes: Number(execFileSync('getconf', ['PAGESIZE']).toString()) },
    });
    const samples = records.filter((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
    expect(samples.length).toBeGreaterThanOrEqual(5);
    const anonKb = statusKb(watched.pid!, 'RssAnon');
    const last = defined(samples.at(-1), 'the last sample').values;
    expect(Math.abs((last.rssAnonBytes as number) - anonKb * 1024)).toBeLessThan(2 * MIB);
    expect(last.rssAnonBytes as number).toBeGreaterThan(64 * MIB);
    expect(last.memTotalBytes).toBe(statusKbFromMeminfo('MemTotal') * 1024);
    // Ticks 100 ms apart on the target's clock (10 ms resolution), in order. The ticker aims at
    // absolute deadlines, so one gap may be short after a late read (CI saw 80 ms under load), but
    // n gaps span at least n - 1 ticks (a late first read costs at most one), less the resolution.
    const gaps = samples.slice(1).map((s, i) => s.uptimeMs - defined(samples[i]).uptimeMs);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(0);
    const span = defined(samples.at(-1)).uptimeMs - defined(samples[0]).uptimeMs;
    expect(span).toBeGreaterThanOrEqual((gaps.length - 1) * 100 - 10);
    // smaps_rollup is read every 2nd tick here ($3 = 2): PSS present on alternate lines.
    expect(samples.filter((s) => 'pssBytes' in s.values).length).toBeGreaterThanOrEqual(2);
    expect(samples.filter((s) => !('pssBytes' in s.values)).length).toBeGreaterThanOrEqual(2);
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
  });

  it('smaps_rollup ($3 = every 2nd tick): read once while statm stays the same ($6 = 1000), every 2nd tick while memory grows', async () => {
    await withStillAndGrowing(async (still, growing) => {
      // Each tick's statm and whether it read PSS, from the sampler's own lines.
      const pssTicks = async (pid: number) => {
        const { lines } = await sample('/bin/dash', process.env, pid, 8, ['1', '1', '1000']);
        return lines
          .filter((l) => l.startsWith('S ') && !l.includes('gone=1'))
          .map((l) => ({ st: /\bst=(\S+)/.exec(l)?.[1] ?? '', pss: / pss=\d/.test(l) }));
      };
      // The rule with $3 = 2, $6 = 1000: PSS at every 2nd tick whose statm differs from the statm at
      // the last read (the first included), at no other (the window is far shorter than 1000 ticks).
      const readsAsRuled = (ticks: { st: string; pss: boolean }[]) => {
        let walked: string | null = null;
        return ticks.map((t, i) => {
          const want = i % 2 === 0 && (walked === null || t.st !== walked);
          if (t.pss) walked = t.st;
          return t.pss === want;
        });
      };
      const stillTicks = await pssTicks(still.pid!);
      expect(stillTicks.length).toBeGreaterThanOrEqual(8);
      expect(readsAsRuled(stillTicks)).not.toContain(false);
      // Read once, or twice when the kernel moved a page of the idle process meanwhile (reclaim of
      // its cold file pages changes its resident count): never at every tick.
      expect(stillTicks.filter((t) => t.pss).length).toBeLessThanOrEqual(2);
      expect(stillTicks[0]?.pss).toBe(true);
      // The growing one: read again at each 2nd tick its statm changed (a loaded machine may leave
      // perl unscheduled for a tick or two, so not necessarily at each).
      const growingTicks = await pssTicks(growing.pid!);
      expect(readsAsRuled(growingTicks)).not.toContain(false);
      expect(growingTicks.filter((t) => t.pss).length).toBeGreaterThanOrEqual(2);
    });
  });

  it('status is read again only when statm changed since its last read ($6 = 1000), its counters carried on the ticks between', async () => {
    await withStillAndGrowing(async (still, growing) => {
      const traced = async (pid: number) => {
        const trace = join(dir, `status-${pid}.strace`);
        const command = ['-f', '-e', 'trace=openat', '-o', trace, '/bin/dash', join(dir, 'sampler.sh')];
        const { lines } = await sample('strace', process.env, pid, 8, ['1', '1', '1000'], command);
        const ticks = lines.filter((l) => l.startsWith('S ') && !l.includes('gone=1'));
        const opens = readFileSync(trace, 'utf8')
          .split('\n')
          .filter((l) => l.includes(`openat(AT_FDCWD, "/proc/${pid}/status"`)).length;
        const st = ticks.map((l) => /\bst=(\S+)/.exec(l)?.[1] ?? '');
        // The rule: a read at the first tick and at each tick whose statm differs from the one before.
        const ruled = st.filter((v, i) => i === 0 || v !== st[i - 1]).length;
        return { ticks, opens, ruled };
      };
      const idle = await traced(still.pid!);
      expect(idle.ticks.length).toBeGreaterThanOrEqual(8);
      // At most one more: a tick cut short by the end of the sample, after its read.
      expect(idle.opens - idle.ruled).toBeGreaterThanOrEqual(0);
      expect(idle.opens - idle.ruled).toBeLessThanOrEqual(1);
      expect(idle.opens).toBeLessThan(idle.ticks.length / 2);
      // Every tick still carries the counters, the same as at the read.
      const counters = (l: string) => / rss=\d+ anon=\d+ file=\d+ shmem=\d+ swap=\d* hwm=\d+ thr=\d+/.exec(l)?.[0];
      expect(new Set(idle.ticks.map(counters)).size).toBeLessThanOrEqual(idle.ruled);
      expect(idle.ticks.every((l) => counters(l) !== undefined)).toBe(true);
      const busy = await traced(growing.pid!);
      expect(busy.opens - busy.ruled).toBeGreaterThanOrEqual(0);
      expect(busy.opens - busy.ruled).toBeLessThanOrEqual(1);
      expect(busy.ruled).toBeGreaterThanOrEqual(3);
    });
  });

  it("reads each cpufreq policy's clock and its cap (scaling_max_freq), a policy without a readable cap having none", async () => {
    // This VM has no cpufreq: the script's policy glob pointed at a tree of three policies, as an
    // RK3588 lists them (values in kHz as cpufreq prints them; policy6's cap left out).
    const root = join(dir, 'cpufreq');
    const policy = (name: string, files: Record<string, string>) => {
      mkdirSync(join(root, name), { recursive: true });
      for (const [f, v] of Object.entries(files)) writeFileSync(join(root, name, f), `${v}\n`);
    };
    policy('policy0', { scaling_cur_freq: '408000', scaling_max_freq: '1800000' });
    policy('policy4', { scaling_cur_freq: '1200000', scaling_max_freq: '1200000' });
    policy('policy6', { scaling_cur_freq: '2400000' });
    const script = procfsSamplerScript().replace('/sys/devices/system/cpu/cpufreq/policy*', `${root}/policy*`);
    expect(script).toContain(root);
    writeFileSync(join(dir, 'sampler-cpufreq.sh'), script);
    const { records } = await sample('/bin/dash', process.env, watched.pid!, 2, [], 'sampler-cpufreq.sh');
    const s = records.find((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
    expect(s?.values).toMatchObject({
      'cpufreq.policy0.KHz': 408_000,
      'cpufreq.policy0.max.KHz': 1_800_000,
      'cpufreq.policy4.KHz': 1_200_000,
      'cpufreq.policy4.max.KHz': 1_200_000,
      'cpufreq.policy6.KHz': 2_400_000,
    });
    expect(s?.values).not.toHaveProperty('cpufreq.policy6.max.KHz');
  });

  it("reads a policy's cap again at the tick its clock moved, else every N-th tick, the last reading carried between", async () => {
    // A tree as KVSCOPE_SYSFS_ROOT (where the sampler looks for /sys), one policy at 408 MHz capped
    // at 1.8 GHz; 0.2 s ticks, the 5th argument how often the cap is read while the clock stays.
    const root = join(dir, 'caps-root');
    const pol = join(root, 'sys/devices/system/cpu/cpufreq/policy0');
    const put = (file: string, kHz: number) => writeFileSync(join(pol, file), `${kHz}\n`);
    const run = async (capEvery: string, change: (count: number) => void) => {
      mkdirSync(pol, { recursive: true });
      put('scaling_cur_freq', 408_000);
      put('scaling_max_freq', 1_800_000);
      const env = { ...process.env, KVSCOPE_SYSFS_ROOT: root };
      const { records } = await sample(
        '/bin/dash',
        env,
        watched.pid!,
        12,
        ['1', '1000', '0', capEvery],
        'sampler.sh',
        '0.2',
        change,
      );
      const got = records.filter((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
      return {
        clock: got.map((s) => s.values['cpufreq.policy0.KHz']),
        cap: got.map((s) => s.values['cpufreq.policy0.max.KHz']),
      };
    };
    // Every 3rd tick: a cap lowered above the clock (it holds nothing back) shows at a 3rd tick.
    const every3 = await run('3', (count) => count === 1 && put('scaling_max_freq', 1_200_000));
    const lowered = every3.cap.indexOf(1_200_000);
    expect(lowered).toBeGreaterThanOrEqual(3);
    expect(lowered % 3).toBe(0);
    expect(every3.cap.slice(0, lowered).every((c) => c === 1_800_000)).toBe(true);
    expect(every3.cap.slice(lowered).every((c) => c === 1_200_000)).toBe(true);
    // Every 1000th: the same change is never read while the clock stays; a cap lowered below the
    // clock, which moves the clock (the cap written first, as cpufreq changes them), is read at
    // the tick the clock moved.
    const every1000 = await run('1000', (count) => {
      if (count === 1) put('scaling_max_freq', 1_200_000);
      if (count === 6) {
        put('scaling_max_freq', 600_000);
        put('scaling_cur_freq', 600_000);
      }
    });
    const moved = every1000.clock.indexOf(600_000);
    expect(moved).toBeGreaterThan(5);
    expect(every1000.cap.slice(0, moved).every((c) => c === 1_800_000)).toBe(true);
    expect(every1000.cap[moved]).toBe(600_000);
  });

  it('per tick only the ticker and the awk wake: no shell between them', async () => {
    // Rescans at every tick for the first 10 (1 s at 0.1 s), then every 1000 ticks: the window
    // below has no rescan, only ticks.
    const child = spawn('/bin/dash', [join(dir, 'sampler.sh'), String(watched.pid), '0.1', '1', '1', '1000'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    child.stdout.resume();
    const wakeups = () => {
      const got = new Map<string, number>();
      for (const e of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
        try {
          const stat = readFileSync(`/proc/${e}/stat`, 'utf8')
            .replace(/^.*\) /s, '')
            .split(' ');
          if (Number(stat[2]) !== child.pid) continue;
          const status = readFileSync(`/proc/${e}/status`, 'utf8');
          const name = /^Name:\s+(\S+)/m.exec(status)?.[1] ?? '?';
          got.set(`${e} ${name}`, Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1]));
        } catch {
          // gone meanwhile
        }
      }
      return got;
    };
    try {
      await new Promise((r) => setTimeout(r, 1600));
      const before = wakeups();
      await new Promise((r) => setTimeout(r, 1500));
      const after = wakeups();
      // ~15 ticks: the processes that woke at least 10 times.
      const woken = [...after]
        .filter(([p, n]) => n - (before.get(p) ?? n) >= 10)
        .map(([p]) => p.split(' ')[1])
        .sort();
      expect([...after.keys()].map((p) => p.split(' ')[1])).toContain('awk');
      expect(woken).toEqual(['awk', 'perl']);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  });

  // Counted with strace (.ci/run installs it).
  it('a rescan reads /proc once: no stat of every entry, and a process outside the group (a zombie or a kernel thread too) read once', async () => {
    // A zombie outside the engine's group: a perl whose child exits at once and is never reaped.
    const parent = spawn('perl', ['-e', '$| = 1; my $p = fork; exit 0 unless $p; print "$p\\n"; sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    const log = join(dir, 'rescans.strace');
    try {
      const zombie = Number(await new Promise<string>((r) => parent.stdout.once('data', (d) => r(String(d)))));
      await new Promise((r) => setTimeout(r, 200));
      expect(readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /);
      // Rescans at every tick (the perl ticker lists /proc at each): 12 ticks of 0.1 s.
      const { records } = await sample(
        'strace',
        process.env,
        watched.pid!,
        12,
        ['1', '1', '1000'],
        ['-f', '-qq', '-e', 'trace=openat,open,stat,lstat,newfstatat', '-o', log, '/bin/dash', join(dir, 'sampler.sh')],
      );
      expect(records.filter((r) => r.kind === 'sample').length).toBeGreaterThanOrEqual(12);
      const calls = readFileSync(log, 'utf8').split('\n');
      const opens = (file: string) => calls.filter((l) => l.includes(`open`) && l.includes(`"${file}"`)).length;
      // The measured process every tick; the zombie once, at the first rescan.
      expect(opens(`/proc/${watched.pid}/stat`)).toBeGreaterThanOrEqual(12);
      expect(opens(`/proc/${zombie}/stat`)).toBe(1);
      // A kernel thread (no address space: vsize 0), where this kernel shows one: once too.
      const kthread = readdirSync('/proc')
        .filter((e) => /^\d+$/.test(e))
        .find((e) => {
          try {
            return (
              readFileSync(`/proc/${e}/stat`, 'utf8')
                .replace(/^.*\) /s, '')
                .split(' ')[20] === '0'
            );
          } catch {
            return false;
          }
        });
      if (kthread) expect(opens(`/proc/${kthread}/stat`)).toBeLessThanOrEqual(1);
      // The listing itself: a readdir, no stat of each /proc/<pid> (perl's glob() made one an entry).
      expect(calls.filter((l) => /stat\S*\((?:AT_FDCWD, )?"\/proc\/\d+"/.test(l))).toEqual([]);
    } finally {
      process.kill(-parent.pid!, 'SIGKILL');
    }
  });

  // The ticker lists /proc at the rescans (awk cannot read a directory): each ticker does.
  const awks = {
    'dash + mawk': () => ({ shell: '/bin/dash', env: process.env }),
    'dash + mawk, the bash ticker': () => ({ shell: '/bin/dash', env: { ...process.env, KVSCOPE_TICKER: 'bash' } }),
    'busybox sh + busybox awk': () => ({ shell: join(busyboxBin(), 'sh'), env: { PATH: busyboxBin() } }),
  };
  // A zone whose reads fail, an Orin's cv0–cv2 while those engines are off (EAGAIN on every read), a Thor's
  // gpu-thermal while its rail is gated (corpus thermal_cpufreq/05 (G)): no reading, and not a firmware call every
  // tick. A directory stands for such a file (its open succeeds, its read fails: EISDIR), then a file that reads.
  for (const [name, tools] of Object.entries(awks))
    it(`${name}: a thermal zone whose reads keep failing is tried again once a period, not every tick, and read every tick once it reads`, async () => {
      const root = mkdtempSync(join(dir, 'zones-'));
      const zone = (n: number, type: string) => {
        const z = join(root, `sys/class/thermal/thermal_zone${n}`);
        mkdirSync(z, { recursive: true });
        writeFileSync(join(z, 'type'), `${type}\n`);
        return z;
      };
      writeFileSync(join(zone(0, 'cpu-thermal'), 'temp'), '45000\n');
      const cv0 = join(zone(1, 'cv0-thermal'), 'temp');
      mkdirSync(cv0);
      const { shell, env } = tools();
      const strace = execFileSync('sh', ['-c', 'command -v strace'], { encoding: 'utf8' }).trim();
      // 0.1 s ticks; the 5th argument: the period in ticks (the collector's is 10 s).
      const run = async (period: string, ticks: number, trace: string, onSample?: (count: number) => void) => {
        const { records } = await sample(
          strace,
          { ...env, KVSCOPE_SYSFS_ROOT: root },
          watched.pid!,
          ticks,
          ['1', '1000', '0', period],
          ['-f', '-e', 'trace=openat', '-o', join(root, trace), shell, join(dir, 'sampler.sh')],
          '0.1',
          onSample,
        );
        const samples = records.filter((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
        expect(samples.map((s) => s.values['temp.cpu-thermal.C'])).toEqual(samples.map(() => 45));
        const opens = readFileSync(join(root, trace), 'utf8')
          .split('\n')
          .filter((l) => l.includes(`"${cv0}"`)).length;
        return { cv: samples.map((s) => s.values['temp.cv0-thermal.C']), opens };
      };
      // Failing all along, a period of 100 ticks: read at the first 3 ticks of 25, then not again.
      const failing = await run('100', 25, 'failing.strace');
      expect(failing.cv).toEqual(failing.cv.map(() => null));
      expect(failing.opens).toBe(3);
      // A period of 5 ticks, the zone reading from the 10th sample on: read at the next retry (within 5 ticks,
      // and up to 7 more for this test's own latency on a loaded machine), then at every tick.
      const back = await run('5', 30, 'back.strace', (count) => {
        if (count !== 10) return;
        rmSync(cv0, { recursive: true });
        writeFileSync(cv0, '51000\n');
      });
      const first = back.cv.indexOf(51);
      expect(back.cv.slice(0, 10)).toEqual(back.cv.slice(0, 10).map(() => null));
      expect(first).toBeGreaterThanOrEqual(10);
      expect(first).toBeLessThanOrEqual(22);
      expect(back.cv.slice(first)).toEqual(back.cv.slice(first).map(() => 51));
    });

  for (const [name, tools] of Object.entries(awks))
    it(`${name}: a larger member the group starts later is measured, at the fast rescans and at the slow ones`, async () => {
      // The leader (a shell, small) starts a perl of 24 MiB (~2× that resident: perl's `x` builds a
      // copy) once the sampler's first sample is in, during the first 10 rescans (one a tick), and
      // another of 96 MiB at its 15th sample, past them (rescans every 5 ticks). Told by files, not
      // at fixed times: on a loaded 2-core VM (a CI run) the sampler's start-up took longer than
      // the leader's first wait, and its first sample was already the perl's.
      const go = mkdtempSync(join(dir, 'go-'));
      const alloc = (mb: number) => `perl -e '$a = "x" x (${mb} << 20); sleep 30' &`;
      const until = (file: string) => `while [ ! -e ${go}/${file} ]; do sleep 0.02; done;`;
      const leader = spawn('sh', ['-c', `${until('1')} ${alloc(24)} ${until('2')} ${alloc(96)} wait`], {
        stdio: 'ignore',
        detached: true,
      });
      try {
        const { shell, env } = tools();
        const { records } = await sample(shell, env, leader.pid!, 50, ['1', '5'], 'sampler.sh', '0.1', (count) => {
          if (count === 1) writeFileSync(join(go, '1'), '');
          if (count === 15) writeFileSync(join(go, '2'), '');
        });
        const samples = records.filter((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
        const rssOf = (pid: unknown) =>
          Math.max(...samples.filter((s) => s.values.measuredPid === pid).map((s) => s.values.rssAnonBytes as number));
        // Before the perls, the largest of the shell and its `sleep`; then the first perl, then the second.
        const pids = [...new Set(samples.map((s) => s.values.measuredPid))].filter((p) => rssOf(p) > 20 * MIB);
        expect(pids).toHaveLength(2);
        expect(defined(samples[0]).values.rssAnonBytes).toBeLessThan(8 * MIB);
        expect(rssOf(pids[0])).toBeGreaterThan(24 * MIB);
        expect(rssOf(pids[0])).toBeLessThan(96 * MIB);
        expect(rssOf(pids[1])).toBeGreaterThan(96 * MIB);
        expect(samples.at(-1)?.values.measuredPid).toBe(pids[1]);
        // The second perl's start (told at the 15th sample) to its first sample: one slow rescan
        // (5 ticks, 0.5 s) after it is the larger, plus the time the test's file, the leader's poll,
        // perl's start and its filling 192 MiB take: ~0.2 s idle, more than 1 s seen on a loaded
        // 2-core VM (a CI run). Without the slow rescans it would never be measured (pids above).
        const secondAt = defined(samples[14]).uptimeMs;
        const firstOf = (pid: unknown) => defined(samples.find((s) => s.values.measuredPid === pid)).uptimeMs;
        expect(firstOf(pids[1]) - secondAt).toBeLessThan(2500);
        // The shell and the two perls.
        expect(samples.at(-1)?.values.groupProcesses).toBe(3);
      } finally {
        process.kill(-leader.pid!, 'SIGKILL');
      }
    });

  it('busybox sh + busybox awk, no bash anywhere on PATH', async () => {
    const bin = busyboxBin();
    const { records } = await sample(join(bin, 'sh'), { PATH: bin }, watched.pid!, 3);
    const samples = records.filter((r) => r.kind === 'sample');
    expect(samples.length).toBeGreaterThanOrEqual(3);
    // No getconf in busybox: the script falls back to 4096 and says so in its header.
    expect(records[0]).toMatchObject({ kind: 'header', header: { pageSizeBytes: 4096 } });
    const v = (samples[samples.length - 1] as Extract<SamplerRecord, { kind: 'sample' }>).values;
    expect(Math.abs((v.rssAnonBytes as number) - statusKb(watched.pid!, 'RssAnon') * 1024)).toBeLessThan(2 * MIB);
  });

  it('says "gone" and exits when the process ends', async () => {
    const short = spawn('sleep', ['0.5']);
    const { records, exit } = await sample('/bin/sh', process.env, short.pid!, 1000);
    expect(records[records.length - 1]).toMatchObject({ kind: 'gone' });
    expect(exit).toBe(0);
  });

  for (const [name, tools] of Object.entries(awks))
    it(`${name}: a leader that leaves its engine behind: the engine measured to its end, then "gone" at once`, async () => {
      // The leader (a shell) starts a 16 MiB perl in the background and exits at 0.3 s; the perl
      // ends at 1.5 s. Rescans every tick for 10 ticks, then every 100,000.
      const leader = spawn(
        'sh',
        ['-c', `perl -e '$a = "x" x (16 << 20); select(undef, undef, undef, 1.5)' & sleep 0.3`],
        {
          stdio: 'ignore',
          detached: true,
        },
      );
      const { shell, env } = tools();
      const { records, exit } = await sample(shell, env, leader.pid!, 1000, ['1', '100000']);
      const samples = records.filter((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
      const last = defined(samples.at(-1));
      expect(last.values.measuredPid).not.toBe(leader.pid);
      expect(last.values.rssAnonBytes).toBeGreaterThan(16 * MIB);
      const gone = records.at(-1);
      expect(gone).toMatchObject({ kind: 'gone' });
      // "At once": within a few ticks (0.1 s) of the engine's last sample, not at the slow rescan
      // 100,000 ticks on. Counted from the engine's end, not the run's start: under load, perl's
      // start and its 16 MiB fill alone took more than 0.5 s (a CI run).
      expect(gone?.kind === 'gone' && gone.uptimeMs - last.uptimeMs).toBeLessThan(1000);
      expect(exit).toBe(0);
    });

  for (const [name, tools] of Object.entries(awks))
    it(`${name}: a leader left a zombie by its parent, its engine ended: "gone" at once`, async () => {
      // A parent that does not reap: the group's leader (a shell that starts a 16 MiB perl and
      // exits at 0.3 s) stays a zombie until the parent's own end at 8 s. The perl ends at 1.5 s,
      // past the fast rescans: no member is left, though the leader's /proc entry is.
      const parent = spawn(
        'perl',
        [
          '-e',
          `$| = 1; my $p = fork; if (!$p) { setpgrp; exec 'sh', '-c', q{perl -e '$a = "x" x (16 << 20); select(undef, undef, undef, 1.5)' & sleep 0.3} } print "$p\\n"; sleep 8`,
        ],
        { stdio: ['ignore', 'pipe', 'ignore'], detached: true },
      );
      try {
        const leaderPid = Number(await new Promise<string>((r) => parent.stdout.once('data', (d) => r(String(d)))));
        const { shell, env } = tools();
        const { records, exit } = await sample(shell, env, leaderPid, 1000, ['1', '100000']);
        const samples = records.filter((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
        expect(readFileSync(`/proc/${leaderPid}/stat`, 'utf8')).toMatch(/\) Z /);
        const last = defined(samples.at(-1));
        expect(last.values.rssAnonBytes).toBeGreaterThan(16 * MIB);
        const gone = records.at(-1);
        expect(gone).toMatchObject({ kind: 'gone' });
        // Within a few ticks of the engine's last sample (see the test above).
        expect(gone?.kind === 'gone' && gone.uptimeMs - last.uptimeMs).toBeLessThan(1000);
        expect(exit).toBe(0);
      } finally {
        process.kill(-parent.pid!, 'SIGKILL');
      }
    });

  for (const [name, tools] of Object.entries(awks))
    it(`${name}: an engine that takes time to free its memory at exit is not read as zero on its way out`, async () => {
      // A perl of ~512 MiB (256 MiB and its copy) that exits after 1 s: from the moment its
      // memory is let go (statm all zeros, status without VmRSS) to the moment it is a zombie,
      // the kernel frees its pages (~90 ms here; ~0.5 s for a 4 GiB engine). Ticks every 10 ms
      // land in that window; a reading there was a drop to zero at the end of the run.
      const engine = spawn('perl', ['-e', '$a = "x" x (256 << 20); select(undef, undef, undef, 1.0)'], {
        stdio: 'ignore',
        detached: true,
      });
      const { shell, env } = tools();
      const { records, exit } = await sample(shell, env, engine.pid!, 100_000, [], 'sampler.sh', '0.01');
      const samples = records.filter((r): r is Extract<SamplerRecord, { kind: 'sample' }> => r.kind === 'sample');
      const full = samples.findIndex((s) => (s.values.rssAnonBytes as number) > 256 * MIB);
      expect(full).toBeGreaterThanOrEqual(0);
      const after = samples.slice(full).map((s) => s.values.rssAnonBytes as number);
      expect(after.filter((b) => b < 256 * MIB)).toEqual([]);
      expect(records.at(-1)).toMatchObject({ kind: 'gone' });
      expect(exit).toBe(0);
    });

  for (const [name, tools] of Object.entries(awks))
    it(`${name}: says "gone" at the next tick after the fast rescans too, not at the next slow rescan`, async () => {
      // Rescans every tick for the first 10, then every 100,000 ticks (~3 h): the process outlives
      // the fast ones, and its end must still be seen at once (its group's leader is gone). 4 s: ~40 ticks idle;
      // busybox's ticker forks a `sleep` a tick, and a CI run under load got 10 ticks in 2 s.
      const short = spawn('sleep', ['4']);
      const { shell, env } = tools();
      const { records, exit } = await sample(shell, env, short.pid!, 1000, ['1', '100000']);
      const samples = records.filter((r) => r.kind === 'sample');
      expect(samples.length).toBeGreaterThan(10);
      expect(records[records.length - 1]).toMatchObject({ kind: 'gone' });
      expect(exit).toBe(0);
    });
});

/** A directory of busybox applets, the only PATH of a busybox-only board (no bash, no perl). */
function busyboxBin(): string {
  const bin = join(dir, 'busybox-bin');
  execFileSync('mkdir', ['-p', bin]);
  for (const applet of ['sh', 'awk', 'sleep', 'head', 'cat']) {
    if (!existsSync(join(bin, applet))) symlinkSync('/usr/bin/busybox', join(bin, applet));
  }
  return bin;
}

function statusKbFromMeminfo(key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/meminfo', 'utf8'));
  return Number(m![1]);
}
