// The board collectors' scripts run for real (sh, awk, this machine's /proc) against directory
// fixtures of real boards (test/fixtures/board-root/*, see their SOURCE notes) and the shim board
// tools (test/fixtures/shims), read by their parsers. Expected values are written by hand from the
// fixtures. The "engine" is a `sleep` we start and end; the scripts must end with it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CollectorDefinition, CollectorRecord } from '../../../shared/collectors/collector';
import { boardSysfsCollector } from '../../../shared/collectors/board-sysfs-collector';
import { BOARD_UNREADABLE_HOW } from '../../../shared/collectors/board-sysfs-collector-parser';
import { tegrastatsCollector } from '../../../shared/collectors/tegrastats-collector';
import { vcgencmdCollector } from '../../../shared/collectors/vcgencmd-collector';
import { projectRoot } from '../../helpers/cli';
import { ensureKeyUser } from '../../helpers/sshd';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-board-scripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const boardRoot = (name: string) => join(projectRoot, 'test/fixtures/board-root', name);
const SHIMS = join(projectRoot, 'test/fixtures/shims/bin');
/** PATH without any shim: this machine has neither tegrastats nor vcgencmd. */
const PLAIN_PATH = '/usr/local/bin:/usr/bin:/bin';
/** PATH with the shim board tools first. */
const SHIM_PATH = `${SHIMS}:${PLAIN_PATH}`;

/**
 * Runs a collector's script as the launcher does (`sh <id>.sh <pid> <interval s> [root]`) for an
 * engine that lives `engineMs`, and returns its parser's records once the script has ended.
 * The interval is 0.2 s unless a test asks for another.
 */
async function runScript(
  def: CollectorDefinition,
  opts: {
    root?: string;
    path?: string;
    engineMs: number;
    intervalS?: number;
    /** Arguments after the root. */
    more?: string[];
    /** Told the count of tick lines (`t=…`) so far, as each arrives. */
    onTick?: (count: number) => void;
  },
): Promise<CollectorRecord[]> {
  const file = join(dir, `${def.id}.sh`);
  writeFileSync(file, def.script ?? '');
  const engine: ChildProcess = spawn('sleep', [String(opts.engineMs / 1000)], { stdio: 'ignore' });
  const args = [
    file,
    String(engine.pid),
    (opts.intervalS ?? 0.2).toFixed(3),
    ...(opts.root ? [opts.root] : []),
    ...(opts.more ?? []),
  ];
  const child = spawn('sh', args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { PATH: opts.path ?? PLAIN_PATH, TMPDIR: dir, KVSCOPE_SHIM_STATE: dir },
  });
  let out = '';
  let ticks = 0;
  child.stdout?.on('data', (d: Buffer) => {
    const text = d.toString();
    out += text;
    for (const line of text.split('\n')) if (line.startsWith('t=')) opts.onTick?.(++ticks);
  });
  await new Promise((resolve) => child.on('close', resolve));
  const parser = def.createParser();
  return out
    .split('\n')
    .map((l) => parser.push(l))
    .filter((r): r is CollectorRecord => r !== null);
}

const samples = (records: CollectorRecord[]) => records.flatMap((r) => (r.kind === 'sample' ? [r] : []));
/** The sample records of a script run (runScript). */
const samplesOf = async (...args: Parameters<typeof runScript>) => samples(await runScript(...args));

/**
 * get_throttled 0x50005 decoded by hand: bit 0 under-voltage now, bit 2 throttled now, bits 16 and
 * 18 the same since boot; the ARM clock cap (1, 17) and the soft temperature limit (3, 19) clear.
 */
const THROTTLED_0x50005 = {
  'rpi.throttledBits': 0x50005,
  'rpi.underVoltageNow': 1,
  'rpi.underVoltageSticky': 1,
  'rpi.armFreqCappedNow': 0,
  'rpi.armFreqCappedSticky': 0,
  'rpi.throttledNow': 1,
  'rpi.throttledSticky': 1,
  'rpi.softTempLimitNow': 0,
  'rpi.softTempLimitSticky': 0,
};

describe('board collector scripts on directory fixtures', () => {
  it('board sysfs on an RK3588 tree: devfreq clocks, NPU load per core, the trip point once', async () => {
    const records = await runScript(boardSysfsCollector, {
      root: boardRoot('rk3588-orange-pi-5'),
      engineMs: 2000,
    });
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
    const got = samples(records);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got[0]?.values).toEqual({
      'devfreq.dmc.curFreqMHz': 528,
      'devfreq.dmc.minFreqMHz': 528,
      'devfreq.dmc.maxFreqMHz': 2112,
      'devfreq.fb000000.gpu.curFreqMHz': 300,
      'devfreq.fb000000.gpu.minFreqMHz': 300,
      'devfreq.fb000000.gpu.maxFreqMHz': 1000,
      'devfreq.fdab0000.npu.curFreqMHz': 300,
      'devfreq.fdab0000.npu.minFreqMHz': 300,
      'devfreq.fdab0000.npu.maxFreqMHz': 1000,
      'npu.core0.loadPct': 4,
      'npu.core1.loadPct': 0,
      'npu.core2.loadPct': 0,
      'trip.soc-thermal.0.C': 115,
    });
    // The trip point is read once; later ticks carry the live readings only.
    expect(got[1]?.values['trip.soc-thermal.0.C']).toBeUndefined();
    expect(got[1]?.values['npu.core0.loadPct']).toBe(4);
    // Ticks are the target's uptime, in order (10 ms resolution: a catch-up tick after a late
    // start may read the same hundredth).
    expect(got[1]?.uptimeMs ?? 0).toBeGreaterThanOrEqual(got[0]?.uptimeMs ?? 0);
    expect(got[0]?.uptimeMs ?? 0).toBeGreaterThan(0);
  });

  it("board sysfs reads a devfreq device's floor and ceiling again at the tick its clock moved, else every N-th tick", async () => {
    // A copy of the RK3588 tree, the GPU's limits read every 1000th tick while its clock stays
    // (the 4th argument): a ceiling lowered above the clock is not read; one lowered below it,
    // with the clock it moves (ceiling first, as devfreq changes them), is read at that tick.
    // The other devices' limits are read on the first tick only, and carried.
    const root = join(dir, 'devfreq-caps');
    cpSync(boardRoot('rk3588-orange-pi-5'), root, { recursive: true });
    const gpu = (file: string, hz: number) =>
      writeFileSync(join(root, 'sys/class/devfreq/fb000000.gpu', file), `${hz}\n`);
    const got = await samplesOf(boardSysfsCollector, {
      root,
      more: ['1000'],
      engineMs: 2600,
      onTick: (count) => {
        if (count === 1) gpu('max_freq', 800_000_000);
        if (count === 5) {
          gpu('max_freq', 200_000_000);
          gpu('min_freq', 200_000_000);
          gpu('cur_freq', 200_000_000);
        }
      },
    });
    const clock = got.map((s) => s.values['devfreq.fb000000.gpu.curFreqMHz']);
    const ceiling = got.map((s) => s.values['devfreq.fb000000.gpu.maxFreqMHz']);
    const floor = got.map((s) => s.values['devfreq.fb000000.gpu.minFreqMHz']);
    const moved = clock.indexOf(200);
    expect(moved).toBeGreaterThan(4);
    expect(ceiling.slice(0, moved).every((c) => c === 1000)).toBe(true);
    expect(floor.slice(0, moved).every((c) => c === 300)).toBe(true);
    expect(ceiling[moved]).toBe(200);
    expect(floor[moved]).toBe(200);
    expect(got.every((s) => s.values['devfreq.dmc.maxFreqMHz'] === 2112)).toBe(true);
  });

  it('board sysfs reads the limits of a clock that stays every N-th tick (its second argument)', async () => {
    const root = join(dir, 'devfreq-caps-every');
    cpSync(boardRoot('rk3588-orange-pi-5'), root, { recursive: true });
    const got = await samplesOf(boardSysfsCollector, {
      root,
      more: ['3'],
      engineMs: 2400,
      onTick: (count) => count === 1 && writeFileSync(join(root, 'sys/class/devfreq/dmc/max_freq'), '1560000000\n'),
    });
    const ceiling = got.map((s) => s.values['devfreq.dmc.maxFreqMHz']);
    const lowered = ceiling.indexOf(1560);
    expect(lowered).toBeGreaterThanOrEqual(3);
    expect(lowered % 3).toBe(0);
    expect(ceiling.slice(0, lowered).every((c) => c === 2112)).toBe(true);
  });

  it('board sysfs on a Jetson tree without tegrastats: INA3221 rails as mV × mA', async () => {
    const got = await samplesOf(boardSysfsCollector, { root: boardRoot('jetson-orin-nano'), engineMs: 1500 });
    // VDD_IN 5.05 V × 1.01 A, VDD_CPU_GPU_CV 5.04 V × 184 mA, VDD_SOC 5.05 V × 304 mA.
    expect(got[0]?.values).toEqual({
      'devfreq.17000000.ga10b.curFreqMHz': 306,
      'devfreq.17000000.ga10b.minFreqMHz': 306,
      'devfreq.17000000.ga10b.maxFreqMHz': 625,
      'power.VDD_IN.mW': 5100.5,
      'power.VDD_CPU_GPU_CV.mW': 927.36,
      'power.VDD_SOC.mW': 1535.2,
    });
  });

  it('board sysfs reads each INA label once and names the rails with it on every tick', () => {
    const file = join(dir, 'boardsysfs-traced.sh');
    writeFileSync(file, boardSysfsCollector.script ?? '');
    const trace = join(dir, 'labels.strace');
    // Ticks of 0.2 s for 3 s: ~14 ticks idle, and room for the 4 asked for on a loaded machine
    // (a CI run under strace got 3 in 1.5 s).
    const engine = spawn('sleep', ['5'], { stdio: 'ignore' });
    try {
      const root = boardRoot('jetson-orin-nano');
      const { stdout } = spawnSync(
        'timeout',
        ['3', 'strace', '-f', '-e', 'trace=openat', '-o', trace, 'sh', file, String(engine.pid), '0.2', root],
        { encoding: 'utf8', env: { PATH: PLAIN_PATH } },
      );
      const parser = boardSysfsCollector.createParser();
      const got = samples(stdout.split('\n').flatMap((l) => parser.push(l) ?? []));
      expect(got.length).toBeGreaterThanOrEqual(4);
      for (const s of got)
        expect(
          Object.keys(s.values)
            .filter((k) => k.startsWith('power.'))
            .sort(),
        ).toEqual(['power.VDD_CPU_GPU_CV.mW', 'power.VDD_IN.mW', 'power.VDD_SOC.mW']);
      const opened = (f: string) =>
        readFileSync(trace, 'utf8')
          .split('\n')
          .filter((l) => l.includes(`${root}/sys/class/hwmon/hwmon3/${f}"`)).length;
      // The setup's check of each file, then one read by the awk: not one a tick.
      expect(opened('in1_label')).toBe(2);
      expect(opened('curr1_input')).toBeGreaterThanOrEqual(got.length + 1);
    } finally {
      engine.kill('SIGKILL');
    }
  });

  it('board sysfs on a tree with trip points only (a Raspberry Pi): one sample with them, then no line without a reading', async () => {
    const records = await runScript(boardSysfsCollector, { root: boardRoot('raspberry-pi-4'), engineMs: 1500 });
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
    expect(samples(records).map((s) => s.values)).toEqual([{ 'trip.cpu-thermal.0.C': 70 }]);
  });

  it('board sysfs leaves the INA rails to tegrastats where tegrastats is on the PATH', async () => {
    const got = await samplesOf(boardSysfsCollector, {
      root: boardRoot('jetson-orin-nano'),
      path: SHIM_PATH,
      engineMs: 1500,
    });
    expect(Object.keys(got[0]?.values ?? {}).filter((k) => k.startsWith('power.'))).toEqual([]);
    expect(got[0]?.values['devfreq.17000000.ga10b.curFreqMHz']).toBe(306);
  });

  it('board sysfs on an empty tree says absent', async () => {
    const records = await runScript(boardSysfsCollector, { root: dir, engineMs: 300 });
    expect(records).toEqual([
      {
        kind: 'status',
        status: 'absent',
        reason:
          'no devfreq device, no readable Rockchip NPU load, no INA power sensor and no thermal trip point under /sys',
      },
    ]);
  });

  it('vcgencmd on a Pi 4 tree without vcgencmd: the sysfs throttled bits and the thermal zone, no fork', async () => {
    const got = await samplesOf(vcgencmdCollector, { root: boardRoot('raspberry-pi-4'), engineMs: 1500 });
    // get_throttled 50005: under-voltage and throttled, now and since boot; cpu-thermal 74010 m°C.
    // Throttled now: cpufreq's 1500000 kHz is not the clock the ARM runs at, and nothing can measure it.
    expect(got[0]?.values).toEqual({
      ...THROTTLED_0x50005,
      'rpi.soc.C': 74.01,
    });
  });

  /** A copy of the Pi 4 tree whose get_throttled reads `bits` (hex without 0x, as the sysfs mirror prints). */
  const piTreeWith = (name: string, bits: string) => {
    const root = join(dir, name);
    cpSync(boardRoot('raspberry-pi-4'), root, { recursive: true });
    writeFileSync(join(root, 'sys/devices/platform/soc/soc:firmware/get_throttled'), `${bits}\n`);
    return root;
  };
  /** The shim vcgencmd behind a wrapper that logs each call's arguments (one line a call). */
  const loggedVcgencmd = (name: string) => {
    const bin = join(dir, `bin-${name}`);
    const log = join(dir, `${name}.calls`);
    mkdirSync(bin);
    writeFileSync(join(bin, 'vcgencmd'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${join(SHIMS, 'vcgencmd')}' "$@"\n`, {
      mode: 0o755,
    });
    return { path: `${bin}:${PLAIN_PATH}`, calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  };

  it("vcgencmd while the firmware limits nothing now: cpufreq's clock, and no vcgencmd fork per tick", async () => {
    // 50000 (corpus thermal_cpufreq/03 (A)): under-voltage and throttling happened since boot, none now.
    const root = piTreeWith('pi-unlimited', '50000');
    const vc = loggedVcgencmd('unlimited');
    const got = await samplesOf(vcgencmdCollector, { root, path: vc.path, engineMs: 1500 });
    expect(got.length).toBeGreaterThanOrEqual(2);
    for (const s of got)
      expect(s.values).toMatchObject({
        'rpi.throttledBits': 0x50000,
        'rpi.underVoltageNow': 0,
        'rpi.underVoltageSticky': 1,
        'rpi.throttledNow': 0,
        'rpi.throttledSticky': 1,
        'rpi.soc.C': 74.01,
        'rpi.armFreqMHz': 1500,
      });
    // The set-up's one check that vcgencmd answers this login, and nothing per tick.
    expect(vc.calls()).toEqual(['get_throttled']);
  });

  it('vcgencmd while the firmware throttles now: the measured clock, one measure_clock a tick', async () => {
    const root = piTreeWith('pi-throttled', '50005');
    const vc = loggedVcgencmd('throttled');
    const all = await samplesOf(vcgencmdCollector, { root, path: vc.path, engineMs: 2500 });
    // Every tick has the bits and the temperature; a tick that came while the shell still answered
    // the one before (a loaded machine) goes out without a clock rather than queue a request.
    for (const s of all) expect(s.values).toMatchObject({ ...THROTTLED_0x50005, 'rpi.soc.C': 74.01 });
    const got = all.filter((s) => s.values['rpi.armFreqMHz'] !== undefined);
    expect(got.length).toBeGreaterThanOrEqual(2);
    // The shim's measure_clock capture in order (a counter per calling process: the awk's shell).
    expect(got.slice(0, 2).map((s) => s.values['rpi.armFreqMHz'])).toEqual([1500.345728, 1000.212864]);
    const calls = vc.calls();
    expect(calls[0]).toBe('get_throttled');
    // One a measured tick; the last may have been asked just before the engine ended, its line never written.
    const measured = calls.filter((c) => c === 'measure_clock arm').length;
    expect(measured - got.length).toBeGreaterThanOrEqual(0);
    expect(measured - got.length).toBeLessThanOrEqual(1);
    expect(calls.length).toBe(1 + measured);
  });

  it('a vcgencmd that hangs (a stuck firmware mailbox) is asked once, and the ticks go on with what the files give', async () => {
    const root = piTreeWith('pi-hung', '50005');
    const bin = join(dir, 'bin-hung');
    const log = join(dir, 'hung.calls');
    mkdirSync(bin);
    // Answers the set-up's check, then hangs on measure_clock (for 3 s: the test's engine lives 1.5 s).
    const hanging = `#!/bin/sh\necho "$*" >> '${log}'\ncase "$*" in get_throttled) echo throttled=0x50005;; *) sleep 3;; esac\n`;
    writeFileSync(join(bin, 'vcgencmd'), hanging, { mode: 0o755 });
    const got = await samplesOf(vcgencmdCollector, { root, path: `${bin}:${PLAIN_PATH}`, engineMs: 1500 });
    // A tick every 0.2 s while the engine lived, none waiting for the hung reading.
    expect(got.length).toBeGreaterThanOrEqual(4);
    for (const s of got) expect(s.values).toMatchObject({ ...THROTTLED_0x50005, 'rpi.soc.C': 74.01 });
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual(['get_throttled', 'measure_clock arm']);
    // Without the files every reading is vcgencmd's: the ticks while it hangs say nothing, rather
    // than lines without a reading (each a diagnostic, as if the board had failed).
    const bare = await runScript(vcgencmdCollector, { root: dir, path: `${bin}:${PLAIN_PATH}`, engineMs: 1500 });
    expect(bare.filter((r) => r.kind === 'diagnostic')).toEqual([]);
  });

  it("vcgencmd's readings from its shell are tagged as the collector's lines and stop at its spool cap", () => {
    const root = piTreeWith('pi-capped', '50005');
    const file = join(dir, 'vcgencmd-capped.sh');
    writeFileSync(file, vcgencmdCollector.script ?? '');
    const engine = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      // A tick's line is ~190 bytes: the cap lets two through.
      const r = spawnSync('sh', [file, String(engine.pid), '0.1', root], {
        env: {
          PATH: SHIM_PATH,
          TMPDIR: dir,
          KVSCOPE_SHIM_STATE: dir,
          KVSCOPE_TAG: 'vcgencmd',
          KVSCOPE_SPOOL_MAX: '400',
        },
        encoding: 'utf8',
        timeout: 2500,
      });
      const lines = r.stdout.split('\n').filter(Boolean);
      expect(lines[0]).toMatch(/^C vcgencmd H v=1 throttled=sysfs temp=thermal_zone0 clock=1 cpufreq=policy0$/);
      const ticks = lines.slice(1);
      expect(ticks).toHaveLength(2);
      for (const l of ticks) expect(l).toMatch(/^C vcgencmd t=[\d.]+\|.*get_throttled:50005\|/);
      // The first tick's reading, from the shell (a later one may have gone out without it: asked while
      // the shell still answered the one before, under load).
      expect(ticks.filter((l) => /\|frequency\(48\)=\d+$/.test(l)).length).toBeGreaterThanOrEqual(1);
    } finally {
      engine.kill('SIGKILL');
    }
  });

  it('vcgencmd with the shim tool and no sysfs files: the replayed readings, in order', async () => {
    // Each tick starts the shim three times (each a shell, grep and awk): under a loaded machine
    // (a CI run beside other work, load 10 on 2 cores) 700 ms gave 0 or 1 ticks; 2.5 s gives several.
    // (The engines above live 1.5–2 s for the same reason: the script's set-up, before its first
    // tick, took over 500 ms there.)
    const got = await samplesOf(vcgencmdCollector, { root: dir, path: SHIM_PATH, engineMs: 2500 });
    expect(got.length).toBeGreaterThanOrEqual(2);
    // The shim keeps a counter per calling process (test/fixtures/shims/SOURCE): the script's own
    // start-up check does not advance the ticks' replay, so every command starts at its first line.
    // 0x50005: bit 0 under-voltage now, bit 2 throttled now, bits 16 and 18 the same since boot.
    expect(got[0]?.values).toEqual({
      ...THROTTLED_0x50005,
      'rpi.soc.C': 80.8,
      'rpi.armFreqMHz': 1500.345728,
    });
    expect(got[1]?.values).toMatchObject({
      'rpi.throttledBits': 0x50000,
      'rpi.soc.C': 62.3,
      'rpi.armFreqMHz': 1000.212864,
    });
  });

  it('vcgencmd with neither the tool nor the files says absent', async () => {
    const records = await runScript(vcgencmdCollector, { root: dir, engineMs: 300 });
    expect(records).toEqual([expect.objectContaining({ kind: 'status', status: 'absent' })]);
  });

  it('tegrastats streams the shim at the interval asked for, and ends with the engine', async () => {
    const records = await runScript(tegrastatsCollector, {
      path: SHIM_PATH,
      engineMs: 1000,
      intervalS: 0.2,
    });
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
    const got = samples(records);
    expect(got.length).toBeGreaterThanOrEqual(3);
    // Lines 1–3 of the capture (test/fixtures/shims/captures/tegrastats-xavier-nx-jp4.6.txt).
    expect(got.slice(0, 3).map((s) => s.values['tegra.rail.VDD_IN.avgmW'])).toEqual([14683, 14690, 14683]);
    expect(got[0]?.values).toMatchObject({
      'tegra.ramUsedBytes': 1802 * 1024 * 1024,
      'tegra.gpu.loadPct': 99,
      'tegra.temp.GPU.C': 44.5,
      'tegra.rail.VDD_IN.curmW': 14703,
    });
  });

  it('tegrastats without the tool says absent', async () => {
    const records = await runScript(tegrastatsCollector, { engineMs: 300 });
    expect(records).toEqual([
      {
        kind: 'status',
        status: 'absent',
        reason: 'no tegrastats on PATH: not an NVIDIA Jetson, or L4T without its tegrastats',
      },
    ]);
  });

  it('board sysfs as a user without root on an RK3588 (debugfs mode 700): the NPU load is said to be left out, and why', async () => {
    const user = await ensureKeyUser();
    const root = join(dir, 'rk3588-debugfs-root-only');
    cpSync(boardRoot('rk3588-orange-pi-5'), root, { recursive: true });
    chmodSync(dir, 0o755);
    // As on the board: /sys/kernel/debug is root's, mode 700 (the fixture copy is root's: this test runs as root).
    chmodSync(join(root, 'sys/kernel/debug'), 0o700);
    const file = join(dir, 'boardsysfs-nonroot.sh');
    writeFileSync(file, boardSysfsCollector.script ?? '', { mode: 0o755 });
    const engine = spawn('sleep', ['0.9'], { stdio: 'ignore' });
    const ran = spawnSync('su', ['-s', '/bin/sh', user, '-c', `sh ${file} ${engine.pid} 0.200 ${root}`], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    const parser = boardSysfsCollector.createParser();
    const records = ran.stdout
      .split('\n')
      .map((l) => parser.push(l))
      .filter((r): r is CollectorRecord => r !== null);
    expect(records[0]).toEqual({
      kind: 'header',
      note: `left out, not readable: /sys/kernel/debug/rknpu/load; ${BOARD_UNREADABLE_HOW}`,
    });
    const got = samples(records);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got[0]?.values).toMatchObject({ 'devfreq.fdab0000.npu.curFreqMHz': 300, 'devfreq.dmc.curFreqMHz': 528 });
    expect(got[0]?.values['npu.core0.loadPct']).toBeUndefined();
    expect(records.filter((r) => r.kind === 'diagnostic')).toEqual([]);
  });
});
