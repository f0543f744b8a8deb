// run.json: what a run directory on the target says about its run, written by RunController.start()
// next to the spool (electron/node/run/run-scripts.ts). The spool holds what happened; this holds
// what was asked and what the engine is (request, engine facts, collectors, label, start time),
// so that `kvscope recover` (electron/node/run/run-recovery.ts) can rebuild the run record of a
// run whose app died. Secrets are scrubbed before it leaves this process.
import { RunRequestSchema, type RunRequest } from '../../../shared/api/schemas';
import type { TargetFacts } from '../../../shared/run/target-facts';
import { scrubSecrets } from '../session/scrub';
import type { PreparedEngine } from './engine-setup';

export const RUN_MANIFEST_FILE = 'run.json';
const MANIFEST_VERSION = 1;

export interface RunManifest {
  version: typeof MANIFEST_VERSION;
  runId: string;
  label: string;
  startedAt: string;
  request: RunRequest;
  engine: PreparedEngine;
  /** Collectors launched on the target (their spool lines are `C <id> …`). */
  collectors: string[];
  /**
   * Each launched collector's interval (ms): what its pace is judged against. Absent in the run.json
   * of a KVScope before it; recovery then plans them again from the request and the target's facts.
   */
  collectorIntervalsMs?: Record<string, number>;
  /** Collectors the target's facts ruled out. */
  unavailable: Array<{ id: string; status: 'absent' | 'denied'; reason: string }>;
  target: TargetFacts | null;
}

export function runManifestText(manifest: RunManifest): string {
  return JSON.stringify(scrubSecrets(manifest)) + '\n';
}

/** The manifest, or why it cannot be used (never throws: a run directory is whatever the target holds). */
export function parseRunManifest(text: string): { manifest: RunManifest } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: `${RUN_MANIFEST_FILE} is not JSON` };
  }
  if (typeof raw !== 'object' || raw === null) return { problem: `${RUN_MANIFEST_FILE} is not an object` };
  const m = raw as Record<string, unknown>;
  if (m.version !== MANIFEST_VERSION)
    return { problem: `${RUN_MANIFEST_FILE} version ${String(m.version)} is unknown` };
  const request = RunRequestSchema.safeParse(m.request);
  if (!request.success) return { problem: `${RUN_MANIFEST_FILE}: the run request does not read` };
  const engine = m.engine as Record<string, unknown> | null;
  if (
    typeof m.runId !== 'string' ||
    typeof m.label !== 'string' ||
    typeof m.startedAt !== 'string' ||
    typeof engine !== 'object' ||
    engine === null ||
    typeof engine.displayCommand !== 'string' ||
    !Array.isArray(m.collectors) ||
    !m.collectors.every((c) => typeof c === 'string') ||
    !Array.isArray(m.unavailable)
  )
    return { problem: `${RUN_MANIFEST_FILE} lacks a field of its run` };
  const { collectorIntervalsMs: _intervals, ...fields } = m;
  const intervals = intervalsOf(m.collectorIntervalsMs);
  return {
    manifest: {
      ...(fields as unknown as RunManifest),
      ...(intervals ? { collectorIntervalsMs: intervals } : {}),
      request: request.data,
      target: (m.target ?? null) as TargetFacts | null,
    },
  };
}

/** The intervals as written, or null when they are not an object of positive numbers (then planned again). */
function intervalsOf(value: unknown): Record<string, number> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  return entries.every(([, ms]) => typeof ms === 'number' && Number.isFinite(ms) && ms > 0)
    ? Object.fromEntries(entries)
    : null;
}
