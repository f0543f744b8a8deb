// Parser of the cgroup collector's lines (shared/collectors/cgroup-collector.ts has their shape),
// the files as the kernel writes them (its Documentation/admin-guide/cgroup-v2.rst and
// Documentation/admin-guide/cgroup-v1/memory.rst):
//
// - v2: memory.current (the charge), memory.max of the group and its ancestors ("max" = none),
//   memory.events (`max` = times the charge hit the limit, `oom_kill`), memory.stat (anon, file,
//   kernel — kernels before 5.18 have no `kernel` line: then kernel_stack + pagetables +
//   sec_pagetables + percpu + slab + sock —, shmem, file_dirty, file_writeback).
// - v1: memory.usage_in_bytes, memory.failcnt, memory.oom_control (`oom_kill`, Linux 4.13+),
//   memory.kmem.usage_in_bytes (kernel memory; absent where kmem accounting is off), memory.stat
//   total_* (this group and its descendants, as the usage is) and hierarchical_memory_limit.
//
// "Page cache it cannot drop": shmem (tmpfs, shared anonymous mappings: without swap it stays) plus
// dirty and writeback pages (they must reach the disk first). The rest of the page cache is
// reclaimed before the kernel kills.
//
// Pure and never throws: a line it cannot read is a diagnostic.
import { collectorLineParser, type CollectorParser, type CollectorRecord } from './collector';

/** v1 writes PAGE_COUNTER_MAX pages (≈ 2^63 bytes) for "no limit"; anything this large is none. */
const NO_LIMIT_FROM_BYTES = 2 ** 60;

const NUM = /^\d+$/;

/** `k1 v1 k2 v2 …` → numbers (values that are not whole numbers are left out). */
function pairs(text: string): Map<string, number> {
  const words = text.trim().split(/\s+/);
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < words.length; i += 2) {
    const v = words[i + 1] ?? '';
    if (NUM.test(v)) out.set(words[i] ?? '', Number(v));
  }
  return out;
}

function num(text: string | undefined): number | null {
  const t = (text ?? '').trim();
  return NUM.test(t) ? Number(t) : null;
}

function limitOf(values: readonly number[]): number | null {
  const real = values.filter((v) => v < NO_LIMIT_FROM_BYTES);
  return real.length ? Math.min(...real) : null;
}

function sumOf(stat: Map<string, number>, keys: readonly string[]): number | null {
  let sum: number | null = null;
  for (const k of keys) {
    const v = stat.get(k);
    if (v !== undefined) sum = (sum ?? 0) + v;
  }
  return sum;
}

/** Kernel memory of a v2 group before Linux 5.18 (no `kernel` line): its parts. */
const V2_KERNEL_PARTS = ['kernel_stack', 'pagetables', 'sec_pagetables', 'percpu', 'slab', 'sock'];

function v2Values(parts: Map<string, string>): Record<string, number | null> | string {
  const use = num(parts.get('use'));
  if (use === null) return 'no memory.current';
  const stat = pairs(parts.get('st') ?? '');
  const events = pairs(parts.get('ev') ?? '');
  const limits = (parts.get('lim') ?? '').trim().split(/\s+/).filter(Boolean);
  const bad = limits.find((l) => l !== 'max' && !NUM.test(l));
  if (bad !== undefined) return `unreadable memory.max "${bad}"`;
  return {
    cgroupLimitBytes: limitOf(limits.filter((l) => l !== 'max').map(Number)),
    cgroupUsageBytes: use,
    cgroupAnonBytes: stat.get('anon') ?? null,
    cgroupFileBytes: stat.get('file') ?? null,
    cgroupKernelBytes: stat.get('kernel') ?? sumOf(stat, V2_KERNEL_PARTS),
    cgroupUnreclaimableFileBytes: sumOf(stat, ['shmem', 'file_dirty', 'file_writeback']),
    cgroupLimitHits: events.get('max') ?? null,
    cgroupOomKills: events.get('oom_kill') ?? null,
  };
}

function v1Values(parts: Map<string, string>): Record<string, number | null> | string {
  const use = num(parts.get('use'));
  if (use === null) return 'no memory.usage_in_bytes';
  const stat = pairs(parts.get('st') ?? '');
  const oom = pairs(parts.get('oomctl') ?? '');
  const limit = stat.get('hierarchical_memory_limit');
  return {
    cgroupLimitBytes: limit === undefined ? null : limitOf([limit]),
    cgroupUsageBytes: use,
    cgroupAnonBytes: stat.get('total_rss') ?? null,
    cgroupFileBytes: stat.get('total_cache') ?? null,
    cgroupKernelBytes: num(parts.get('kmem')),
    cgroupUnreclaimableFileBytes: sumOf(stat, ['total_shmem', 'total_dirty', 'total_writeback']),
    cgroupLimitHits: num(parts.get('fail')),
    cgroupOomKills: oom.get('oom_kill') ?? null,
  };
}

export function createCgroupParser(): CollectorParser {
  let version: 1 | 2 | null = null;
  const readHeader = (line: string): CollectorRecord => {
    const cg = / cg=([12])(?: |$)/.exec(line);
    if (!cg) return { kind: 'diagnostic', reason: 'cgroup header without a version', text: line };
    version = cg[1] === '1' ? 1 : 2;
    return { kind: 'header' };
  };
  const readOwn = (line: string): CollectorRecord => {
    const fields = line.split('|');
    const time = /^t=(\d+(?:\.\d+)?)$/.exec(fields[0] ?? '');
    if (!time) return { kind: 'diagnostic', reason: 'not a cgroup line', text: line };
    if (version === null) return { kind: 'diagnostic', reason: 'cgroup line before its header', text: line };
    const parts = new Map<string, string>();
    for (const f of fields.slice(1)) {
      const sp = f.indexOf(' ');
      parts.set(sp < 0 ? f : f.slice(0, sp), sp < 0 ? '' : f.slice(sp + 1));
    }
    const values = version === 1 ? v1Values(parts) : v2Values(parts);
    if (typeof values === 'string') return { kind: 'diagnostic', reason: values, text: line };
    return { kind: 'sample', uptimeMs: Math.round(Number(time[1]) * 1000), values };
  };
  return collectorLineParser(readOwn, readHeader);
}
