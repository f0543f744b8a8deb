// A "board" on the loopback sshd: shim `tegrastats` and `vcgencmd` (test/fixtures/shims, replaying
// real captures) first on the login's PATH, and an RK3588 sysfs/debugfs tree
// (test/fixtures/board-root/rk3588-orange-pi-5) as the board collectors' root through
// KVSCOPE_SYSFS_ROOT (docs/DEVELOPING.md). A real `kvscope profile … --demo --json` run over SSH:
// every board collector reports ok, and the session and its CSV export carry the replayed values
// exactly. Expected values are written by hand from the capture lines (see the fixtures' SOURCE).
// Then a run on this machine, which has no tegrastats: absent, with the reason.
// Needs `npm run build` (the demo engine bundle).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { projectRoot, runCli } from '../../helpers/cli';
import { csvColumns } from '../../helpers/csv-columns';
import { useTrustedSshd } from '../../helpers/ssh-suite';
import { markdownRow } from '../../helpers/markdown-rows';

const SHIMS = join(projectRoot, 'test/fixtures/shims/bin');
const RK3588 = join(projectRoot, 'test/fixtures/board-root/rk3588-orange-pi-5');
const MB = 1024 * 1024;
const DEMO = ['--demo', '--tokens', '3000', '--tps', '600', '--interval-ms', '200', '--weights-mb', '8'];
const INTERVALS = [
  '--tegrastats-interval-ms',
  '200',
  '--vcgencmd-interval-ms',
  '500',
  '--boardsysfs-interval-ms',
  '200',
];

interface Printed {
  collectors?: Record<string, { status: string; samples: number; diagnostics: number; reason?: string }>;
}

/** The get_throttled cycle of the shim (captures/vcgencmd-get_throttled.txt) and each value's bits, decoded by hand. */
const THROTTLED: Record<number, Record<string, number>> = {
  0x50005: { under: 1, underS: 1, capped: 0, cappedS: 0, thr: 1, thrS: 1, soft: 0, softS: 0 },
  0x50000: { under: 0, underS: 1, capped: 0, cappedS: 0, thr: 0, thrS: 1, soft: 0, softS: 0 },
  0x0: { under: 0, underS: 0, capped: 0, cappedS: 0, thr: 0, thrS: 0, soft: 0, softS: 0 },
  0x80008: { under: 0, underS: 0, capped: 0, cappedS: 0, thr: 0, thrS: 0, soft: 1, softS: 1 },
};
const CYCLE = [0x50005, 0x50000, 0x0, 0x80008];

describe('board collectors end to end', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-board-e2e-'));
  // The SSH sessions' TMPDIR: run directories and the vcgencmd shim's counters go there.
  const sshTmp = mkdtempSync(join(tmpdir(), 'kvscope-board-e2e-ssh-'));
  const sessionEnv = `PATH=${SHIMS}:/usr/local/bin:/usr/bin:/bin KVSCOPE_SYSFS_ROOT=${RK3588} TMPDIR=${sshTmp}`;
  const ssh = useTrustedSshd({ sshd: { extraConfig: [`SetEnv ${sessionEnv}`] } });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(sshTmp, { recursive: true, force: true });
  });

  it('over SSH: tegrastats, vcgencmd and board sysfs are ok; the session and the CSV carry the replayed values', async () => {
    const out = join(dir, 'board.kvscope');
    const r = await runCli(['profile', ...ssh.cliTarget(), ...DEMO, ...INTERVALS, '--out', out, '--json'], {
      timeoutMs: 90_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const printed = (JSON.parse(r.stdout) as Printed).collectors ?? {};
    for (const id of ['tegrastats', 'vcgencmd', 'boardsysfs']) {
      expect(printed[id], id).toMatchObject({ status: 'ok', diagnostics: 0 });
      expect(printed[id]?.samples, id).toBeGreaterThanOrEqual(3);
    }

    const run = readSession(out).runs[0];
    const of = (id: string) => run?.samples.filter((s) => s.source === id) ?? [];
    expect(of('tegrastats')).toHaveLength(printed.tegrastats?.samples ?? -1);

    // tegrastats: the capture's lines in order (Xavier NX under stress), first line first.
    const tegra = of('tegrastats');
    expect(tegra[0]?.values).toMatchObject({
      'tegra.ramUsedBytes': 1802 * MB,
      'tegra.ramTotalBytes': 7772 * MB,
      'tegra.gpu.loadPct': 99,
      'tegra.cpu.5.freqMHz': 1420,
      'tegra.temp.GPU.C': 44.5,
      'tegra.temp.thermal.C': 44.25,
      'tegra.rail.VDD_IN.curmW': 14703,
      'tegra.rail.VDD_CPU_GPU_CV.avgmW': 10893,
    });
    expect(tegra.slice(0, 3).map((s) => s.values['tegra.temp.thermal.C'])).toEqual([44.25, 43.9, 44.05]);

    // board sysfs on the RK3588 tree: the NPU's load per core and the devfreq clocks.
    const board = of('boardsysfs');
    expect(board[0]?.values).toMatchObject({
      'npu.core0.loadPct': 4,
      'npu.core2.loadPct': 0,
      'devfreq.fdab0000.npu.curFreqMHz': 300,
      'devfreq.dmc.maxFreqMHz': 2112,
      'trip.soc-thermal.0.C': 115,
    });

    // vcgencmd: every tick's bits decoded as written above, the ticks following the shim's cycle.
    const vc = of('vcgencmd');
    const bits = vc.map((s) => s.values['rpi.throttledBits'] as number);
    const start = CYCLE.indexOf(bits[0] ?? -1);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(bits).toEqual(bits.map((_, i) => CYCLE[(start + i) % CYCLE.length]));
    expect(bits).toContain(0x50005);
    for (const s of vc) {
      const want = THROTTLED[s.values['rpi.throttledBits'] as number] ?? {};
      expect(s.values).toMatchObject({
        'rpi.underVoltageNow': want.under,
        'rpi.underVoltageSticky': want.underS,
        'rpi.armFreqCappedNow': want.capped,
        'rpi.armFreqCappedSticky': want.cappedS,
        'rpi.throttledNow': want.thr,
        'rpi.throttledSticky': want.thrS,
        'rpi.softTempLimitNow': want.soft,
        'rpi.softTempLimitSticky': want.softS,
      });
    }
    // measure_temp and measure_clock arm are asked only by the ticks: their first lines first.
    expect(vc[0]?.values).toMatchObject({ 'rpi.soc.C': 80.8, 'rpi.armFreqMHz': 1500.345728 });

    // The CSV export: a column per series, the same numbers.
    const csvPath = join(dir, 'board.csv');
    const csv = await runCli(['report', out, '--format', 'csv', '-o', csvPath]);
    expect(csv.code, csv.stderr).toBe(0);
    const column = csvColumns(csvPath);
    expect(column('tegra.ramUsedBytes')[0]).toBe(String(1802 * MB));
    expect(column('tegra.rail.VDD_IN.curmW')[0]).toBe('14703');
    expect(column('tegra.gpu.loadPct')[0]).toBe('99');
    expect(column('tegra.temp.GPU.C')[0]).toBe('44.5');
    expect(column('npu.core0.loadPct')[0]).toBe('4');
    expect(column('rpi.soc.C')[0]).toBe('80.8');
    expect(column('rpi.throttledBits')).toContain(String(0x50005));
    expect(column('rpi.underVoltageNow')).toContain('1');

    // The Markdown report: the board's signals summed up, throttling and the energy per token.
    const mdPath = join(dir, 'board.md');
    const md = await runCli(['report', out, '-o', mdPath]);
    expect(md.code, md.stderr).toBe(0);
    const text = readFileSync(mdPath, 'utf8');
    const row = (label: string) => markdownRow(text, label);
    // GR3D_FREQ 99 % in each of the capture's lines.
    expect(row('GPU load (GR3D)')).toBe('low 99.0 % · mean 99.0 % · high 99.0 %');
    // VDD_IN 14703, 14703, 14664 mW: its mean over the decode lies between.
    expect(row('Energy per token')).toMatch(/^[\d.,]+ J\/token \(VDD_IN, 14,(?:66[4-9]|6[7-9]\d|70[0-3]) mW mean\)$/);
    // 0x50005 in the shim's get_throttled cycle: under-voltage and throttled now.
    expect(row('Why')).toContain('under-voltage (the power supply)');
  });

  it('on this machine (no tegrastats, no vcgencmd): absent, with the reason', async () => {
    const r = await runCli(['profile', 'local', ...DEMO.slice(0, 3), '--tps', '600', '--json'], {
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const printed = (JSON.parse(r.stdout) as Printed).collectors ?? {};
    expect(printed.tegrastats).toEqual({
      status: 'absent',
      samples: 0,
      diagnostics: 0,
      reason: 'no tegrastats on PATH: not an NVIDIA Jetson, or L4T without its tegrastats',
    });
    expect(printed.vcgencmd).toMatchObject({ status: 'absent', samples: 0 });
  });
});
