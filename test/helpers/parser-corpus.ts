// Real lines per parser format, from the fixtures (test/fixtures/<tool>/…, each with its SOURCE):
// the seeds of the pathological-input and fuzz tests of test/unit/shared/parsers.
// No test framework here: bench/parsers.bench.ts reads the same lines.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Fixture folders whose lines are real input of each format. */
const FORMAT_DIRS: Record<string, string[]> = {
  tegrastats: ['tegrastats'],
  perf: ['perf'],
  pmap: ['pmap'],
  smaps: ['proc/smaps-rollup-android-x86-centos8'],
  meminfo: ['proc/meminfo-tx2-pizero2w-openwrt-pi'],
  status: ['proc/status-kernel5.10-and-6.x'],
  statm: [],
  'llama-log': ['llama-cpp'],
  'llama-bench': ['llama-bench'],
  thermal: ['thermal'],
  vcgencmd: ['thermal/raspberry-pi-vcgencmd'],
  devfreq: ['board-sysfs', 'thermal/rk3588-orange-pi-5'],
  rknpu: ['board-sysfs', 'thermal/rk3588-orange-pi-5'],
  hwmon: ['board-sysfs', 'thermal/jetson-zones-eagain'],
};

/** statm has no fixture folder of its own: lines of /proc/<pid>/statm as proc(5) prints them. */
const STATM_LINES = ['4299 1006 512 12 0 1024 0', '102400 25600 1200 300 0 80000 0'];

function filesUnder(dir: string): string[] {
  return readdirSync(FIXTURES + dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== 'SOURCE')
    .map((e) => `${e.parentPath}/${e.name}`);
}

/** Distinct non-blank, non-comment lines of the format's fixtures (at most `max`, spread over the files). */
export function corpusLines(format: string, max = 400): string[] {
  if (format === 'statm') return STATM_LINES;
  const seen = new Set<string>();
  for (const dir of FORMAT_DIRS[format] ?? []) {
    for (const file of filesUnder(dir)) {
      for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
        const t = line.trim();
        if (t === '' || t.startsWith('#')) continue;
        seen.add(line);
      }
    }
  }
  const all = [...seen];
  if (all.length <= max) return all;
  const step = all.length / max;
  return Array.from({ length: max }, (_, k) => all[Math.floor(k * step)] ?? '');
}

/** The whole text of the format's first fixture file (for the no-newline case). */
export function corpusText(format: string): string {
  if (format === 'statm') return STATM_LINES.join('\n');
  const dir = FORMAT_DIRS[format]?.[0];
  const file = dir === undefined ? undefined : filesUnder(dir)[0];
  return file === undefined ? '' : readFileSync(file, 'utf8');
}

export const CORPUS_FORMATS = Object.keys(FORMAT_DIRS);
