// The readers of a run (procfs, pressure, boardsysfs, cgroup) sharing one script, as the launcher
// starts them (shared/collectors/reader-script.ts collectorPipelines, electron/node/run/run-scripts.ts):
// one ticker and one awk for all of them, each member's lines tagged with its own id and read by
// its own parser as if it ran alone; a member that cannot run says so without stopping the others;
// a shared script that ends while the engine runs is said stopped for every member.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launcherScript, runConf } from '../../../electron/node/run/run-scripts';
import type { CollectorDefinition, CollectorRecord } from '../../../shared/collectors/collector';
import { collectorPipelines, type CollectorPipeline } from '../../../shared/collectors/reader-script';
import { collectorById } from '../../../shared/collectors/registry';
import { parseSpoolLine } from '../../../shared/collectors/run-spool';

const ROOT = join(import.meta.dirname, '../../..');
const RK3588 = join(ROOT, 'test/fixtures/board-root/rk3588-orange-pi-5');
const work = mkdtempSync(join(tmpdir(), 'kvscope-readers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const READERS = ['procfs', 'pressure', 'boardsysfs', 'cgroup'];

function planned(ids: string[], intervalMs: number) {
  return ids.map((id) => {
    const def = collectorById(id) as CollectorDefinition & { script: string };
    return { def, intervalMs };
  });
}

/** The processes running now in `cwd` whose command is `name`, with their KVSCOPE_TAG. */
function running(cwd: string, name: RegExp): { pid: number; tag: string | undefined }[] {
  const out: { pid: number; tag: string | undefined }[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
      if (!name.test(argv0.replace(/^.*\//, '')) || readlinkSync(`/proc/${pid}/cwd`) !== cwd) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      out.push({ pid: Number(pid), tag: env.find((e) => e.startsWith('KVSCOPE_TAG='))?.slice(12) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

interface Launched {
  spool: string[];
  awks: { pid: number; tag: string | undefined }[];
  tickers: { pid: number; tag: string | undefined }[];
}

/** Runs the launcher to its end with these pipelines; `meanwhile` runs 700 ms in, while the engine runs. */
async function launch(
  name: string,
  pipelines: CollectorPipeline[],
  engineCommand: string,
  meanwhile: (l: Omit<Launched, 'spool'>) => void = () => {},
): Promise<Launched> {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'launcher.sh'), launcherScript());
  for (const p of pipelines) writeFileSync(join(dir, `${p.id}.sh`), p.script);
  const collectors = pipelines.map((p) => ({ ...p, intervalS: p.intervalMs / 1000 }));
  writeFileSync(join(dir, 'run.conf'), runConf({ engineCommand, collectors, watchdogS: 0, spoolMaxBytes: 10_000_000 }));
  const child = spawn('sh', ['launcher.sh', dir], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, KVSCOPE_SYSFS_ROOT: RK3588 },
  });
  const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise((r) => setTimeout(r, 700));
  const seen = { awks: running(dir, /awk$/), tickers: running(dir, /^(?:perl|bash|sleep)$/) };
  meanwhile(seen);
  await done;
  return { spool: readFileSync(join(dir, 'spool'), 'utf8').split('\n').filter(Boolean), ...seen };
}

/** Each collector's records, read from its tagged spool lines by its own parser. */
function recordsOf(spool: string[], id: string): CollectorRecord[] {
  const parser = collectorById(id)!.createParser();
  const records: CollectorRecord[] = [];
  for (const line of spool) {
    const parsed = parseSpoolLine(line);
    if (parsed.tag === 'C' && parsed.collector === id) {
      const r = parser.push(parsed.text);
      if (r) records.push(r);
    }
  }
  return [...records, ...parser.end()];
}

/**
 * The four readers' shared script run by hand (not through the launcher) for `seconds`, watching a
 * sleeping engine, tagged as the launcher tags it; `before` prefixes the command (a tracer).
 */
function runShared(
  name: string,
  seconds: string,
  intervalS: string,
  env: NodeJS.ProcessEnv,
  before: string[] = [],
  shared: CollectorPipeline | undefined = collectorPipelines(planned(READERS, 200))[0],
): { out: string; enginePid: number } {
  const file = join(work, `${name}.sh`);
  writeFileSync(file, shared!.script);
  const engine = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const args = [String(engine.pid), intervalS, ...shared!.args];
    const out = spawnSync('timeout', [seconds, ...before, 'sh', file, ...args], {
      encoding: 'utf8',
      env: { ...process.env, KVSCOPE_TAG: shared!.id, KVSCOPE_SYSFS_ROOT: RK3588, ...env },
    }).stdout;
    return { out, enginePid: engine.pid! };
  } finally {
    engine.kill('SIGKILL');
  }
}

const samples = (records: CollectorRecord[]) =>
  records.filter((r): r is Extract<CollectorRecord, { kind: 'sample' }> => r.kind === 'sample');

describe('readers sharing one script', () => {
  it('the launcher gives readers at whole multiples of the fastest one script, each at its own interval; the others keep their own', () => {
    const all = [...planned(READERS, 200), ...planned(['pmap'], 5000), ...planned(['tegrastats'], 1000)];
    const pipelines = collectorPipelines(all);
    expect(pipelines.map((p) => [p.id, p.intervalMs, p.members])).toEqual([
      ['readers200', 200, [...READERS, 'pmap']],
      ['tegrastats', 1000, ['tegrastats']],
    ]);
    // pmap ticks on every 25th tick of the script (5 s over 200 ms); the others on every tick.
    expect(pipelines[0]!.script).toContain(
      'if (kvOn_pmap && kvN % 25 == 0) { emitMember = "pmap"; kvOn_pmap = pmap_tick() }',
    );
    expect(pipelines[0]!.script).toContain('if (kvOn_cgroup) { emitMember = "cgroup"; kvOn_cgroup = cgroup_tick() }');
    // A run at 300 ms: pressure at 2 s and boardsysfs at 1 s are no multiples of it, but 1 s is of 500 ms.
    const mixed = [
      ...planned(['procfs', 'cgroup'], 300),
      ...planned(['pressure'], 500),
      ...planned(['boardsysfs'], 1000),
      ...planned(['vcgencmd'], 700),
    ];
    expect(collectorPipelines(mixed).map((p) => [p.id, p.members])).toEqual([
      ['readers300', ['procfs', 'cgroup']],
      ['readers500', ['pressure', 'boardsysfs']],
      ['vcgencmd', ['vcgencmd']],
    ]);
  });

  it('one ticker and one awk for four readers, each read by its own parser, to the end of the engine', async () => {
    const pipelines = collectorPipelines(planned(READERS, 200));
    const { spool, awks, tickers } = await launch('four', pipelines, 'sleep 2');
    // Beside the launcher's own (its engine output filters, untagged).
    expect(awks.filter((a) => a.tag !== undefined)).toEqual([{ pid: expect.any(Number), tag: 'readers200' }]);
    expect(tickers.filter((a) => a.tag !== undefined)).toEqual([{ pid: expect.any(Number), tag: 'readers200' }]);
    for (const line of spool) expect(parseSpoolLine(line).tag, line).not.toBe('diagnostic');
    for (const id of READERS) {
      const records = recordsOf(spool, id);
      expect(
        records.filter((r) => r.kind === 'diagnostic' || r.kind === 'status'),
        id,
      ).toEqual([]);
      expect(samples(records).length, id).toBeGreaterThanOrEqual(5);
    }
    // The RK3588 tree's values, exactly (tree: test/fixtures/board-root).
    const board = samples(recordsOf(spool, 'boardsysfs'));
    expect(board[0]?.values).toMatchObject({ 'devfreq.dmc.curFreqMHz': 528, 'devfreq.dmc.maxFreqMHz': 2112 });
    expect(samples(recordsOf(spool, 'procfs')).every((s) => (s.values.rssBytes ?? 0) > 0)).toBe(true);
    expect(spool.filter((l) => l.startsWith('C procfs ')).at(-1)).toMatch(/^C procfs S t=[\d.]+ gone=1$/);
    // Ended with the engine: nobody said stopped.
    expect(spool.filter((l) => l.includes(' ! stopped'))).toEqual([]);
  });

  it("reads /proc/uptime and the engine's stat once a tick for all four, not once a reader", () => {
    const trace = join(work, 'four.strace');
    const { out, enginePid } = runShared('four', '1.5', '0.2', {}, ['strace', '-f', '-e', 'trace=openat', '-o', trace]);
    const ticks = out.split('\n').filter((l) => l.startsWith('C procfs S t=')).length;
    expect(ticks).toBeGreaterThanOrEqual(3);
    const opens = readFileSync(trace, 'utf8').split('\n');
    const count = (path: string) => opens.filter((l) => l.includes(`openat(AT_FDCWD, "${path}"`)).length;
    // Read at the last tick too, maybe cut short by the timeout before its line.
    expect(count('/proc/uptime') - ticks).toBeGreaterThanOrEqual(0);
    expect(count('/proc/uptime') - ticks).toBeLessThanOrEqual(1);
    // The three beside procfs share one read of the engine's stat; procfs reads it twice itself.
    expect(count(`/proc/${enginePid}/stat`) / ticks).toBeLessThan(3.5);
  });

  it('a member at twice the interval samples every other tick, and each tick leaves in one write', () => {
    const [shared] = collectorPipelines([...planned(['procfs', 'cgroup'], 200), ...planned(['pressure'], 400)]);
    expect(shared?.members).toEqual(['procfs', 'cgroup', 'pressure']);
    const trace = join(work, 'every.strace');
    // The awk's writes: the setups' header lines are the shell's (its own process).
    const { out } = runShared(
      'every',
      '2',
      '0.2',
      {},
      ['strace', '-f', '-s', '65536', '-e', 'trace=write', '-o', trace],
      shared,
    );
    const lines = out.split('\n');
    const ticks = (id: string) => lines.filter((l) => l.startsWith(`C ${id} `) && !l.startsWith(`C ${id} H `)).length;
    expect(ticks('procfs')).toBeGreaterThanOrEqual(6);
    expect(ticks('cgroup')).toBe(ticks('procfs'));
    // Ticks 0, 2, 4…: half of them, the first included (the timeout may cut the last tick short).
    expect(Math.abs(ticks('pressure') - Math.ceil(ticks('procfs') / 2))).toBeLessThanOrEqual(1);
    // One write(2) a tick carrying every member's line: lines of three collectors, one write each tick.
    const writes = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => /write\(1, "C procfs S t=/.test(l));
    expect(writes.length).toBe(ticks('procfs'));
    expect(writes.filter((w) => w.includes('\\nC cgroup t=')).length).toBe(writes.length);
  });

  it('past KVSCOPE_SPOOL_MAX each member counts its own lines: the cap is per collector, as when each ran alone', () => {
    const max = 1500;
    const { out } = runShared('capped', '2', '0.1', { KVSCOPE_SPOOL_MAX: String(max) });
    const lines = out.split('\n').filter(Boolean);
    for (const id of READERS) {
      // Its awk's lines (its header, said by its setup, is not counted against the cap).
      const own = lines.filter((l) => l.startsWith(`C ${id} `) && !l.startsWith(`C ${id} H `));
      const bytes = own.reduce((n, l) => n + l.length + 1, 0);
      // Up to its own cap (the line that crossed it not written), whatever the others wrote.
      expect(bytes, id).toBeLessThanOrEqual(max);
      expect(bytes, id).toBeGreaterThan(max / 3);
    }
    // The timeout ends the awk by a signal, before its END: the counts are not printed here;
    // collector-spool-lines.test.ts checks them through the launcher.
  });

  it('a member that cannot run says why and the others go on; its argument (a root with a space and a quote) reaches it whole', async () => {
    const odd = join(work, "board root with 'quote");
    mkdirSync(join(odd, 'sys/class/devfreq'), { recursive: true });
    const empty = join(work, 'empty root');
    mkdirSync(empty);
    const withRoot = (root: string) =>
      planned(READERS, 200).map((p) =>
        p.def.id === 'boardsysfs' ? { ...p, def: { ...p.def, scriptArgs: () => [root] } } : p,
      );
    // An empty tree: boardsysfs absent, the three others sampled to the end.
    const { spool } = await launch('absent', collectorPipelines(withRoot(empty)), 'sleep 1.5');
    expect(spool.filter((l) => l.startsWith('C boardsysfs '))).toEqual([
      expect.stringMatching(/^C boardsysfs ! absent no devfreq device/),
    ]);
    for (const id of ['procfs', 'pressure', 'cgroup']) expect(samples(recordsOf(spool, id)).length).toBeGreaterThan(3);
    // A copy of the RK3588 tree under the odd name: read as the tree itself.
    cpSync(RK3588, odd, { recursive: true });
    const read = await launch('odd', collectorPipelines(withRoot(odd)), 'sleep 1.2');
    expect(samples(recordsOf(read.spool, 'boardsysfs'))[0]?.values).toMatchObject({ 'devfreq.dmc.curFreqMHz': 528 });
  });

  it('a shared script that ends while the engine runs: every member is said stopped, after its samples', async () => {
    const pipelines = collectorPipelines(planned(READERS, 200));
    const { spool } = await launch('stopped', pipelines, 'sleep 2', ({ awks }) => {
      for (const a of awks) process.kill(a.pid, 'SIGKILL');
    });
    for (const id of READERS) {
      const lines = spool.filter((l) => l.startsWith(`C ${id} `));
      expect(lines.at(-1), id).toMatch(new RegExp(`^C ${id} ! stopped code=\\d+ t=[\\d.]+$`));
      expect(samples(recordsOf(spool, id)).length, id).toBeGreaterThanOrEqual(1);
    }
  });
});
