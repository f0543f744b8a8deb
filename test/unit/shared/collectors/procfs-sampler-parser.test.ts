import { describe, expect, it } from 'vitest';
import {
  createProcfsSamplerParser,
  cpufreqCapKey,
  cpufreqKey,
  tempKey,
} from '../../../../shared/collectors/procfs-sampler-parser';

// Lines in the sampler's own format. The field values are real numbers read off
// /proc on the development VM (kernel 6.18, x86_64) and off the Raspberry Pi 4 capture in
// ../shared/corpus/thermal_cpufreq/04 (zone and policy values).
const HEADER =
  'H v=1 pid=4242 pagesize=4096 clk=100 zones=cpu-thermal,gpu-thermal,cpu-thermal, policies=policy0,policy4,';
const TICK1 =
  'S t=504.83 st=730,446,419,5,0,89,0 rss=1784 anon=108 file=1676 shmem=0 swap=0 hwm=1784 thr=1 pss=218 sanon=108 mt=24684096 ma=24255180 mf=24096460 ca=311056 swt=0 swf=0 nvmap= cpu=10752,0,3275,84030,2269,0,73,34 pc=10,5 tz0=48312 tz1= tz2=47000 cf0=1500000 cf1=600000';
const TICK2 =
  'S t=505.83 st=730,446,419,5,0,89,0 rss=1784 anon=108 file=1676 shmem=0 swap=0 hwm=1784 thr=1 mt=24684096 ma=24257748 mf=24098992 ca=311188 swt=0 swf=0 nvmap=2048 cpu=10852,0,3375,84830,2269,0,73,34 pc=60,5 tz0=49000 tz1= tz2=47100 cf0=1800000 cf1=600000';

describe('procfs sampler parser', () => {
  it('reads the header: page size, clock, zone types (repeats numbered) and policies', () => {
    const p = createProcfsSamplerParser();
    const r = p.push(HEADER);
    expect(r).toEqual({
      kind: 'header',
      header: {
        pid: 4242,
        pageSizeBytes: 4096,
        clockTicksPerSecond: 100,
        zoneTypes: ['cpu-thermal', 'gpu-thermal', 'cpu-thermal#2'],
        policies: ['policy0', 'policy4'],
      },
    });
  });

  it('turns kB and pages into bytes, temperatures into °C, EAGAIN zones into null', () => {
    const p = createProcfsSamplerParser();
    p.push(HEADER);
    const r = p.push(TICK1);
    if (r?.kind !== 'sample') throw new Error(`expected a sample, got ${JSON.stringify(r)}`);
    expect(r.uptimeMs).toBe(504830);
    expect(r.values.rssBytes).toBe(1784 * 1024);
    expect(r.values.rssAnonBytes).toBe(108 * 1024);
    expect(r.values.rssFileBytes).toBe(1676 * 1024);
    expect(r.values.pssBytes).toBe(218 * 1024);
    expect(r.values.vmSizeBytes).toBe(730 * 4096);
    expect(r.values.statmResidentBytes).toBe(446 * 4096);
    expect(r.values.memAvailableBytes).toBe(24255180 * 1024);
    expect(r.values.nvmapBytes).toBeNull();
    expect(r.values[tempKey('cpu-thermal')]).toBe(48.312);
    expect(r.values[tempKey('gpu-thermal')]).toBeNull();
    expect(r.values[tempKey('cpu-thermal#2')]).toBe(47);
    expect(r.values[cpufreqKey('policy0')]).toBe(1500000);
    // First tick: no previous /proc/stat to take a difference from.
    expect(r.values.cpuBusyPct).toBeUndefined();
  });

  it("reads a policy's cap (cm<i>, scaling_max_freq) where the line has it, and says none where it does not", () => {
    const p = createProcfsSamplerParser();
    p.push(HEADER);
    const r = p.push(`${TICK1} cm0=1200000`);
    if (r?.kind !== 'sample') throw new Error(`expected a sample, got ${JSON.stringify(r)}`);
    expect(r.values[cpufreqCapKey('policy0')]).toBe(1_200_000);
    expect(r.values).not.toHaveProperty(cpufreqCapKey('policy4'));
    expect(cpufreqCapKey('policy0')).toBe('cpufreq.policy0.max.KHz');
  });

  it("names the process of the engine's group it measured, and the group's size", () => {
    const p = createProcfsSamplerParser();
    p.push(HEADER);
    const r = p.push(TICK1.replace(/^S t=(\S+) /, 'S t=$1 pid=4242 grp=3 '));
    if (r?.kind !== 'sample') throw new Error(`expected a sample, got ${JSON.stringify(r)}`);
    expect(r.values.measuredPid).toBe(4242);
    expect(r.values.groupProcesses).toBe(3);
    const old = p.push(TICK1);
    if (old?.kind !== 'sample') throw new Error(`expected a sample, got ${JSON.stringify(old)}`);
    expect(old.values).not.toHaveProperty('measuredPid');
  });

  it('computes CPU busy % and the engine CPU % from deltas between ticks', () => {
    const p = createProcfsSamplerParser();
    p.push(HEADER);
    p.push(TICK1);
    const r = p.push(TICK2);
    if (r?.kind !== 'sample') throw new Error('expected a sample');
    // Δ: user 100, system 100, idle 800 → busy 200 of 1000 jiffies = 20 %.
    expect(r.values.cpuBusyPct).toBeCloseTo(20, 6);
    // Δ engine utime+stime = 50 ticks = 0.5 s of CPU in 1.0 s of uptime = 50 %.
    expect(r.values.engineCpuPct).toBeCloseTo(50, 6);
    // smaps_rollup fields are read every few ticks only: absent, not null.
    expect('pssBytes' in r.values).toBe(false);
    expect(r.values.nvmapBytes).toBe(2048 * 1024);
  });

  it('falls back to statm on kernels without RssAnon/RssFile (before 4.5)', () => {
    const p = createProcfsSamplerParser();
    p.push('H v=1 pid=7 pagesize=16384 clk=100 zones= policies=');
    const r = p.push(
      'S t=10.00 st=1000,600,100,1,0,500,0 rss= anon= file= shmem= swap= hwm= thr= mt=1 ma= mf=1 ca=1 swt=0 swf=0 nvmap= cpu=1,0,1,1,0,0,0,0 pc=0,0',
    );
    if (r?.kind !== 'sample') throw new Error('expected a sample');
    // 16 KiB pages (Apple/some arm64 kernels): resident 600 pages, shared 100.
    expect(r.values.rssBytes).toBe(600 * 16384);
    expect(r.values.rssFileBytes).toBe(100 * 16384);
    expect(r.values.rssAnonBytes).toBe(500 * 16384);
    expect(r.values.memAvailableBytes).toBeNull();
  });

  it('reports the end of the process and keeps unreadable lines as diagnostics', () => {
    const p = createProcfsSamplerParser();
    p.push(HEADER);
    expect(p.push('S t=99.5 gone=1')).toEqual({ kind: 'gone', uptimeMs: 99500 });
    expect(p.push('S rss=1')).toMatchObject({ kind: 'diagnostic', text: 'S rss=1' });
    expect(p.push('S t=1.0 rss=5')).toMatchObject({ kind: 'diagnostic', reason: 'sampler line without statm' });
    expect(p.push('garbage')).toMatchObject({ kind: 'diagnostic', text: 'garbage' });
    expect(p.push('H pagesize=x')).toMatchObject({ kind: 'diagnostic' });
    expect(p.push('')).toBeNull();
  });

  it('reads only the numbers the awk prints (a negative time found by the fuzz is a diagnostic)', () => {
    const p = createProcfsSamplerParser();
    p.push(HEADER);
    expect(p.push(TICK1.replace('t=504.83', 't=-1'))).toMatchObject({
      kind: 'diagnostic',
      reason: 'sampler line without a time',
    });
    const r = p.push(
      TICK2.replace('rss=1784', 'rss=0x1F')
        .replace('thr=1', 'thr=inf')
        .replace('tz0=49000', 'tz0=-5000')
        .replace('mt=24684096', 'mt=2.46841e+07'),
    );
    if (r?.kind !== 'sample') throw new Error(`expected a sample, got ${JSON.stringify(r)}`);
    // rss unreadable: statm's resident (`st=730,446,…`, pages) stands in; `inf` threads are no
    // reading; a zone below 0 °C is read; awk's %.6g of a large number is still a number.
    expect([r.values.rssBytes, r.values.threads, r.values[tempKey('cpu-thermal')], r.values.memTotalBytes]).toEqual([
      446 * 4096,
      null,
      -5,
      24684100 * 1024,
    ]);
  });
});
