// `probeTarget`: every board fact in ONE exec (the script in probe-script.ts, fed to `sh -s` so
// that the user's login shell — bash, ash, zsh, fish — only has to run `sh -s`), parsed by the
// pure parser in shared/. Used by `kvscope probe`, the device check in the UI and the run
// summary's target facts.
import type { Target } from '../transport/target';
import { parseProbeOutput, PROBE_HEADER } from '../../../shared/probe/probe-parser';
import type { ProbeResult } from '../../../shared/probe/probe-schema';
import { PROBE_SCRIPT } from './probe-script';

/** A Pi Zero answers in ~0.5 s; 30 s leaves room for a hung NFS /tmp in `df`. */
export const PROBE_TIMEOUT_MS = 30_000;

export class ProbeError extends Error {
  readonly code = 'PROBE_FAILED';
}

export async function probeTarget(
  target: Target,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<ProbeResult> {
  const r = await target.exec('sh -s', {
    stdin: PROBE_SCRIPT,
    timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
    signal: options.signal,
  });
  const text = r.stdout.toString('utf8');
  if (!text.includes(PROBE_HEADER)) {
    const why = r.stderr.toString('utf8').trim().split('\n')[0] || `exit status ${r.code ?? r.signal}`;
    throw new ProbeError(`the probe script did not run on ${target.label}: ${why}`);
  }
  return parseProbeOutput(text);
}
