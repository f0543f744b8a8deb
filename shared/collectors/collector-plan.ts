// Which collectors a run starts, at what interval: the registry's defaults, the request's
// per-collector settings (`RunRequest.collectors`, the CLI's `--no-<id>` and `--<id>-interval-ms`),
// and what the probe facts say the target has. Pure.
import type { CollectorDefinition } from './collector';
import { COLLECTORS, collectorById } from './registry';
import type { TargetFacts } from '../run/target-facts';

export interface CollectorSettings {
  enabled?: boolean;
  intervalMs?: number;
}

export interface PlannedCollector {
  def: CollectorDefinition;
  intervalMs: number;
}

export interface CollectorPlan {
  /** Started on the target, in registry order. */
  start: PlannedCollector[];
  /** Not started because the facts say they cannot run there. */
  unavailable: Array<{ id: string; status: 'absent' | 'denied'; reason: string }>;
}

/** Why these settings are wrong (an unknown collector, an interval out of its range), or null. */
export function collectorSettingsProblem(settings: Record<string, CollectorSettings> | undefined): string | null {
  for (const [id, s] of Object.entries(settings ?? {})) {
    const def = collectorById(id);
    if (!def) return `unknown collector "${id}" (known: ${COLLECTORS.map((c) => c.id).join(', ')})`;
    if (s.intervalMs === undefined) continue;
    if (def.interval === 'run') return `${id} samples at the run's --interval-ms; it has no interval of its own`;
    if (!intervalInRange(def, s.intervalMs))
      return `${id} interval ${s.intervalMs} ms is outside ${def.interval.minMs}..${def.interval.maxMs} ms`;
  }
  return null;
}

/** Whether a collector with an interval of its own may sample every `intervalMs` (the CLI and the run form ask). */
export function intervalInRange(def: CollectorDefinition, intervalMs: number): boolean {
  return def.interval !== 'run' && intervalMs >= def.interval.minMs && intervalMs <= def.interval.maxMs;
}

/**
 * Why the probe facts say `def` cannot run on the target ("absent": tegrastats on a Raspberry Pi),
 * or null, also when nothing is known yet (no probe: the run's script finds out). What the run
 * leaves out (planCollectors) and what the run form marks "not on this board" (CollectorFields.tsx).
 */
export function collectorUnavailable(
  def: CollectorDefinition,
  facts: TargetFacts | null,
): { status: 'absent' | 'denied'; reason: string } | null {
  return def.unavailable?.(facts) ?? null;
}

export function planCollectors(
  request: { intervalMs: number; collectors?: Record<string, CollectorSettings> },
  facts: TargetFacts | null,
): CollectorPlan {
  const plan: CollectorPlan = { start: [], unavailable: [] };
  for (const def of COLLECTORS) {
    const settings = request.collectors?.[def.id];
    if (settings?.enabled === false) continue;
    const missing = collectorUnavailable(def, facts);
    if (missing) {
      plan.unavailable.push({ id: def.id, ...missing });
      continue;
    }
    const intervalMs = def.interval === 'run' ? request.intervalMs : (settings?.intervalMs ?? def.interval.defaultMs);
    plan.start.push({ def, intervalMs });
  }
  return plan;
}

/** Each planned collector's interval by id: what run.json keeps (`collectorIntervalsMs`) and a recovered run judges its samples by. */
export function plannedIntervalsMs(planned: readonly PlannedCollector[]): Record<string, number> {
  return Object.fromEntries(planned.map((c) => [c.def.id, c.intervalMs]));
}
