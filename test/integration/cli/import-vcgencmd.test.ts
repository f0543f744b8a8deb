// `kvscope import vcgencmd`: a Raspberry Pi's firmware readings logged by a shell loop → a session
// with the vcgencmd collector's series. The logs are real: pasted ones from the shared corpus
// (thermal_cpufreq/03), and loops run here by a real shell with the real `date` and the shim
// vcgencmd of the shim board (test/fixtures/shims: it replays real captures in order). Expected
// readings are read off those captures by hand; expected times off the stamps the loop printed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { projectRoot, runCli } from '../../helpers/cli';
import { defined } from '../../helpers/defined';
import { markdownRow } from '../../helpers/markdown-rows';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-import-vc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CORPUS = join(projectRoot, '../shared/corpus/thermal_cpufreq/03_raspberry_pi_vcgencmd_outputs.txt');
/** The lines of one lettered section of the corpus file, its `#` notes included (comments to the import). */
function corpusSection(letter: string): string {
  const text = readFileSync(CORPUS, 'utf8');
  const start = text.indexOf(`# ==== (${letter})`);
  const end = text.indexOf('# ==== (', start + 1);
  return text.slice(start, end);
}

/** A shell loop run here with the shim vcgencmd first on PATH, in the C locale: its output. */
function loopLog(script: string): string {
  const state = mkdtempSync(join(dir, 'shim-'));
  return execFileSync('sh', ['-c', script], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${join(projectRoot, 'test/fixtures/shims/bin')}:${process.env.PATH ?? ''}`,
      LC_ALL: 'C',
      KVSCOPE_SHIM_STATE: state,
    },
  });
}

async function importLog(text: string, name: string, ...more: string[]) {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, text);
  const out = join(dir, `${name}.kvscope`);
  const res = await runCli(['import', 'vcgencmd', log, '--out', out, ...more]);
  expect(res.code, res.stderr).toBe(0);
  const run = defined(readSession(out).runs[0], 'run');
  return { res, run };
}

const series = (run: { samples: ReadonlyArray<{ tMs: number; values: Record<string, number | null> }> }, key: string) =>
  run.samples.filter((s) => s.values[key] !== undefined).map((s) => [s.tMs, s.values[key]]);

describe('kvscope import vcgencmd', () => {
  it('a pasted loop of measure_temp and get_throttled (firmware#615): a tick per turn, timed by --interval', async () => {
    // temp=39.2'C / throttled=0x50000 / temp=38.6'C / temp=38.6'C / throttled=0x50005 / temp=38.6'C
    const { run } = await importLog(corpusSection('A'), 'pi3-615', '--interval', '2s');
    expect(run.samples.every((s) => s.source === 'vcgencmd')).toBe(true);
    expect(series(run, 'rpi.soc.C')).toEqual([
      [0, 39.2],
      [2000, 38.6],
      [4000, 38.6],
      [6000, 38.6],
    ]);
    // 0x50000: under-voltage and throttling since boot; 0x50005: both now too.
    expect(series(run, 'rpi.throttledBits')).toEqual([
      [0, 0x50000],
      [4000, 0x50005],
    ]);
    expect(series(run, 'rpi.underVoltageNow')).toEqual([
      [0, 0],
      [4000, 1],
    ]);
    expect(series(run, 'rpi.throttledSticky')).toEqual([
      [0, 1],
      [4000, 1],
    ]);
    expect(run.outcome?.collectors.vcgencmd).toMatchObject({ status: 'ok', samples: 4, diagnostics: 0 });
  });

  it('a pasted `date ; vcgencmd …` (Pi 4, en_GB date): the date lines time the ticks; another command’s output is kept', async () => {
    // Tue 23 Feb 10:01:53 GMT 2021 / frequency(48)=1500345728 / … / Tue 23 Feb 10:02:14 GMT 2021 /
    // frequency(48)=1000212864 / temp=80.8'C / GPIO 14: level=0 fsel=1 func=OUTPUT pull=NONE
    const { run } = await importLog(corpusSection('C'), 'pi4-135');
    expect(series(run, 'rpi.armFreqMHz')).toEqual([
      [0, 1500.345728],
      [21_000, 1000.212864],
    ]);
    expect(series(run, 'rpi.soc.C')).toEqual([[21_000, 80.8]]);
    expect(run.startedAt).toBe('2021-02-23T10:01:53.000Z');
    const kept = run.events.filter((e) => e.data?.text !== undefined);
    expect(kept.map((e) => [e.message, e.data?.text])).toEqual([
      ['line 14: not a vcgencmd reading', 'GPIO 14: level=0 fsel=1 func=OUTPUT pull=NONE'],
    ]);
  });

  it('an unlabelled clock of another block (firmware#656: measure_clock v3d, frequency(43)) is kept, not read as the ARM clock', async () => {
    // (C)'s two ARM clocks (frequency(48)), then (D)'s three `$ vcgencmd measure_clock v3d` and
    // their frequency(43) answers.
    const { run } = await importLog(corpusSection('C') + corpusSection('D'), 'pi4-v3d');
    expect(series(run, 'rpi.armFreqMHz').map(([, v]) => v)).toEqual([1500.345728, 1000.212864]);
    const kept = run.events.filter((e) => e.data?.text !== undefined).map((e) => e.data?.text);
    expect(kept.filter((t) => /^frequency\(43\)=/.test(String(t)))).toEqual([
      'frequency(43)=250000000',
      'frequency(43)=249999000',
      'frequency(43)=250000000',
    ]);
    expect(run.events.map((e) => e.message)).toContain(
      "line 19: the clock of block 43, not the ARM's (45, 48; 0 on a Pi 5)",
    );
  });

  it("a Pi 5's unlabelled 0 Hz (every block's id is 0 there; a stopped block reads 0) is kept, not read as the ARM stopped", async () => {
    // Written from the format: a Pi 5 prints frequency(0)=… for every block, and a stopped block
    // reads 0 Hz (the Pi 1 capture below: pwm, vec, dpi). A loop asking the ARM and then another block.
    const log = ["temp=52.1'C", 'frequency(0)=2400000000', 'frequency(0)=0', "temp=52.6'C", 'frequency(0)=1500000000'];
    const { run } = await importLog(log.join('\n') + '\n', 'pi5-zero', '--interval', '1s');
    expect(series(run, 'rpi.armFreqMHz').map(([, v]) => v)).toEqual([2400, 1500]);
    expect(run.events.map((e) => e.message)).toContain("line 3: a clock at 0 Hz (a stopped block), not the ARM's");
  });

  // A Pi 1's loops over every clock and rail and its get_mem, as a blog printed them (firmware of
  // Dec 2014; lakeheart879 on CSDN, 2017; its typographic ’ in `temp=43.3’C` as pasted). Every
  // line but that one was read, and they were counted as 18 unreadable lines; get_mem's two said
  // nothing at all.
  const PI1_LOOPS = [
    'arm:\tfrequency(45)=700000000',
    'core:\tfrequency(1)=250000000',
    'h264:\tfrequency(28)=250000000',
    'isp:\tfrequency(42)=250000000',
    'v3d:\tfrequency(43)=250000000',
    'uart:\tfrequency(22)=3000000',
    'pwm:\tfrequency(25)=0',
    'emmc:\tfrequency(47)=250000000',
    'pixel:\tfrequency(29)=108000000',
    'vec:\tfrequency(10)=0',
    'hdmi:\tfrequency(9)=163682000',
    'dpi:\tfrequency(4)=0',
    'core:\tvolt=1.200V',
    'sdram_c:\tvolt=1.200V',
    'sdram_i:\tvolt=1.200V',
    'sdram_p:\tvolt=1.225V',
    'temp=43.3’C',
    'arm=448M',
    'gpu=64M',
  ].join('\n');

  it("a Pi 1's loops over every clock, rail and get_mem: read readings KVScope keeps no series of are counted apart from the unreadable", async () => {
    const { res, run } = await importLog(PI1_LOOPS + '\n', 'pi1-loops', '--json');
    expect(series(run, 'rpi.armFreqMHz')).toEqual([[0, 700]]);
    // 11 other clocks, 4 rails and get_mem's 2 lines were read and are not kept; the ’C is unreadable.
    expect(JSON.parse(res.stdout)).toMatchObject({ samples: 1, readingsNotKept: 17, diagnostics: 1 });
    expect(res.stderr).toContain(
      'kvscope import: 1 sample(s), 17 line(s) of readings KVScope keeps no series of (other clocks, volts), 1 unreadable line(s)',
    );
    expect(run.outcome?.collectors.vcgencmd).toMatchObject({ status: 'ok', samples: 1, diagnostics: 1 });
    const byLine = new Map(run.events.map((e) => [(e.message ?? '').split(':')[0], e.message]));
    expect(byLine.get('line 18')).toBe(
      'line 18: a vcgencmd reading KVScope keeps no series of (measure_volts, get_mem, pmic_read_adc)',
    );
    expect(byLine.get('line 17')).toMatch(/^line 17: /);
    // parse reads get_mem too: arm and gpu in bytes.
    const parsed = await runCli(['parse', 'vcgencmd', join(dir, 'pi1-loops.log')]);
    const mem = parsed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.kind === 'vc-mem');
    expect(mem).toEqual([
      { kind: 'vc-mem', line: 18, type: 'arm', bytes: 448 * 1024 * 1024 },
      { kind: 'vc-mem', line: 19, type: 'gpu', bytes: 64 * 1024 * 1024 },
    ]);
  });

  it('a loop of `date`, measure_temp, measure_clock arm and get_throttled lines, run here', async () => {
    const text = loopLog(
      'for i in 1 2 3; do date; vcgencmd measure_temp; vcgencmd measure_clock arm; vcgencmd get_throttled; sleep 1; done',
    );
    // The dates as printed (`Sun Dec  6 07:05:01 UTC 2026`): their seconds apart, read here by hand.
    const dates = text.split('\n').filter((l) => /^[A-Z][a-z]{2} /.test(l));
    expect(dates).toHaveLength(3);
    const secondOf = (l: string) => {
      const [h, m, s] = (/(\d\d):(\d\d):(\d\d)/.exec(l) ?? []).slice(1).map(Number);
      return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
    };
    // (A loop over midnight: the next day's seconds.)
    const at = dates.map((l) => ((secondOf(l) - secondOf(dates[0] ?? '') + 86_400) % 86_400) * 1000);
    const { run } = await importLog(text, 'loop-date');
    // The shim's captures in order: 80.8, 62.3, 39.2 °C; 1500345728, 1000212864, 1400000000 Hz;
    // 0x50005, 0x50000, 0x0.
    expect(series(run, 'rpi.soc.C')).toEqual([
      [at[0], 80.8],
      [at[1], 62.3],
      [at[2], 39.2],
    ]);
    expect(series(run, 'rpi.armFreqMHz')).toEqual([
      [at[0], 1500.345728],
      [at[1], 1000.212864],
      [at[2], 1400],
    ]);
    expect(series(run, 'rpi.throttledBits')).toEqual([
      [at[0], 0x50005],
      [at[1], 0x50000],
      [at[2], 0],
    ]);
    expect(run.outcome?.diagnostics).toBe(0);
    // The first date, as the board's wall clock.
    expect(run.startedAt.slice(11, 19)).toBe(/(\d\d:\d\d:\d\d)/.exec(dates[0] ?? '')?.[1]);
  });

  it('a one-line loop with `date +%T` in front of the readings, run here; a measure_clock of another block is kept, not read as the ARM clock', async () => {
    const text = loopLog(
      `for i in 1 2 3; do printf '%s ' "$(date +%T)"; vcgencmd measure_temp | tr '\\n' ' '; vcgencmd get_throttled; sleep 1; done; echo "core: frequency(1)=400000000"`,
    );
    const lines = text.trim().split('\n');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d temp=80\.8'C throttled=0x50005$/);
    const seconds = lines.slice(0, 3).map((l) => l.slice(0, 8).split(':').map(Number));
    const at = seconds.map(([h, m, s]) => {
      const [h0, m0, s0] = seconds[0] ?? [];
      const apart = ((h ?? 0) - (h0 ?? 0)) * 3600 + ((m ?? 0) - (m0 ?? 0)) * 60 + ((s ?? 0) - (s0 ?? 0));
      return ((apart + 86_400) % 86_400) * 1000;
    });
    const { run } = await importLog(text, 'loop-prefix');
    expect(series(run, 'rpi.soc.C')).toEqual([
      [at[0], 80.8],
      [at[1], 62.3],
      [at[2], 39.2],
    ]);
    expect(series(run, 'rpi.throttledBits')).toEqual([
      [at[0], 0x50005],
      [at[1], 0x50000],
      [at[2], 0],
    ]);
    expect(series(run, 'rpi.armFreqMHz')).toEqual([]);
    const kept = run.events.filter((e) => e.data?.text !== undefined);
    expect(kept.map((e) => e.message)).toEqual(["line 4: the core clock (KVScope keeps the ARM clock's)"]);
  });

  it('its report says what throttling did and sums each firmware signal up', async () => {
    // firmware#615: temp=39.2'C, 38.6, 38.6, 38.6; throttled=0x50000 then 0x50005 (under-voltage
    // now, bit 0, and throttled now, bit 2, both also since boot).
    const { res: imported } = await importLog(corpusSection('A'), 'pi3-615-report');
    expect(imported.code).toBe(0);
    const md = join(dir, 'pi3-615-report.md');
    const res = await runCli(['report', join(dir, 'pi3-615-report.kvscope'), '-o', md]);
    expect(res.code, res.stderr).toBe(0);
    const text = readFileSync(md, 'utf8');
    const row = (label: string) => markdownRow(text, label);
    expect(row('Why')).toBe('throttled by the firmware; under-voltage (the power supply)');
    expect(row('Throttled')).toMatch(/, in 1 interval$/);
    expect(row('SoC temperature (firmware)')).toBe('low 38.6 °C · mean 38.8 °C · high 39.2 °C');
    expect(row('get_throttled bits')).toBe('0x50000, 0x50005 (seen in 2 samples)');
    expect(row('under-voltage now')).toBe('set in 1 of 2 samples');
    expect(row('under-voltage since boot')).toBe('set in 2 of 2 samples');
    expect(row('soft temperature limit now')).toBe('never set (2 samples)');

    // The HTML report draws the temperature with the throttled interval shaded.
    const html = join(dir, 'pi3-615-report.html');
    expect((await runCli(['report', join(dir, 'pi3-615-report.kvscope'), '-o', html])).code).toBe(0);
    const figure = /<figure><figcaption>Temperatures over time<\/figcaption>([\s\S]*?)<\/figure>/.exec(
      readFileSync(html, 'utf8'),
    )?.[1];
    expect(figure).toBeDefined();
    expect(figure?.match(/<polyline /g)).toHaveLength(1);
    expect(figure).toContain('>SoC temperature (firmware)</text>');
    expect(figure).toContain('>throttled</text>');
    // One band in the plot, one swatch in the legend.
    expect(figure?.match(/fill="#fff1e5"/g)).toHaveLength(2);
  });

  it('a log with no vcgencmd reading is refused, nothing written', async () => {
    const log = join(dir, 'none.log');
    writeFileSync(log, 'GPIO 14: level=0 fsel=1 func=OUTPUT pull=NONE\n');
    const res = await runCli(['import', 'vcgencmd', log, '--out', join(dir, 'none.kvscope')]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toBe(`kvscope import: ${log}: nothing to import (none of its 1 lines is a vcgencmd reading)\n`);
  });
});
