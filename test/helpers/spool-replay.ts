// What a run's spool on the target holds, as the samples of the run recovered from it
// (RunController.replay): the reference a live run's samples are compared with. The run directory
// is kept after the run with KVSCOPE_KEEP_RUN_DIR=1 (electron/node/run/run-controller.ts).
import { readFileSync } from 'node:fs';
import type { Sample } from '../../shared/api/schemas';
import { RunController } from '../../electron/node/run/run-controller';
import { parseRunManifest } from '../../electron/node/run/run-manifest';
import { LocalTarget } from '../../electron/node/transport/local-target';

/** One string per sample (source, time, values), for comparing sample lists in order. */
export function sampleKeys(samples: readonly Sample[]): string[] {
  return samples.map((s) => `${s.source}@${s.tMs} ${JSON.stringify(s.values)}`);
}

/** The samples of the run recovered from the spool and run.json in `runDir` (a local path). */
export async function spooledSamples(runDir: string): Promise<Sample[]> {
  const manifest = parseRunManifest(readFileSync(`${runDir}/run.json`, 'utf8'));
  if (!('manifest' in manifest)) throw new Error(manifest.problem);
  const spool = readFileSync(`${runDir}/spool`, 'utf8');
  return (await RunController.replay(new LocalTarget(), manifest.manifest, spool)).samples;
}
