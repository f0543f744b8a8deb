// The probe parser on outputs built from real board captures (test/fixtures/probe/SOURCE).
// Expected values are read off the captures by hand.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bracketedChoice,
  parseCpuList,
  parseMeminfo,
  parseProbeOutput,
  splitProbeSections,
} from '../../../../shared/probe/probe-parser';
import { ProbeResultSchema } from '../../../../shared/probe/probe-schema';

const fixture = (board: string, file = 'probe-output.txt') =>
  readFileSync(join(__dirname, '../../../fixtures/probe', board, file), 'utf8');
const KiB = 1024;

describe('probe parser on real captures', () => {
  it('Jetson TX2 meminfo: totals in bytes, NvMap keys, HugePages counts', () => {
    const p = parseProbeOutput(fixture('jetson-tx2'));
    expect(ProbeResultSchema.parse(p)).toEqual(p);
    expect(p.diagnostics).toEqual([]);
    expect(p.memory.totalBytes).toBe(8038788 * KiB);
    expect(p.memory.availableBytes).toBe(5642288 * KiB);
    expect(p.memory.availableEstimated).toBe(false);
    expect(p.memory.swapTotalBytes).toBe(4019376 * KiB);
    expect(p.memory.cmaTotalBytes).toBe(753664 * KiB);
    expect(p.memory.nvmapBytes).toEqual({ NvMapMemFree: 94784 * KiB, NvMapMemUsed: 805068 * KiB });
    expect(p.memory.meminfoKb.HugePages_Total).toBe(0);
    expect(p.memory.meminfoKb['Active(anon)']).toBe(1008140);
    expect(Object.keys(p.memory.meminfoKb)).toHaveLength(46);
  });

  it('OpenWrt kernel without MemAvailable: estimated from MemFree + Buffers + Cached', () => {
    const p = parseProbeOutput(fixture('openwrt-arm-128mb'));
    expect(p.memory.availableEstimated).toBe(true);
    expect(p.memory.availableBytes).toBe((80288 + 7652 + 21700) * KiB);
    expect(p.memory.swapTotalBytes).toBe(0);
  });

  it('whitespace squeezed by `tr -s " "` (Raspberry Pi 2/3)', () => {
    const p = parseProbeOutput(fixture('raspberry-pi-2-3'));
    expect(p.diagnostics).toEqual([]);
    expect(p.memory.totalBytes).toBe(949328 * KiB);
    expect(p.memory.availableBytes).toBe(884628 * KiB);
    expect(p.memory.swapFreeBytes).toBe(102392 * KiB);
  });

  it('Raspberry Pi Zero 2 W (kernel 6.12 keys)', () => {
    const p = parseProbeOutput(fixture('raspberry-pi-zero-2w'));
    expect(p.memory.totalBytes).toBe(426068 * KiB);
    expect(p.memory.meminfoKb.Zswapped).toBe(0);
    expect(p.memory.cmaTotalBytes).toBe(262144 * KiB);
  });

  it('Raspberry Pi 4 thermal zone with an active trip point, millidegrees → °C', () => {
    const p = parseProbeOutput(fixture('raspberry-pi-4'));
    expect(p.thermal).toEqual([
      {
        zone: 'thermal_zone0',
        type: 'cpu-thermal',
        tempC: 74.01,
        unreadable: false,
        trips: [{ name: 'trip_point_0', type: 'active', tempC: 70 }],
      },
    ]);
    expect(p.arch).toBe('aarch64');
  });

  it('Raspberry Pi 3: cpufreq in kHz, governor, and the firmware throttle bits', () => {
    const p = parseProbeOutput(fixture('raspberry-pi-3'));
    expect(p.cpu.policies).toEqual([
      {
        policy: 'policy0',
        cpus: [],
        governor: 'ondemand',
        availableGovernors: [],
        driver: null,
        curKHz: 1_200_000,
        minKHz: null,
        maxKHz: null,
        hwMinKHz: null,
        hwMaxKHz: null,
      },
    ]);
    expect(p.raspberryPi.throttledBits).toBe(0x50005);
    expect(p.thermal[0]?.tempC).toBe(42.932);
  });

  it('RK3588: three cpufreq policies, devfreq GPU/NPU/DRAM, seven zones with a critical trip', () => {
    const p = parseProbeOutput(fixture('rk3588-orange-pi-5'));
    expect(p.cpu.count).toBe(8);
    expect(p.cpu.policies.map((x) => [x.policy, x.cpus, x.hwMaxKHz])).toEqual([
      ['policy0', [0, 1, 2, 3], 1_800_000],
      ['policy4', [4, 5], 2_400_000],
      ['policy6', [6, 7], 2_400_000],
    ]);
    expect(p.devfreq.map((d) => [d.name, d.kind, d.governor, d.curHz])).toEqual([
      ['dmc', 'dram', 'dmc_ondemand', 528_000_000],
      ['fb000000.gpu', 'gpu', 'simple_ondemand', 300_000_000],
      ['fdab0000.npu', 'npu', 'rknpu_ondemand', 300_000_000],
    ]);
    expect(p.devfreq[0]?.availableHz).toEqual([528e6, 1068e6, 1560e6, 2112e6]);
    expect(p.thermal.map((z) => z.type)).toEqual([
      'soc-thermal',
      'bigcore0-thermal',
      'bigcore1-thermal',
      'littlecore-thermal',
      'center-thermal',
      'gpu-thermal',
      'npu-thermal',
    ]);
    expect(p.thermal[0]?.trips).toEqual([{ name: 'trip_point_0', type: 'critical', tempC: 115 }]);
    expect(p.thermal[3]?.tempC).toBe(27.8);
  });

  it('Jetson Orin: power-gated zones that answer EAGAIN are unreadable, not 0 °C', () => {
    const p = parseProbeOutput(fixture('jetson-orin'));
    const cv = p.thermal.filter((z) => z.type?.startsWith('cv'));
    expect(cv.map((z) => [z.type, z.tempC, z.unreadable])).toEqual([
      ['cv0-thermal', null, true],
      ['cv1-thermal', null, true],
      ['cv2-thermal', null, true],
    ]);
    expect(p.thermal.find((z) => z.type === 'tj-thermal')?.tempC).toBe(50.781);
  });
});

describe('probe parser on damaged input (never throws)', () => {
  it('CRLF, bad lines, a cut-off end: facts kept, diagnostics counted', () => {
    const p = parseProbeOutput(fixture('invalid', 'crlf-truncated.txt'));
    expect(p.arch).toBe('armv7l');
    expect(p.memory.totalBytes).toBe(1000 * KiB);
    expect(p.diagnostics.map((d) => [d.section, d.reason])).toEqual([
      ['end', 'probe output is incomplete (no end marker): the script was interrupted'],
      ['meminfo', 'unreadable meminfo line'],
      ['swaps', 'unreadable /proc/swaps line'],
    ]);
  });

  it('not probe output at all', () => {
    const p = parseProbeOutput(fixture('invalid', 'not-probe-output.txt'));
    expect(p.diagnostics[0]?.section).toBe('header');
    expect(p.memory.totalBytes).toBeNull();
    expect(p.cpu.policies).toEqual([]);
  });

  it('any string at all parses to a valid ProbeResult', () => {
    for (const text of [
      '',
      '\0\0\0',
      '@@kvscope:cpufreq@@\n=\n!\npolicy0/=x',
      '@@kvscope:thermal@@\nthermal_zone0/temp=-256000\n',
      '@@kvscope:cgroup@@\nv2:/memory.max=max\nv2:/a/memory.max=12\n',
    ]) {
      const p = parseProbeOutput(text);
      expect(ProbeResultSchema.safeParse(p).success).toBe(true);
    }
    // -256 °C is a sensor-off sentinel, not a temperature
    expect(parseProbeOutput('@@kvscope:thermal@@\nthermal_zone0/temp=-256000\n').thermal[0]?.tempC).toBeNull();
  });
});

describe('probe parser pieces', () => {
  it('cgroup v2: the smallest limit on the path up to the root; "max" is no limit', () => {
    const p = parseProbeOutput(
      [
        '@@kvscope:cgroup@@',
        'line=0::/user.slice/user-1000.slice/session-3.scope',
        'v2:/user.slice/user-1000.slice/session-3.scope/memory.max=max',
        'v2:/user.slice/user-1000.slice/memory.max=3221225472',
        'v2:/user.slice/user-1000.slice/memory.high=1073741824',
        'v2:/user.slice/memory.max=max',
      ].join('\n'),
    );
    expect(p.cgroup.version).toBe(2);
    expect(p.cgroup.path).toBe('/user.slice/user-1000.slice/session-3.scope');
    expect(p.cgroup.memoryLimitBytes).toBe(3221225472);
    expect(p.cgroup.limitSource).toBe('/user.slice/user-1000.slice/memory.max');
  });

  it('cgroup v1: page-counter maximum is unlimited; hierarchical_memory_limit counts', () => {
    const p = parseProbeOutput(
      [
        '@@kvscope:cgroup@@',
        'line=4:memory:/kv',
        'v1:hierarchical_memory_limit=536870912',
        'v1:/kv/memory.limit_in_bytes=9223372036854771712',
        'v1:/memory.limit_in_bytes=9223372036854771712',
      ].join('\n'),
    );
    expect(p.cgroup.version).toBe(1);
    expect(p.cgroup.memoryLimitBytes).toBe(536870912);
    expect(p.cgroup.levels.every((l) => l.limitBytes === null)).toBe(true);
  });

  it('swaps and zram: the zram device used as swap', () => {
    const p = parseProbeOutput(
      [
        '@@kvscope:swaps@@',
        'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority',
        '/dev/zram0                              partition\t1998844\t\t10240\t\t100',
        '@@kvscope:zram@@',
        'zram0/disksize=2046820352',
        'zram0/comp_algorithm=lzo lzo-rle lz4 lz4hc 842 [zstd]',
        'zram0/mm_stat=10485760 2621440 3145728 0 3145728 0 0 0 0',
      ].join('\n'),
    );
    expect(p.swaps).toEqual([
      { filename: '/dev/zram0', type: 'partition', sizeBytes: 1998844 * KiB, usedBytes: 10240 * KiB, priority: 100 },
    ]);
    expect(p.zram).toEqual([
      {
        device: 'zram0',
        disksizeBytes: 2046820352,
        algorithm: 'zstd',
        algorithms: ['lzo', 'lzo-rle', 'lz4', 'lz4hc', '842', 'zstd'],
        origDataBytes: 10485760,
        comprDataBytes: 2621440,
        usedAsSwap: true,
      },
    ]);
  });

  it('helpers', () => {
    expect(bracketedChoice('always [madvise] never')).toBe('madvise');
    expect(bracketedChoice('[always] madvise never')).toBe('always');
    expect(bracketedChoice('always defer defer+madvise [madvise] never')).toBe('madvise');
    expect(parseCpuList('0-3,6,8-9')).toEqual([0, 1, 2, 3, 6, 8, 9]);
    expect(parseCpuList('4 5')).toEqual([4, 5]);
    // A damaged list of 50,000 wide ranges (the fuzz's crash: 169 million entries): at most 8192 CPUs.
    expect(parseCpuList(Array(50_000).fill('0-99999').join(','))).toHaveLength(8192);
    expect(parseMeminfo(['HugePages_Total:       0', 'MemTotal: 949328 kB', 'garbage']).bad).toEqual(['garbage']);
    expect(splitProbeSections('junk\n@@kvscope:a@@\nx\n@@kvscope:b@@\n').get('a')).toEqual(['x']);
  });
});
