// A long tegrastats log built from real lines, for `kvscope import` (test/integration/cli/import.test.ts,
// bench/import.bench.ts): the AGX Orin 64 GB L4T 36.4.4 capture's three lines, repeated, each with
// tegrastats' `MM-DD-YYYY HH:MM:SS` moved on one second per line, as tegrastats at 1 Hz prints it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './cli';
import { defined } from './defined';

export const ORIN_CAPTURE = join(
  projectRoot,
  'test/fixtures/tegrastats/agx-orin-64gb-l4t36.4.4/agx_orin_64gb_l4t36.4.4_lesomnus.txt',
);
/** 8 h at tegrastats' default 1 Hz. */
export const EIGHT_HOURS_LINES = 28_800;
/** The capture's first time, `05-09-2026 18:42:06`. */
const START_MS = Date.UTC(2026, 4, 9, 18, 42, 6);
const STAMP_CHARS = '05-09-2026 18:42:06'.length;

/** A capture's lines without its SOURCE comments and blank lines. */
export function realLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

function stamp(tMs: number): string {
  const d = new Date(START_MS + tMs);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** `count` lines: line i is the capture's line i % 3 stamped START + i s. */
export function orinLogLines(count: number): string[] {
  const orin = realLines(ORIN_CAPTURE);
  return Array.from(
    { length: count },
    (_, i) => `${stamp(i * 1000)}${defined(orin[i % orin.length], 'capture line').slice(STAMP_CHARS)}`,
  );
}
