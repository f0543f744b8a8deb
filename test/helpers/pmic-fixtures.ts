// Samples of Jetsons whose PMIC die zone reads an alarm level (shared/analysis/alarm-sensors.ts),
// from the fixtures' lines through the collectors' own parsers: the procfs sampler's thermal zones
// of a real Jetson Nano (test/fixtures/thermal/jetson-nano-pmic-die/), tegrastats lines of real
// boards (test/fixtures/tegrastats/). Shared by the throttle, report and dashboard tests.
import { readFileSync } from 'node:fs';
import type { Sample } from '../../shared/api/schemas';
import { createProcfsSamplerParser } from '../../shared/collectors/procfs-sampler-parser';
import { tegrastatsValues } from '../../shared/collectors/tegrastats-collector-parser';
import { parseTegrastatsLine } from '../../shared/parsers/tegrastats-parser';

const fixture = (path: string) => new URL(`../fixtures/${path}`, import.meta.url);

/** A fixture's lines without its `#` provenance notes and blank lines. */
export function fixtureLines(path: string): string[] {
  return readFileSync(fixture(path), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

/** The lines after `cat <…what>` up to the next `cat`. */
function catOutput(lines: readonly string[], what: RegExp): string[] {
  const start = lines.findIndex((l) => l.startsWith('cat ') && what.test(l));
  if (start < 0) throw new Error(`no cat of ${String(what)}`);
  const out: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.startsWith('cat ')) break;
    out.push(l);
  }
  return out;
}

const NANO = 'thermal/jetson-nano-pmic-die/nano_zones_ironsheep_issue22.txt';

/** The real Nano's zone types and temp files (millidegrees), in zone order. */
export function nanoZones(): { types: string[]; milli: number[] } {
  const lines = fixtureLines(NANO);
  return { types: catOutput(lines, /\/type$/), milli: catOutput(lines, /\/temp$/).map(Number) };
}

/** PMIC-Die's temp file, one line a second, as the driver's constants give it (written, not captured). */
export function pmicAlarmMilli(): number[] {
  return catOutput(
    fixtureLines('thermal/jetson-nano-pmic-die/pmic_die_alarm_written_from_driver.txt'),
    /thermal_zone4\/temp$/,
  ).map(Number);
}

/**
 * The procfs sampler's samples of the Nano, one tick a second: every zone as captured but
 * PMIC-Die, which reads `pmicMilli[i]` at tick i; cpufreq policy0 at `clockKHz[i]` (the last
 * one held). Through the sampler's own parser (shared/collectors/procfs-sampler-parser.ts).
 */
export function nanoSamplerSamples(pmicMilli: readonly number[], clockKHz: readonly number[]): Sample[] {
  const { types, milli } = nanoZones();
  const pmic = types.indexOf('PMIC-Die');
  const parser = createProcfsSamplerParser();
  parser.push(`H v=1 pid=4242 pagesize=4096 clk=100 zones=${types.join(',')} policies=policy0`);
  return pmicMilli.flatMap((reading, i) => {
    const zones = milli.map((m, z) => `tz${z}=${z === pmic ? reading : m}`).join(' ');
    const clock = clockKHz[Math.min(i, clockKHz.length - 1)] ?? 0;
    const r = parser.push(
      `S t=${100 + i} st=730,446,419,5,0,89,0 rss=1784 anon=108 file=1676 shmem=0 swap=0 hwm=1784 thr=1 mt=3964000 ma=2000000 mf=1000000 ca=500000 swt=0 swf=0 nvmap= cpu=${10000 + i * 100},0,3000,80000,2000,0,70,30 pc=${10 + i},5 ${zones} cf0=${clock}`,
    );
    return r?.kind === 'sample' ? [{ tMs: i * 1000, source: 'procfs', values: r.values }] : [];
  });
}

/** Samples of tegrastats lines (test/fixtures/tegrastats/…), one a second, through the collector's parser. */
export function tegrastatsSamples(lines: readonly string[]): Sample[] {
  return lines.map((text, i): Sample => {
    const r = parseTegrastatsLine(text, i + 1);
    if (r.kind !== 'tegrastats') throw new Error(`line ${i + 1} did not parse: ${text}`);
    return { tMs: i * 1000, source: 'tegrastats', values: tegrastatsValues(r) };
  });
}
