import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTegrastatsLine } from '../../../../shared/parsers/tegrastats-parser';
import type { TegrastatsRecord } from '../../../../shared/parsers/records';
import { diagnostics, fixture, GiB, KiB, MiB, ofKind, parse, parseFixture } from '../../../helpers/parser-test-kit';
import { noisePieces } from '../../../helpers/parser-noise';
import { corpusLines } from '../../../helpers/parser-corpus';

const tegra = (rel: string) => parseFixture('tegrastats', `tegrastats/${rel}`);
const records = (rel: string) => ofKind(tegra(rel), 'tegrastats');

/** The one record a single tegrastats line gives (parsed like every input here: whole and in chunks). */
const readOne = (line: string) => ofKind(parse('tegrastats', line), 'tegrastats')[0];
/** A capture's `index`th line that is not a comment (the SOURCE notes start with `#`). */
const realLine = (rel: string, index: number) =>
  fixture(`tegrastats/${rel}`)
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))[index] ?? '';
describe('tegrastats: real captures', () => {
  it("TX2 log written by a logger: its '[date time] : ' in front is the record's time, not unknown tokens", () => {
    const [r] = records('tx2-logger-stamp/tx2_2018_logger_bracket_stamp.txt');
    expect(r?.timestamp).toBe('[2018-08-23 16:30:36] :');
    expect(r?.localTimeIso).toBe('2018-08-23T16:30:36');
    expect(r?.partial).toBe(false);
    expect(r?.unknown).toEqual([]);
    // The values behind it, read by hand from the line.
    expect([r?.ramUsedBytes, r?.ramTotalBytes, r?.ramLfbBlocks]).toEqual([4923 * MiB, 7850 * MiB, 360]);
    expect(r?.cpus.map((c) => c?.loadPct)).toEqual([33, 42, 100, 22, 61, 43]);
    expect([r?.gpuLoadPct, r?.gpuFreqMHz, r?.emcLoadPct, r?.emcFreqMHz]).toEqual([22, 1300, 14, 1600]);
    expect(r?.tempsC.thermal).toBe(52.1);
    expect(r?.railsMw.VDD_IN).toEqual({ cur: 9273, avg: 9056 });
  });

  it("other loggers' times in front of a record: ISO with a 'T', a zone, a fraction, a '|' or none", () => {
    const line = (prefix: string) => readOne(`${prefix}RAM 1/2MB CPU [1%@102] thermal@40C`);
    expect(line('2024-03-01T10:00:05+01:00 ')?.localTimeIso).toBe('2024-03-01T10:00:05');
    expect(line('2024-03-01 10:00:05.25 | ')?.localTimeIso).toBe('2024-03-01T10:00:05.250');
    expect(line('[2024-03-01T10:00:05Z] ')?.localTimeIso).toBe('2024-03-01T10:00:05');
    expect(line('2024-03-01 10:00:05,123456 - ')?.localTimeIso).toBe('2024-03-01T10:00:05.123');
    for (const prefix of ['2024-03-01T10:00:05+01:00 ', '[2024-03-01 10:00:05] : ', '2024-03-01 10:00:05 '])
      expect([line(prefix)?.partial, line(prefix)?.unknown, line(prefix)?.ramUsedBytes]).toEqual([false, [], MiB]);
    // Not a time in front of a record: left as it was (unknown tokens, a partial record).
    const odd = line('[2024-03-01] ');
    expect([odd?.localTimeIso, odd?.partial]).toEqual([null, true]);
  });

  it('a wrapped record behind a logger time is joined like any record start', () => {
    const rs = ofKind(
      parse('tegrastats', '[2018-08-23 16:30:36] : RAM 4923/7850MB (lfb 360x4MB) CPU \n[33%@2034,42%@2033] BCPU@53C\n'),
      'tegrastats',
    );
    expect(rs).toHaveLength(1);
    expect([rs[0]?.localTimeIso, rs[0]?.cpus.length, rs[0]?.tempsC.BCPU]).toEqual(['2018-08-23T16:30:36', 2, 53]);
  });

  it("Nano with a program's output between the readings: its lines are diagnostics, never an engine (`Found 2 device(s):`)", () => {
    const all = tegra('nano-jp4-program-output-interleaved/effex-issue12-tegrastats-interval50.txt');
    const rs = ofKind(all, 'tegrastats');
    expect(rs.map((r) => [r.line, r.ramUsedBytes, r.partial, Object.keys(r.engines)])).toEqual([
      [9, 717 * MiB, false, ['APE']],
      [10, 717 * MiB, false, ['APE']],
      [11, 717 * MiB, false, ['APE']],
    ]);
    expect(rs[0]?.engines.APE).toEqual({ on: true, loadPct: null, freqMHz: 25, freqsMHz: null });
    // Every other line that is not blank: the prompt, `[1] 23590`, the tool's listing (twice).
    expect(diagnostics(all).map((d) => d.line)).toEqual([1, 2, 3, 4, 5, 7, 8, 12, 13, 14, 16]);
  });

  it('AGX Orin 64GB, JetPack 5/6 as root: -256C sensors dropped, two-GPC GR3D, duplicate NC rails', () => {
    const all = tegra('agx-orin-64gb-jp5/agx_orin_64gb_jp5_gdwr_issue14.txt');
    expect(diagnostics(all)).toEqual([]);
    const [r] = ofKind(all, 'tegrastats');
    expect(ofKind(all, 'tegrastats')).toHaveLength(1);
    expect(r?.line).toBe(7);
    expect(r?.timestamp).toBe('04-11-2025 10:36:27');
    expect(r?.localTimeIso).toBe('2025-04-11T10:36:27');
    expect(r?.ramUsedBytes).toBe(4321 * MiB);
    expect(r?.ramTotalBytes).toBe(62801 * MiB);
    expect([r?.ramLfbBlocks, r?.ramLfbBlockBytes]).toEqual([1759, 4 * MiB]);
    expect([r?.swapUsedBytes, r?.swapTotalBytes, r?.swapCachedBytes]).toEqual([19 * MiB, 31400 * MiB, 0]);
    expect(r?.cpus).toHaveLength(12);
    expect(r?.cpus.every((c) => c?.loadPct === 0 && c.freqMHz === 729)).toBe(true);
    expect([r?.emcLoadPct, r?.emcFreqMHz]).toEqual([0, 2133]);
    expect([r?.gpuLoadPct, r?.gpuFreqsMHz]).toEqual([0, [0, 0]]);
    expect(r?.engines.VIC).toEqual({ on: true, loadPct: null, freqMHz: 729, freqsMHz: null });
    expect(r?.engines.APE?.freqMHz).toBe(174);
    expect(r?.tempsC).toEqual({
      CPU: 44.562,
      Tboard: 32,
      SOC2: 40.093,
      Tdiode: 33,
      SOC0: 41.093,
      tj: 44.343,
      SOC1: 41.25,
    });
    expect(r?.sensorsOff).toEqual(['CV0', 'CV1', 'GPU', 'CV2']);
    expect(r?.railsMw).toEqual({
      VDD_GPU_SOC: { cur: 2340, avg: 2340 },
      VDD_CPU_CV: { cur: 390, avg: 390 },
      VIN_SYS_5V0: { cur: 4025, avg: 4025 },
      NC: { cur: 0, avg: 0 },
      VDDQ_VDD2_1V8AO: { cur: 301, avg: 301 },
      'NC#2': { cur: 0, avg: 0 },
    });
    expect(r?.unknown).toEqual([]);
    expect(r?.partial).toBe(false);
  });

  it('AGX Orin L4T 36.4.4: lowercase temperature names, NVENC load@clock, engines that are off', () => {
    const rs = records('agx-orin-64gb-l4t36.4.4/agx_orin_64gb_l4t36.4.4_lesomnus.txt');
    expect(rs.map((r) => r.line)).toEqual([7, 8, 9]);
    expect(rs.map((r) => r.timestamp)).toEqual(['05-09-2026 18:42:06', '05-09-2026 18:42:07', '05-09-2026 18:42:08']);
    const [a, b, c] = rs;
    expect(a?.ramUsedBytes).toBe(18207 * MiB);
    expect(b?.ramUsedBytes).toBe(18202 * MiB);
    expect(a?.cpus.slice(0, 4)).toEqual([
      { loadPct: 14, freqMHz: 2188 },
      { loadPct: 5, freqMHz: 2112 },
      { loadPct: 8, freqMHz: 2035 },
      { loadPct: 14, freqMHz: 2201 },
    ]);
    expect(c?.cpus[0]).toEqual({ loadPct: 14, freqMHz: 729 });
    expect(c?.cpus[7]).toEqual({ loadPct: 70, freqMHz: 1113 });
    expect([a?.emcLoadPct, a?.emcFreqMHz, c?.emcLoadPct]).toEqual([3, 2133, 2]);
    expect(a?.engines.NVENC).toEqual({ on: true, loadPct: 79, freqMHz: 166, freqsMHz: null });
    expect(c?.engines.NVENC).toEqual({ on: true, loadPct: 78, freqMHz: 179, freqsMHz: null });
    expect(a?.engines.VIC).toEqual({ on: true, loadPct: 36, freqMHz: 115, freqsMHz: null });
    for (const off of ['NVDEC', 'NVJPG', 'NVJPG1', 'OFA', 'NVDLA0', 'NVDLA1', 'PVA0'])
      expect(a?.engines[off]?.on).toBe(false);
    expect(a?.tempsC).toEqual({ cpu: 52.562, soc2: 48.437, soc0: 49.093, tj: 52.562, soc1: 49.656 });
    expect(b?.railsMw.VIN_SYS_5V0).toEqual({ cur: 4607, avg: 4657 });
    expect(c?.railsMw.VIN_SYS_5V0).toEqual({ cur: 4707, avg: 4674 });
  });

  it('AGX Xavier JetPack 4.2: rails named GPU/CPU next to temperatures named GPU/CPU; the shell prompt is a diagnostic', () => {
    const all = tegra('agx-xavier-jp4.2/agx_xavier_jp4.2_gtop_pr7.txt');
    expect(diagnostics(all)).toEqual([
      { kind: 'diagnostic', line: 7, reason: 'not a tegrastats line', text: 'agruet@gpu02:~$ tegrastats' },
    ]);
    const [r] = ofKind(all, 'tegrastats');
    expect(r?.line).toBe(8);
    expect([r?.ramUsedBytes, r?.ramTotalBytes, r?.ramLfbBlocks, r?.ramLfbBlockBytes]).toEqual([
      14700 * MiB,
      15692 * MiB,
      3,
      2 * MiB,
    ]);
    expect(r?.swapCachedBytes).toBe(23 * MiB);
    expect(r?.cpus).toEqual(Array(8).fill({ loadPct: 0, freqMHz: 1190 }));
    // Not root: no clocks.
    expect([r?.emcLoadPct, r?.emcFreqMHz, r?.gpuLoadPct, r?.gpuFreqMHz]).toEqual([0, null, 0, null]);
    expect(r?.tempsC).toEqual({
      AO: 30,
      GPU: 30.5,
      Tboard: 31,
      Tdiode: 32,
      AUX: 30.5,
      CPU: 31.5,
      thermal: 30.8,
      PMIC: 100,
    });
    expect(r?.railsMw).toEqual({
      GPU: { cur: 463, avg: 463 },
      CPU: { cur: 618, avg: 618 },
      SOC: { cur: 2936, avg: 2936 },
      CV: { cur: 0, avg: 0 },
      VDDRQ: { cur: 309, avg: 309 },
      SYS5V: { cur: 3306, avg: 3306 },
    });
  });

  it('Xavier NX and Nano under stress (JetPack 4.6): rail order varies, a run without rails, a truncated last token', () => {
    const rs = records('xavier-nx-and-nano-jp4.6/nano_tx2nx_xaviernx_aiblox_stresstest.txt');
    expect(rs.map((r) => r.line)).toEqual([9, 10, 11, 12, 14, 15, 16, 18, 19, 21, 22]);
    expect(rs[0]?.gpuLoadPct).toBe(99);
    expect(rs[0]?.railsMw).toEqual({
      VDD_IN: { cur: 14703, avg: 14683 },
      VDD_CPU_GPU_CV: { cur: 10874, avg: 10893 },
      VDD_SOC: { cur: 1405, avg: 1405 },
    });
    // The paste cut the last value: it is read as printed, the rest of the line is intact.
    expect(rs[3]?.railsMw.VDD_SOC).toEqual({ cur: 1405, avg: 140 });
    expect(rs[3]?.ramLfbBlocks).toBe(356);
    expect(rs[4]?.ramTotalBytes).toBe(3964 * MiB);
    expect(rs[4]?.cpus).toEqual(Array(4).fill({ loadPct: 100, freqMHz: 1479 }));
    expect(rs[4]?.tempsC).toEqual({ PLL: 41.5, CPU: 48, PMIC: 100, GPU: 63, AO: 54.5, thermal: 48.25 });
    expect(rs[4]?.railsMw).toEqual({
      POM_5V_GPU: { cur: 8949, avg: 8742 },
      POM_5V_IN: { cur: 3227, avg: 3086 },
      POM_5V_CPU: { cur: 3148, avg: 3134 },
    });
    expect(rs[5]?.gpuLoadPct).toBe(83);
    expect(rs[8]?.railsMw.VDD_IN).toEqual({ cur: 14664, avg: 13950 });
    expect([rs[9]?.ramUsedBytes, rs[9]?.ramTotalBytes, rs[9]?.swapCachedBytes]).toEqual([
      6774 * MiB,
      7773 * MiB,
      46 * MiB,
    ]);
    expect(rs[9]?.railsMw).toEqual({});
    expect(rs.every((r) => r.unknown.length === 0 && !r.partial)).toBe(true);
  });

  // JetPack 5+ prints every rail value with `mW`: a value without it after one with it is a line
  // cut there (a log copied while tegrastats wrote it). `VDD_SOC 1234mW/13` was read as 13 mW.
  it.each([
    ['the average', 'VDD_SOC 1234mW/13'],
    ['the current, unit and all', 'VDD_SOC 12'],
  ])('Orin Nano JetPack 6, the last rail cut in %s: that rail is left out, the rest is read', (_what, cutTail) => {
    const line = realLine('orin-nano-8gb-jp6/orin_nano_8gb_jp6_two_sources.txt', 0);
    expect(line.endsWith('VDD_SOC 1234mW/1392mW')).toBe(true);
    const r = readOne(line.replace(/VDD_SOC 1234mW\/1392mW$/, cutTail));
    expect(r?.railsMw).toEqual({
      VDD_IN: { cur: 4744, avg: 6179 },
      VDD_CPU_GPU_CV: { cur: 1273, avg: 2369 },
    });
    expect(r?.tempsC.tj).toBe(51.718);
  });

  it('Orin Nano JetPack 6: a non-root line, then a terminal-wrapped paste (starts mid-record, ends after "CPU ")', () => {
    const all = tegra('orin-nano-8gb-jp6/orin_nano_8gb_jp6_two_sources.txt');
    expect(diagnostics(all)).toEqual([]);
    const [full, headless, cut] = ofKind(all, 'tegrastats');
    expect(full?.line).toBe(6);
    expect(full?.partial).toBe(false);
    expect([full?.ramUsedBytes, full?.ramTotalBytes, full?.ramLfbBlocks]).toEqual([2513 * MiB, 7620 * MiB, 1]);
    expect(full?.cpus.map((c) => c!.loadPct)).toEqual([11, 7, 8, 4, 3, 14]);
    expect([full?.gpuLoadPct, full?.gpuFreqMHz, full?.emcLoadPct]).toEqual([0, null, null]);
    expect(full?.tempsC.gpu).toBe(51.593);
    expect(full?.railsMw.VDD_IN).toEqual({ cur: 4744, avg: 6179 });

    expect(headless?.line).toBe(14);
    expect(headless?.partial).toBe(true);
    expect(headless?.ramUsedBytes).toBeNull();
    expect(headless?.cpus.map((c) => c!.freqMHz)).toEqual([1728, 1728, 1728, 1728, 729, 729]);
    expect(headless?.unknown).toEqual(['**GR3D_FREQ', '99%**']);
    expect(headless?.tempsC.tj).toBe(55.093);
    expect(headless?.railsMw.VDD_SOC).toEqual({ cur: 5651, avg: 3175 });

    expect(cut?.line).toBe(15);
    expect(cut?.partial).toBe(true);
    expect([cut?.ramUsedBytes, cut?.ramLfbBlocks, cut?.ramLfbBlockBytes]).toEqual([7124 * MiB, 1, 1 * MiB]);
    expect([cut?.swapUsedBytes, cut?.swapTotalBytes, cut?.swapCachedBytes]).toEqual([
      3906 * MiB,
      20194 * MiB,
      159 * MiB,
    ]);
    expect(cut?.cpus).toEqual([]);
    expect(cut?.unknown).toEqual(['CPU']);
  });

  it('TX1, L4T 24 (oldest format): lowercase cpu with one shared clock, EMC/GR3D without _FREQ, EDP limit', () => {
    const [r] = records('tx1-l4t24/tx1_l4t24_gtop_comment.txt');
    expect(r?.line).toBe(7);
    expect([r?.ramUsedBytes, r?.ramTotalBytes, r?.swapUsedBytes]).toEqual([1104 * MiB, 3995 * MiB, null]);
    expect(r?.cpus).toEqual([
      { loadPct: 2, freqMHz: 1734 },
      { loadPct: 5, freqMHz: 1734 },
      { loadPct: 8, freqMHz: 1734 },
      { loadPct: 11, freqMHz: 1734 },
    ]);
    expect([r?.emcLoadPct, r?.emcFreqMHz, r?.gpuLoadPct, r?.gpuFreqMHz, r?.edpLimitMHz]).toEqual([
      0, 1600, 0, 998, 1734,
    ]);
    expect(r?.engines).toEqual({
      AVP: { on: true, loadPct: 1, freqMHz: 115, freqsMHz: null },
      NVDEC: { on: true, loadPct: null, freqMHz: 192, freqsMHz: null },
      MSENC: { on: true, loadPct: null, freqMHz: 192, freqsMHz: null },
    });
    expect([r?.tempsC, r?.railsMw, r?.unknown]).toEqual([{}, {}, []]);
  });

  it('TX2 L4T 28 as root: MTS, APE, unitless mW rails', () => {
    const rs = records('tx2-l4t28/tx2_l4t28_gustavz_issue24.txt');
    expect(rs.map((r) => r.line)).toEqual([6, 7, 8]);
    expect(rs[0]?.cpus.map((c) => c!.freqMHz)).toEqual([1303, 345, 345, 1419, 1420, 1421]);
    expect([rs[0]?.emcLoadPct, rs[0]?.emcFreqMHz, rs[0]?.gpuFreqMHz]).toEqual([0, 1866, 140]);
    expect([rs[0]?.mtsFgPct, rs[0]?.mtsBgPct, rs[1]?.mtsFgPct]).toEqual([1, 8, 0]);
    expect(rs[0]?.engines.APE?.freqMHz).toBe(150);
    expect(rs[0]?.tempsC).toEqual({
      BCPU: 41,
      MCPU: 41,
      GPU: 39,
      PLL: 41,
      Tboard: 37,
      Tdiode: 37.25,
      PMIC: 100,
      thermal: 39.9,
    });
    expect(rs[0]?.railsMw).toEqual({
      VDD_IN: { cur: 1931, avg: 1931 },
      VDD_CPU: { cur: 231, avg: 231 },
      VDD_GPU: { cur: 154, avg: 154 },
      VDD_SOC: { cur: 385, avg: 385 },
      VDD_WIFI: { cur: 38, avg: 38 },
      VDD_DDR: { cur: 326, avg: 326 },
    });
    expect([rs[1]?.emcLoadPct, rs[1]?.emcFreqMHz]).toEqual([16, 102]);
    expect(rs[2]?.railsMw.VDD_DDR).toEqual({ cur: 250, avg: 275 });
    expect(rs[2]?.tempsC.thermal).toBe(40.2);
  });

  it('TX2 L4T 32 without root: no SWAP field, JetPack-4 rail names', () => {
    const [r] = records('tx2-l4t32/tx2_l4t32_txutils_issue3.txt');
    expect(r?.line).toBe(6);
    expect([r?.ramUsedBytes, r?.ramTotalBytes, r?.swapTotalBytes]).toEqual([2020 * MiB, 7852 * MiB, null]);
    expect(r?.cpus.map((c) => c!.loadPct)).toEqual([9, 21, 25, 3, 1, 1]);
    expect(Object.keys(r?.railsMw ?? {})).toEqual([
      'VDD_SYS_GPU',
      'VDD_SYS_SOC',
      'VDD_4V0_WIFI',
      'VDD_IN',
      'VDD_SYS_CPU',
      'VDD_SYS_DDR',
    ]);
    expect(r?.railsMw.VDD_4V0_WIFI).toEqual({ cur: 633, avg: 527 });
    expect(r?.tempsC.Tdiode).toBe(41.25);
  });

  it('TX2 NX JetPack 4.6: offline cores are null, no rails at all', () => {
    const rs = records('tx2nx-jp4.6/tx2nx_jp4.6_jetsonstats_issue187.txt');
    expect(rs.map((r) => r.line)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(rs[0]?.cpus).toEqual([
      { loadPct: 3, freqMHz: 345 },
      null,
      null,
      { loadPct: 0, freqMHz: 345 },
      { loadPct: 1, freqMHz: 345 },
      { loadPct: 1, freqMHz: 345 },
    ]);
    expect(rs[5]?.cpus[3]).toEqual({ loadPct: 2, freqMHz: 345 });
    expect(rs.every((r) => Object.keys(r.railsMw).length === 0)).toBe(true);
    expect(rs[0]?.tempsC).toEqual({ PLL: 50.5, MCPU: 50.5, PMIC: 50, GPU: 50, BCPU: 50.5, thermal: 50.3 });
  });

  it('Xavier NX JetPack 4.1.1 and 5.1.2, Nano 4.6.1: GR3D@[F], IRAM with its glued "(lfb", lfb 2x2MB', () => {
    const [nx4, nx5, nano] = records('xavier-nx-jp4-jp5.1-nano-jp4.6/xavier_nx_and_nano_waggle_exporter.txt');
    expect([nx4?.line, nx5?.line, nano?.line]).toEqual([10, 11, 12]);
    expect([nx4?.gpuFreqMHz, nx4?.gpuFreqsMHz, nx4?.swapCachedBytes]).toEqual([1109, null, 280 * MiB]);
    expect(nx4?.railsMw.VDD_IN).toEqual({ cur: 6140, avg: 5510 });
    expect(nx5?.timestamp).toBe('07-09-2024 13:31:31');
    expect([nx5?.gpuLoadPct, nx5?.gpuFreqMHz, nx5?.gpuFreqsMHz]).toEqual([0, 114, [114]]);
    expect([nx5?.emcLoadPct, nx5?.emcFreqMHz]).toEqual([2, 204]);
    expect(nx5?.engines.VIC?.freqMHz).toBe(115);
    expect(nx5?.railsMw).toEqual({
      VDD_IN: { cur: 2763, avg: 2846 },
      VDD_CPU_GPU_CV: { cur: 650, avg: 670 },
      VDD_SOC: { cur: 650, avg: 711 },
    });
    expect([nano?.iramUsedBytes, nano?.iramTotalBytes, nano?.iramLfbBytes]).toEqual([0, 252 * KiB, 252 * KiB]);
    expect([nano?.ramLfbBlocks, nano?.ramLfbBlockBytes]).toEqual([2, 2 * MiB]);
    expect([nano?.gpuFreqMHz, nano?.engines.APE?.freqMHz]).toEqual([76, 25]);
    expect(nano?.railsMw.POM_5V_CPU).toEqual({ cur: 366, avg: 406 });
  });
});

describe('tegrastats: lines written from the format documentation', () => {
  it("NVIDIA's L4T reference table examples (RAM, SWAP, IRAM, per-core CPU, GR3D per GPC)", () => {
    // Fields as the L4T 32.5 "tegrastats Utility" table documents them, in one line.
    const r = readOne(
      'RAM 220/38955MB (lfb 847x4MB) SWAP 0/1978MB (cached 0MB) IRAM 0/252kB(lfb 252kB) CPU [1%@102,5%@102,0%@102,0%@102] EMC_FREQ 1%@1600 GR3D_FREQ 0%@[305,305] APE 150 MTS fg 0% bg 0%\n',
    );
    expect([r?.ramUsedBytes, r?.ramTotalBytes, r?.ramLfbBlocks]).toEqual([220 * MiB, 38955 * MiB, 847]);
    expect(r?.iramLfbBytes).toBe(252 * KiB);
    expect(r?.cpus).toEqual(
      Array(4)
        .fill(null)
        .map((_, i) => ({ loadPct: [1, 5, 0, 0][i], freqMHz: 102 })),
    );
    expect([r?.gpuLoadPct, r?.gpuFreqMHz, r?.gpuFreqsMHz]).toEqual([0, 305, [305, 305]]);
    expect([r?.mtsFgPct, r?.mtsBgPct]).toEqual([0, 0]);
  });

  it('JetPack 7 (Thor) shapes: clocks without load, three GPCs, cur/max temperatures, cur/avg/max rails', () => {
    const line =
      '09-01-2026 08:15:00 RAM 9000/125000MB (lfb 12x4MB) SWAP 0/0MB (cached 0MB) CPU [12%@2600,off,3%@972]@2600 EMC_FREQ @4266 GR3D_FREQ 40%@[1575,1575,1575] NVENC0_FREQ @0 VIC off cpu@52.968C/53.5C gpu@-256C tj@55.1C/56C VDD_GPU 12000mW/8000mW/15000mW VIN 60000mW/40000mW/90000mW';
    const r = readOne(line);
    expect(r?.cpus).toEqual([{ loadPct: 12, freqMHz: 2600 }, null, { loadPct: 3, freqMHz: 972 }]);
    expect([r?.emcLoadPct, r?.emcFreqMHz]).toEqual([null, 4266]);
    expect([r?.gpuLoadPct, r?.gpuFreqMHz, r?.gpuFreqsMHz]).toEqual([40, 1575, [1575, 1575, 1575]]);
    expect(r?.engines.NVENC0).toEqual({ on: true, loadPct: null, freqMHz: 0, freqsMHz: null });
    expect(r?.engines.VIC?.on).toBe(false);
    expect(r?.tempsC).toEqual({ cpu: 52.968, tj: 55.1 });
    expect(r?.tempsMaxC).toEqual({ cpu: 53.5, tj: 56 });
    expect(r?.sensorsOff).toEqual(['gpu']);
    expect(r?.railsMw.VDD_GPU).toEqual({ cur: 12000, avg: 8000, max: 15000 });
    expect(r?.railsMw.VIN).toEqual({ cur: 60000, avg: 40000, max: 90000 });
    expect(r?.unknown).toEqual([]);
  });

  it('the documented shared-clock form with blank entries, lfb in kB, runs of spaces, GB totals', () => {
    const r = readOne(
      'RAM   1536/3964MB  (lfb 1x512kB)   SWAP 1/2GB (cached 0MB)    CPU [25%,off,  ]@1479   GR3D 7%@76\n',
    );
    expect([r?.ramLfbBlocks, r?.ramLfbBlockBytes]).toEqual([1, 512 * KiB]);
    expect([r?.swapUsedBytes, r?.swapTotalBytes]).toEqual([1 * GiB, 2 * GiB]);
    // `off` is a parked core; a blank entry is one whose load and clock are unknown (not 0 %).
    expect(r?.cpus).toEqual([{ loadPct: 25, freqMHz: 1479 }, null, { loadPct: null, freqMHz: null }]);
    expect(r?.unknown).toEqual(['CPU[2]=']);
    expect([r?.gpuLoadPct, r?.gpuFreqMHz]).toEqual([7, 76]);
  });

  it('a record wrapped by an 80-column terminal is read once, whole, from two lines', () => {
    const line =
      '05-09-2026 18:42:06 RAM 18207/62841MB (lfb 466x4MB) SWAP 86/31420MB (cached 0MB) CPU [14%@2188,5%@2112,8%@2035,14%@2201] EMC_FREQ 3%@2133 GR3D_FREQ 0%@[0,0] cpu@52.562C VDD_GPU_SOC 2412mW/2412mW';
    const whole = ofKind(parse('tegrastats', line + '\n'), 'tegrastats');
    expect(whole[0]?.partial).toBe(false);
    // Cut between two tokens (the space stays on the second line), inside the CPU list, inside a number.
    for (const at of [80, 97, 108]) {
      const wrapped = parse('tegrastats', line.slice(0, at) + '\n' + line.slice(at) + '\n');
      expect(wrapped).toEqual(whole);
    }
    expect([line.slice(0, 80), line.slice(80, 97), line.slice(106, 108), line.slice(108, 111)]).toEqual([
      '05-09-2026 18:42:06 RAM 18207/62841MB (lfb 466x4MB) SWAP 86/31420MB (cached 0MB)',
      ' CPU [14%@2188,5%',
      '20',
      '35,',
    ]);
    // A paste that trimmed the space at the cut still joins (the gap is put back).
    const trimmed = parse(
      'tegrastats',
      'RAM 2020/3964MB (lfb 19x4MB) SWAP 43/1982MB (cached 1MB) CPU\n[100%@1479,100%@1479] GR3D_FREQ 99%\n',
    );
    expect(ofKind(trimmed, 'tegrastats')).toHaveLength(1);
    expect(ofKind(trimmed, 'tegrastats')[0]?.cpus).toEqual([
      { loadPct: 100, freqMHz: 1479 },
      { loadPct: 100, freqMHz: 1479 },
    ]);
  });

  it('a cut record followed by the next record is flushed as partial, and the next one is read on its own', () => {
    const rs = ofKind(
      parse('tegrastats', 'RAM 100/200MB (lfb 1x4MB) CPU\nRAM 101/200MB (lfb 1x4MB) CPU [1%@100]\n'),
      'tegrastats',
    );
    expect(rs.map((r) => [r.line, r.partial, r.ramUsedBytes])).toEqual([
      [1, true, 100 * MiB],
      [2, false, 101 * MiB],
    ]);
  });
});

describe('tegrastats: robustness', () => {
  it('never throws on lines made of tegrastats tokens in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...noisePieces('tegrastats')), { maxLength: 30 }), (line) => {
        const r = parseTegrastatsLine(line.join(' '), 1);
        expect(['tegrastats', 'diagnostic']).toContain(r.kind);
      }),
      { numRuns: 500 },
    );
  });

  it('a bracketed list none of whose entries reads is noise, not a sample (found in random bytes)', () => {
    expect(parseTegrastatsLine('[\u0019\u00fe,z\u00e9]', 7)).toMatchObject({
      kind: 'diagnostic',
      line: 7,
      reason: 'not a tegrastats line',
    });
    expect(parseTegrastatsLine('CPU [junk,??]', 1).kind).toBe('diagnostic');
    // One readable entry is a reading; the others are kept as unknown.
    const cpus = parseTegrastatsLine('CPU [junk,5%@1200]', 1);
    expect(cpus).toMatchObject({ kind: 'tegrastats', unknown: ['CPU[0]=junk'] });
    expect((cpus as TegrastatsRecord).cpus).toEqual([
      { loadPct: null, freqMHz: null },
      { loadPct: 5, freqMHz: 1200 },
    ]);
  });

  it('a number no board can print (a load above 100 %, more RAM in use than there is) is unknown, not a reading', () => {
    const r = readOne(
      'RAM 9000/7620MB (lfb 3x4MB) SWAP 0/3810MB (cached 0MB) CPU [150%@1500,2%@1500] GR3D_FREQ 250%@1300 EMC_FREQ 101% cpu@45.5C',
    );
    expect([r?.ramUsedBytes, r?.ramTotalBytes]).toEqual([null, null]);
    expect([r?.swapUsedBytes, r?.swapTotalBytes]).toEqual([0, 3810 * MiB]);
    expect(r?.cpus).toEqual([
      { loadPct: null, freqMHz: null },
      { loadPct: 2, freqMHz: 1500 },
    ]);
    expect([r?.gpuLoadPct, r?.emcLoadPct]).toEqual([null, null]);
    expect(r?.tempsC).toEqual({ cpu: 45.5 });
    expect(r?.unknown).toEqual(expect.arrayContaining(['CPU[0]=150%@1500', '9000/7620MB', '250%@1300', '101%']));
    // The limits themselves are readings: 100 % load, all of RAM in use.
    const full = readOne('RAM 7620/7620MB CPU [100%@1500] GR3D_FREQ 100%@1300');
    expect([full?.ramUsedBytes, full?.cpus, full?.gpuLoadPct]).toEqual([
      7620 * MiB,
      [{ loadPct: 100, freqMHz: 1500 }],
      100,
    ]);
  });

  // The line reader keeps its arrays (code units, token bounds) from line to line: a reader that
  // looked one character past its token would see what an earlier, longer line left there.
  it('a line reads the same whatever line was read before it', () => {
    const real = corpusLines('tegrastats').filter((l) => /\bRAM\s/.test(l));
    const leftover = fc.string({ unit: fc.constantFrom(...'0123456789,]%@C/mW)x.-'.split('')), minLength: 1 });
    fc.assert(
      fc.property(fc.constantFrom(...real), fc.nat(), leftover, (line, cutAt, junk) => {
        const cut = line.slice(0, cutAt % (line.length + 1));
        parseTegrastatsLine('', 1);
        const afterNothing = parseTegrastatsLine(cut, 1);
        // The earlier line: the same text, but every character from the cut on replaced by junk.
        parseTegrastatsLine(cut + junk.repeat(Math.ceil((line.length - cut.length + 8) / junk.length)), 1);
        expect(parseTegrastatsLine(cut, 1)).toEqual(afterNothing);
      }),
      { numRuns: 1000 },
    );
  });

  it('Unicode spaces separate tokens like ASCII ones (a line that is not ASCII is read another way)', () => {
    // Lines without a logger's time, whose pattern has a literal space between date and time.
    const real = corpusLines('tegrastats').filter((l) => /^\s*(?:\d\d-|RAM\s)/.test(l));
    expect(real.length).toBeGreaterThan(10);
    const space = fc.constantFrom('\u00a0', '\u1680', '\u2003', '\u200a', '\u2028', '\u202f', '\u3000', '\ufeff');
    fc.assert(
      fc.property(fc.constantFrom(...real), space, (line, sp) => {
        const ascii = parseTegrastatsLine(line, 1);
        expect(ascii.kind).toBe('tegrastats');
        expect(parseTegrastatsLine(line.replaceAll(' ', sp), 1)).toEqual(ascii);
      }),
      { numRuns: 300 },
    );
  });

  it('a token that is not ASCII is kept verbatim, lone surrogates included; the Kelvin sign is a k', () => {
    // parseTegrastatsLine: a lone surrogate has no UTF-8 form, so it cannot come through the splitter.
    const r = parseTegrastatsLine(
      'RAM 1/2MB SWAP 1/2\u212aB CPU [1%@5,\u00e9t\u00e9] x\u00e9\ud800y cpu@4\u00b0C gpu@-1.5C',
      1,
    ) as TegrastatsRecord;
    expect(r.unknown).toEqual(['CPU[1]=\u00e9t\u00e9', 'x\u00e9\ud800y', 'cpu@4\u00b0C']);
    expect(r.cpus).toEqual([
      { loadPct: 1, freqMHz: 5 },
      { loadPct: null, freqMHz: null },
    ]);
    // toLowerCase makes the Kelvin sign a `k`, so `\u212aB` is kB, as it always was.
    expect([r.swapUsedBytes, r.swapTotalBytes]).toEqual([KiB, 2 * KiB]);
    expect(r.tempsC).toEqual({ gpu: -1.5 });
  });

  it('counts lines: blank and comment lines advance the line number', () => {
    const rs = ofKind(
      parse('tegrastats', '# note\n\nRAM 1/2MB (lfb 1x4MB)\r\n\r\nRAM 1/2MB (lfb 1x4MB)'),
      'tegrastats',
    );
    expect(rs.map((r: TegrastatsRecord) => r.line)).toEqual([3, 5]);
  });
});
