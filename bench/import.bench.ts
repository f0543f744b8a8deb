// `kvscope import`: an 8-hour 1 Hz tegrastats log (28,800 real AGX Orin lines, test/helpers/tegrastats-log.ts)
// streamed into a new session: in-process, and as the command a user types (node's and the CLI's
// start-up included; the CLI's bundle when `npm run build` has written a fresh one). Target: < 2 s.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importLog } from '../electron/node/import/import-log';
import { EIGHT_HOURS_LINES, orinLogLines } from '../test/helpers/tegrastats-log';
import type { BenchRow } from './bench-util';
import { freshCliBundle } from '../bin/cli-bundle.mjs';

const ROOT = join(import.meta.dirname, '..');

const RUNS = 3;

export async function benchImport(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-bench-import-'));
  try {
    const log = join(dir, 'orin-8h.log');
    writeFileSync(log, orinLogLines(EIGHT_HOURS_LINES).join('\n') + '\n');
    const times: number[] = [];
    let samples = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      samples = (await importLog('tegrastats', log, join(dir, `orin-8h-${i}.kvscope`))).samples;
      times.push(performance.now() - t0);
    }
    const best = Math.min(...times);
    const mib = (statSync(log).size / 1024 ** 2).toFixed(1);
    const command: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = spawnSync(
        process.execPath,
        [join(ROOT, 'bin/kvscope.mjs'), 'import', 'tegrastats', log, '--out', join(dir, `cli-${i}.kvscope`)],
        { encoding: 'utf8' },
      );
      command.push(performance.now() - t0);
      if (res.status !== 0) throw new Error(`kvscope import failed: ${res.stderr}`);
    }
    const bundled = freshCliBundle(ROOT) !== null;
    return [
      {
        name: 'kvscope import tegrastats 8 h (the command)',
        value: `${(Math.min(...command) / 1000).toFixed(2)} s`,
        note: `node bin/kvscope.mjs import tegrastats <log> --out <file>, wall time, best of ${RUNS}; ${bundled ? 'the CLI bundle (out/cli)' : 'the sources through tsx (no fresh out/cli: npm run build)'}; target < 2 s`,
      },
      {
        name: 'tegrastats 8 h @ 1 Hz → session',
        value: `${(best / 1000).toFixed(2)} s`,
        note: `${samples.toLocaleString('en-US')} samples from a ${mib} MiB log; best of ${RUNS}; target < 2 s`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
