// Health findings: each rule fires on the fact it is about and stays quiet otherwise.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { healthFindings } from '../../../../shared/probe/health';
import { parseProbeOutput } from '../../../../shared/probe/probe-parser';
import type { ProbeResult } from '../../../../shared/probe/probe-schema';
import { defined } from '../../../helpers/defined';
import { nanoZones, pmicAlarmMilli } from '../../../helpers/pmic-fixtures';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** A healthy 8 GiB board as the parser would produce it; tests change one thing at a time. */
function board(over: (p: ProbeResult) => void = () => undefined): ProbeResult {
  const p = parseProbeOutput('');
  p.diagnostics = [];
  p.uid = 1000;
  p.cpu.count = 4;
  p.cpu.policies = [
    {
      policy: 'policy0',
      cpus: [0, 1, 2, 3],
      governor: 'performance',
      availableGovernors: ['performance', 'schedutil'],
      driver: 'cpufreq-dt',
      curKHz: 1_800_000,
      minKHz: 408_000,
      maxKHz: 1_800_000,
      hwMinKHz: 408_000,
      hwMaxKHz: 1_800_000,
    },
  ];
  p.memory.totalBytes = 8 * GiB;
  p.memory.availableBytes = 6 * GiB;
  p.memory.swapTotalBytes = 2 * GiB;
  p.memory.swapFreeBytes = 2 * GiB;
  p.swaps = [{ filename: '/dev/zram0', type: 'partition', sizeBytes: 2 * GiB, usedBytes: 0, priority: 100 }];
  p.thp = { enabled: 'madvise', defrag: 'madvise' };
  p.pageSizeBytes = 4096;
  p.perf = { path: '/usr/bin/perf', version: 'perf version 6.1', usable: true, eventParanoid: 1 };
  p.tools = { node: '/usr/bin/node' };
  p.smapsRollup = true;
  p.loadAvg = [0.1, 0.1, 0.1];
  p.tmpDisk = { filesystem: 'tmpfs', mount: '/tmp', totalBytes: GiB, availableBytes: GiB };
  p.vm = { overcommitMemory: 0, swappiness: 60, minFreeKbytes: 16384 };
  over(p);
  return p;
}
const ids = (p: ProbeResult, bench = false) => healthFindings(p, { benchmarking: bench }).map((f) => f.id);

describe('healthFindings', () => {
  it('a healthy board has no findings', () => {
    expect(ids(board(), true)).toEqual([]);
  });

  it('THP "always" → warn, with the madvise fix', () => {
    const f = healthFindings(board((p) => (p.thp.enabled = 'always')));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ id: 'thp-always', severity: 'warn' });
    expect(f[0]?.fix).toBe('echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled');
  });

  it('no swap and no zram → warn; swap already in use → info', () => {
    expect(ids(board((p) => ((p.memory.swapTotalBytes = 0), (p.memory.swapFreeBytes = 0), (p.swaps = []))))).toEqual([
      'no-swap',
    ]);
    expect(ids(board((p) => (p.memory.swapFreeBytes = p.memory.swapTotalBytes! - 200 * MiB)))).toEqual(['swap-in-use']);
  });

  it('governor: info normally, warn while benchmarking, naming the cluster', () => {
    const p = board((b) => (defined(b.cpu.policies[0]).governor = 'schedutil'));
    expect(healthFindings(p)[0]).toMatchObject({ id: 'cpu-governor', severity: 'info' });
    const w = healthFindings(p, { benchmarking: true })[0];
    expect(w).toMatchObject({ id: 'cpu-governor', severity: 'warn' });
    expect(w?.detail).toContain('policy0 (CPUs 0,1,2,3): schedutil');
  });

  it('scaling_max below cpuinfo_max → capped clocks', () => {
    const f = healthFindings(
      board((p) => (defined(p.cpu.policies[0]).maxKHz = 1_200_000)),
      { benchmarking: true },
    );
    expect(f.map((x) => x.id)).toEqual(['cpu-max-capped']);
    expect(f[0]?.detail).toContain('1.20 GHz of 1.80 GHz');
  });

  it('perf_event_paranoid > 1: warn for a normal user, info for root; perf missing or broken', () => {
    expect(healthFindings(board((p) => (p.perf.eventParanoid = 2)))[0]).toMatchObject({
      id: 'perf-paranoid',
      severity: 'warn',
    });
    expect(healthFindings(board((p) => ((p.perf.eventParanoid = 4), (p.uid = 0))))[0]).toMatchObject({
      id: 'perf-paranoid',
      severity: 'info',
    });
    expect(healthFindings(board((p) => (p.perf.eventParanoid = 2)))[0]?.fix).toContain(
      'sysctl -w kernel.perf_event_paranoid=1',
    );
    expect(ids(board((p) => (p.perf = { path: null, version: null, usable: null, eventParanoid: 3 })))).toEqual([
      'perf-missing',
    ]);
    expect(ids(board((p) => (p.perf.usable = false)))).toEqual(['perf-broken']);
  });

  it('cgroup limit below RAM → warn with the limit', () => {
    const f = healthFindings(
      board((p) =>
        Object.assign(p.cgroup, {
          version: 2,
          path: '/user.slice',
          memoryLimitBytes: 3 * GiB,
          limitSource: '/user.slice/memory.max',
        }),
      ),
    );
    expect(f.map((x) => x.id)).toEqual(['cgroup-memory-limit']);
    expect(f[0]?.title).toBe('Memory limited to 3.00 GiB by a cgroup (RAM is 8.00 GiB)');
  });

  it('low free memory: < 15 % or < 512 MiB warns, < 5 % or < 128 MiB is an error', () => {
    const at = (avail: number, total = 8 * GiB) =>
      healthFindings(board((p) => ((p.memory.availableBytes = avail), (p.memory.totalBytes = total))))
        .filter((f) => f.id === 'low-available-memory')
        .map((f) => f.severity);
    expect(at(1.3 * GiB)).toEqual([]); // 16 %
    expect(at(1.1 * GiB)).toEqual(['warn']); // 13.75 %
    expect(at(0.3 * GiB)).toEqual(['error']); // 3.75 %
    expect(at(400 * MiB, 1 * GiB)).toEqual(['warn']); // 39 % but under 512 MiB
    expect(at(100 * MiB, 1 * GiB)).toEqual(['error']); // under 128 MiB
  });

  it('hot before the run: within 10 °C of a passive/critical trip warns, at the trip is an error; active trips (fans) do not count', () => {
    const zone = (tempC: number, type: string) => (p: ProbeResult) =>
      (p.thermal = [
        {
          zone: 'thermal_zone0',
          type: 'cpu-thermal',
          tempC,
          unreadable: false,
          trips: [{ name: 'trip_point_0', type, tempC: 85 }],
        },
      ]);
    expect(healthFindings(board(zone(80, 'passive')))[0]).toMatchObject({
      id: 'thermal-hot-thermal_zone0',
      severity: 'warn',
    });
    expect(healthFindings(board(zone(86, 'critical')))[0]).toMatchObject({ severity: 'error' });
    expect(ids(board(zone(70, 'passive')))).toEqual([]);
    expect(ids(board(zone(84, 'active')))).toEqual([]);
  });

  it("a Jetson's PMIC-Die zone is an alarm, not a hot board: quiet at the driver's 100 °C, a PMIC alarm at 120 °C", () => {
    // thermal_zone4 of a real Jetson Nano (test/fixtures/thermal/jetson-nano-pmic-die) with the
    // trips of the max77620 thermal binding's example (hot 120 °C, critical 140 °C: the driver's two
    // alarm levels); 120 °C is the reading the driver gives once alarm 1 is set (a written value).
    const { types, milli } = nanoZones();
    const pmic = (tempC: number) => (p: ProbeResult) =>
      (p.thermal = [
        {
          zone: 'thermal_zone4',
          type: defined(types[4], 'zone 4'),
          tempC,
          unreadable: false,
          trips: [
            { name: 'trip_point_0', type: 'hot', tempC: 120 },
            { name: 'trip_point_1', type: 'critical', tempC: 140 },
          ],
        },
      ]);
    const nominal = defined(milli[4], 'PMIC-Die temp');
    expect(nominal).toBe(100000);
    expect(ids(board(pmic(nominal / 1000)))).toEqual([]);
    const raised = healthFindings(board(pmic(defined(pmicAlarmMilli()[1], 'alarm 1 reading') / 1000)));
    expect(raised.map((f) => [f.id, f.severity, f.title])).toEqual([
      ['pmic-alarm-thermal_zone4', 'warn', 'PMIC-Die: PMIC die-temperature alarm 1 (the die passed 120 °C) is raised'],
    ]);
  });

  it('Raspberry Pi get_throttled bits (corpus: 0x50005 = under-voltage + throttled now, both occurred)', () => {
    const p = parseProbeOutput(
      readFileSync(join(__dirname, '../../../fixtures/probe/raspberry-pi-3/probe-output.txt'), 'utf8'),
    );
    const f = healthFindings(p).filter((x) => x.id.startsWith('rpi-'));
    expect(f.map((x) => [x.id, x.severity])).toEqual([
      ['rpi-under-voltage', 'error'],
      ['rpi-throttled', 'warn'],
    ]);
    expect(f[1]?.title).toBe('Firmware throttling now: throttled');
    // 0x50000: nothing now, both in the past
    expect(
      healthFindings(board((b) => (b.raspberryPi.throttledBits = 0x50000))).map((x) => [x.id, x.severity]),
    ).toEqual([
      ['rpi-under-voltage', 'warn'],
      ['rpi-throttled', 'info'],
    ]);
    // 0x80008: soft temperature limit now and in the past
    expect(healthFindings(board((b) => (b.raspberryPi.throttledBits = 0x80008)))[0]?.title).toBe(
      'Firmware throttling now: soft temperature limit',
    );
  });

  it('Jetson: NvMap info and unreadable zones info (corpus captures)', () => {
    const tx2 = parseProbeOutput(
      readFileSync(join(__dirname, '../../../fixtures/probe/jetson-tx2/probe-output.txt'), 'utf8'),
    );
    expect(healthFindings(tx2).map((f) => f.id)).toContain('jetson-nvmap');
    const orin = parseProbeOutput(
      readFileSync(join(__dirname, '../../../fixtures/probe/jetson-orin/probe-output.txt'), 'utf8'),
    );
    const z = healthFindings(orin).find((f) => f.id === 'thermal-unreadable');
    expect(z?.title).toBe('3 thermal zone(s) could not be read');
  });

  it('the rest: overcommit 2, 16 KiB pages, no smaps_rollup, no node, low /tmp, busy board, devfreq governors', () => {
    expect(ids(board((p) => (p.vm.overcommitMemory = 2)))).toEqual(['overcommit-never']);
    expect(ids(board((p) => (p.pageSizeBytes = 16384)))).toEqual(['page-size']);
    expect(ids(board((p) => (p.smapsRollup = false)))).toEqual(['no-smaps-rollup']);
    expect(ids(board((p) => (p.tools = { node: null })))).toEqual(['node-missing']);
    expect(ids(board((p) => (p.tmpDisk!.availableBytes = 100 * MiB)))).toEqual(['tmp-low']);
    expect(
      ids(
        board((p) => (p.loadAvg = [3.1, 1, 1])),
        true,
      ),
    ).toEqual(['board-busy']);
    expect(
      ids(
        board((p) => (p.loadAvg = [3.1, 1, 1])),
        false,
      ),
    ).toEqual([]);
    const rk = parseProbeOutput(
      readFileSync(join(__dirname, '../../../fixtures/probe/rk3588-orange-pi-5/probe-output.txt'), 'utf8'),
    );
    const d = healthFindings(rk, { benchmarking: true }).find((f) => f.id === 'devfreq-governor');
    expect(d?.fix).toBe(
      'echo performance | sudo tee /sys/class/devfreq/dmc/governor && echo performance | sudo tee /sys/class/devfreq/fb000000.gpu/governor && echo performance | sudo tee /sys/class/devfreq/fdab0000.npu/governor',
    );
    // A device name is the board's word: the command a user copies quotes it, whatever it holds.
    const crafted = { ...rk, devfreq: rk.devfreq.map((f) => ({ ...f, name: `${f.name};reboot $(id) \`id\`\0` })) };
    const fix = healthFindings(crafted, { benchmarking: true }).find((f) => f.id === 'devfreq-governor')?.fix;
    expect(fix?.split(' && ')[0]).toBe(
      "echo performance | sudo tee '/sys/class/devfreq/dmc;reboot $(id) `id`/governor'",
    );
  });
});
