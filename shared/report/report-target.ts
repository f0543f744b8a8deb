// The target section of a report: the facts of the board a session ran on (from its probe, or
// the simple facts of a local run) as rows, and the board-level findings of a full probe.
import type { Severity } from '../analysis/findings';
import { formatFact } from '../format/text';
import { formatBytes } from '../format/units';
import { healthFindings } from '../probe/health';
import { ProbeResultSchema, type HealthFinding } from '../probe/probe-schema';
import type { Finding } from './finding-text';

/** One labelled value of a report table (target facts, run sections, sweep rows). */
export interface Row {
  label: string;
  value: string;
}

/** Path into the target facts (probe result, or the simple local facts) → a row. */
const FACT_ROWS: Array<{ label: string; paths: string[][]; format?: 'bytes' | 'limit' }> = [
  { label: 'Target', paths: [['label']] },
  { label: 'Connection', paths: [['kind']] },
  { label: 'Host name', paths: [['hostname']] },
  { label: 'Board', paths: [['boardModel'], ['model']] },
  { label: 'OS', paths: [['distro'], ['os']] },
  { label: 'Kernel', paths: [['kernel']] },
  { label: 'Architecture', paths: [['arch']] },
  { label: 'CPU', paths: [['cpu', 'modelName']] },
  { label: 'CPU cores', paths: [['cpu', 'count'], ['cores']] },
  { label: 'Memory', paths: [['memory', 'totalBytes'], ['memTotalBytes']], format: 'bytes' },
  { label: 'Memory available at start', paths: [['memory', 'availableBytes']], format: 'bytes' },
  { label: 'Swap', paths: [['memory', 'swapTotalBytes']], format: 'bytes' },
  { label: 'cgroup memory limit', paths: [['cgroup', 'memoryLimitBytes']], format: 'limit' },
  { label: 'Transparent huge pages', paths: [['thp', 'enabled']] },
  { label: 'perf_event_paranoid', paths: [['perf', 'eventParanoid']] },
  { label: 'Jetson L4T', paths: [['jetson', 'l4tRelease']] },
  { label: 'Node.js on the target', paths: [['nodeVersion']] },
];

function at(obj: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = obj;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The target facts a report shows (a probe holds many more: they stay in the JSON export). */
export function targetRows(target: Record<string, unknown> | null): Row[] {
  if (!target) return [];
  const rows: Row[] = [];
  for (const f of FACT_ROWS) {
    const found = f.paths.map((p) => at(target, p)).find((v) => v !== undefined);
    if (f.format === 'limit' && found === null && at(target, ['cgroup']) !== undefined) {
      rows.push({ label: f.label, value: 'none' });
      continue;
    }
    if (found === undefined || found === null || typeof found === 'object') continue;
    rows.push({
      label: f.label,
      value:
        (f.format === 'bytes' || f.format === 'limit') && typeof found === 'number'
          ? formatBytes(found)
          : formatFact(found),
    });
  }
  const governors = at(target, ['cpu', 'policies']);
  if (Array.isArray(governors)) {
    const names = [
      ...new Set(
        governors
          .map((p) => (p && typeof p === 'object' ? (p as Record<string, unknown>).governor : null))
          .filter((g): g is string => typeof g === 'string'),
      ),
    ];
    if (names.length) rows.push({ label: 'CPU governor', value: names.join(', ') });
  }
  const zram = at(target, ['zram']);
  if (
    Array.isArray(zram) &&
    zram.some((z) => z && typeof z === 'object' && (z as Record<string, unknown>).usedAsSwap === true)
  )
    rows.push({ label: 'zram swap', value: 'yes' });
  return rows;
}

const HEALTH_SEVERITY: Record<HealthFinding['severity'], Severity> = {
  error: 'critical',
  warn: 'warning',
  info: 'info',
};

/** Board-level findings (THP, swap, cgroup limits, perf…) when the target facts are a full probe. */
export function boardFindings(target: Record<string, unknown> | null): Finding[] {
  if (!target) return [];
  const parsed = ProbeResultSchema.safeParse(target);
  if (!parsed.success) return [];
  return healthFindings(parsed.data).map((h) => ({
    id: 'board',
    severity: HEALTH_SEVERITY[h.severity],
    title: h.title,
    detail: h.detail,
    ...(h.fix ? { fix: h.fix } : {}),
  }));
}
