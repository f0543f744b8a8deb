// A real tegrastats capture (test/fixtures/tegrastats/<board>/, with its SOURCE note) as the samples a
// run holds: each reading turned into sample values the way the tegrastats collector does
// (shared/collectors/tegrastats-collector-parser.ts), stamped with the times a test gives it.
import type { Sample } from '../../shared/api/schemas';
import { tegrastatsValues } from '../../shared/collectors/tegrastats-collector-parser';
import { parseTegrastatsLine } from '../../shared/parsers/tegrastats-parser';
import { fixture } from './parser-test-kit';

/**
 * The capture's readings (lines with a RAM field, as the collector keeps; SOURCE comments, prompts and
 * cut-off fragments left out), the i-th at `tMs[i]`; there must be a reading for every time.
 */
export function captureSamples(rel: string, tMs: readonly number[]): Sample[] {
  const readings = fixture(`tegrastats/${rel}`)
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line, i) => parseTegrastatsLine(line, i + 1))
    .filter((r) => r.kind === 'tegrastats' && r.ramTotalBytes !== null);
  if (readings.length < tMs.length) throw new Error(`${rel}: ${readings.length} readings for ${tMs.length} times`);
  return tMs.map((t, i) => {
    const r = readings[i];
    if (r?.kind !== 'tegrastats') throw new Error(`${rel}: no reading ${i}`);
    return { tMs: t, source: 'tegrastats', values: tegrastatsValues(r) };
  });
}
