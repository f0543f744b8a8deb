// The tegrastats collector's parser on real tegrastats lines (test/fixtures/tegrastats/*, copied from
// ../shared/corpus/tegrastats with their SOURCE notes), stamped as the collector's script stamps them.
// Expected values are written by hand from the capture lines.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planCollectors } from '../../../../shared/collectors/collector-plan';
import { seriesOf } from '../../../../shared/collectors/registry';
import { createTegrastatsCollectorParser } from '../../../../shared/collectors/tegrastats-collector-parser';
import { projectRoot } from '../../../helpers/cli';

/** The capture lines of one fixture folder (provenance `#` lines left out). */
function captureLines(folder: string): string[] {
  const dir = join(projectRoot, 'test/fixtures/tegrastats', folder);
  const file = readdirSync(dir).find((f) => f.endsWith('.txt')) ?? '';
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

const MB = 1024 * 1024;

describe('tegrastats collector parser', () => {
  it('AGX Orin, L4T 36.4.4 (root): memory, cores, GPU, EMC, engines, temperatures and rails', () => {
    const line = captureLines('agx-orin-64gb-l4t36.4.4')[0] ?? '';
    const r = createTegrastatsCollectorParser().push(`t=5120.37 ${line}`);
    expect(r?.kind).toBe('sample');
    if (r?.kind !== 'sample') return;
    expect(r.uptimeMs).toBe(5_120_370);
    // 05-09-2026 18:42:06 RAM 18207/62841MB (lfb 466x4MB) SWAP 86/31420MB (cached 0MB) CPU [14%@2188,5%@2112,…,10%@1036]
    // EMC_FREQ 3%@2133 GR3D_FREQ 0%@[0,0] NVENC 79%@166 NVDEC off … VIC 36%@115 … APE 174 cpu@52.562C … tj@52.562C …
    // VDD_GPU_SOC 2412mW/2412mW VDD_CPU_CV 1607mW/1607mW VIN_SYS_5V0 4707mW/4707mW
    expect(r.values).toMatchObject({
      'tegra.ramUsedBytes': 18207 * MB,
      'tegra.ramTotalBytes': 62841 * MB,
      'tegra.lfbBlocks': 466,
      'tegra.lfbBlockBytes': 4 * MB,
      'tegra.swapUsedBytes': 86 * MB,
      'tegra.swapTotalBytes': 31420 * MB,
      'tegra.swapCachedBytes': 0,
      'tegra.cpu.0.loadPct': 14,
      'tegra.cpu.0.freqMHz': 2188,
      'tegra.cpu.11.loadPct': 10,
      'tegra.cpu.11.freqMHz': 1036,
      'tegra.emc.loadPct': 3,
      'tegra.emc.freqMHz': 2133,
      'tegra.gpu.loadPct': 0,
      'tegra.gpu.freqMHz': 0,
      'tegra.engine.NVENC.loadPct': 79,
      'tegra.engine.NVENC.freqMHz': 166,
      'tegra.engine.NVDEC.freqMHz': 0,
      'tegra.engine.VIC.loadPct': 36,
      'tegra.engine.VIC.freqMHz': 115,
      'tegra.engine.NVDLA1.freqMHz': 0,
      'tegra.engine.PVA0.freqMHz': 0,
      'tegra.engine.APE.freqMHz': 174,
      'tegra.temp.cpu.C': 52.562,
      'tegra.temp.tj.C': 52.562,
      'tegra.temp.soc2.C': 48.437,
      'tegra.rail.VDD_GPU_SOC.curmW': 2412,
      'tegra.rail.VIN_SYS_5V0.curmW': 4707,
      'tegra.rail.VIN_SYS_5V0.avgmW': 4707,
    });
    expect(r.values['tegra.cpu.12.loadPct']).toBeUndefined();
    // APE prints a clock and no load.
    expect(r.values['tegra.engine.APE.loadPct']).toBeUndefined();
    for (const key of Object.keys(r.values)) expect(seriesOf(key)?.sourceId, key).toBe('tegrastats');
  });

  it('TX2 NX (JetPack 4.6): offline cores read 0 % at 0 MHz; no rails, no engines', () => {
    const line = captureLines('tx2nx-jp4.6')[0] ?? '';
    const r = createTegrastatsCollectorParser().push(`t=1.5 ${line}`);
    expect(r).toMatchObject({
      kind: 'sample',
      uptimeMs: 1500,
      values: {
        'tegra.cpu.0.loadPct': 3,
        'tegra.cpu.0.freqMHz': 345,
        'tegra.cpu.1.loadPct': 0,
        'tegra.cpu.1.freqMHz': 0,
        'tegra.emc.loadPct': 0,
        'tegra.gpu.loadPct': 0,
        'tegra.temp.thermal.C': 50.3,
        'tegra.temp.PMIC.C': 50,
      },
    });
    if (r?.kind !== 'sample') return;
    // `EMC_FREQ 0%` (not root): a load, no clock.
    expect(r.values['tegra.emc.freqMHz']).toBeUndefined();
    expect(Object.keys(r.values).some((k) => k.startsWith('tegra.rail.'))).toBe(false);
  });

  it('a damaged core entry is no value at all, not an offline core at 0 % and 0 MHz', () => {
    const r = createTegrastatsCollectorParser().push('t=2 RAM 1000/7620MB CPU [1x%@1500,off,7%@1400]');
    expect(r).toMatchObject({ kind: 'sample', uptimeMs: 2000 });
    if (r?.kind !== 'sample') return;
    expect(
      Object.keys(r.values)
        .filter((k) => k.startsWith('tegra.cpu.'))
        .sort(),
    ).toEqual(['tegra.cpu.1.freqMHz', 'tegra.cpu.1.loadPct', 'tegra.cpu.2.freqMHz', 'tegra.cpu.2.loadPct']);
    expect([r.values['tegra.cpu.1.loadPct'], r.values['tegra.cpu.2.loadPct']]).toEqual([0, 7]);
  });

  it('TX1 (L4T 24): the shared clock of the old CPU list, EDP limit, engines with a bare clock', () => {
    const line = captureLines('tx1-l4t24')[0] ?? '';
    expect(createTegrastatsCollectorParser().push(`t=10 ${line}`)).toMatchObject({
      kind: 'sample',
      values: {
        'tegra.ramUsedBytes': 1104 * MB,
        'tegra.cpu.3.loadPct': 11,
        'tegra.cpu.3.freqMHz': 1734,
        'tegra.emc.freqMHz': 1600,
        'tegra.gpu.loadPct': 0,
        'tegra.gpu.freqMHz': 998,
        'tegra.engine.AVP.loadPct': 1,
        'tegra.engine.NVDEC.freqMHz': 192,
        'tegra.edpLimitMHz': 1734,
      },
    });
  });

  it('says absent or denied, and counts what it cannot read (never throws)', () => {
    const p = createTegrastatsCollectorParser();
    expect(p.push('H v=1 tegrastats=/usr/bin/tegrastats ms=1000 uid=0 sudo=')).toEqual({ kind: 'header' });
    expect(p.push('! denied tegrastats printed nothing as uid 1000: run the profile as root')).toEqual({
      kind: 'status',
      status: 'denied',
      reason: 'tegrastats printed nothing as uid 1000: run the profile as root',
    });
    for (const bad of ['RAM 1/2MB', 't=x RAM 1/2MB', 't=1.0 hello world', 't=1.0 ', '!!'])
      expect(p.push(bad)?.kind, bad).toBe('diagnostic');
  });

  it("another tool's output under the name tegrastats is no sample, though the lenient format reader finds a value in it", () => {
    const p = createTegrastatsCollectorParser();
    // `<NAME> <number>` reads as an engine's clock in a fragment (a name in lower or mixed case does
    // not: no release spells an engine so); a live line always starts with RAM.
    for (const line of ['t=1.0 hello WORLD 1796187657', 't=3.0 GR3D_FREQ 5%'])
      expect(p.push(line), line).toEqual({
        kind: 'diagnostic',
        reason: 'not a tegrastats reading (no RAM field)',
        text: line,
      });
  });

  it('the plan leaves it out where the probe found no tegrastats; unknown facts leave it to the target', () => {
    const none = planCollectors({ intervalMs: 200 }, { tools: { tegrastats: null } });
    expect(none.unavailable).toContainEqual({
      id: 'tegrastats',
      status: 'absent',
      reason: 'no tegrastats on PATH: not an NVIDIA Jetson, or L4T without its tegrastats',
    });
    const there = planCollectors({ intervalMs: 200 }, { tools: { tegrastats: '/usr/bin/tegrastats' } });
    expect(there.start.find((c) => c.def.id === 'tegrastats')?.intervalMs).toBe(1000);
    expect(planCollectors({ intervalMs: 200 }, null).start.map((c) => c.def.id)).toContain('tegrastats');
  });
});
