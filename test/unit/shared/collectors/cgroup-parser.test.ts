// The cgroup collector's lines (shared/collectors/cgroup-collector.ts) as its awk prints them from
// real v1 files (test/fixtures/cgroup/v1-linux-6.18) and from the v2 tree laid out per the
// kernel's documentation (test/fixtures/cgroup/v2-tree); every expected number is read off those
// files by hand.
import { describe, expect, it } from 'vitest';
import { createCgroupParser } from '../../../../shared/collectors/cgroup-parser';
import { V2_TREE_LINE as V2_LINE, V2_TREE_SAMPLE } from '../../../helpers/cgroup-fixtures';

const V1_LINE =
  't=5796.66|use 5582848|fail 0|oomctl oom_kill_disable 0 under_oom 0 oom_kill 0|kmem 1540096|st hierarchical_memory_limit 9223372036854771712 total_cache 1753088 total_rss 2117632 total_shmem 0 total_dirty 24576 total_writeback 0';

describe('cgroup parser', () => {
  it('reads a v1 group: usage, anon (total_rss), kernel (kmem), what cannot be dropped, no limit', () => {
    const p = createCgroupParser();
    expect(p.push('H v=1 cg=1 path=/process_api/265ffc59')).toEqual({ kind: 'header' });
    expect(p.push(V1_LINE)).toEqual({
      kind: 'sample',
      uptimeMs: 5_796_660,
      values: {
        // 9223372036854771712 is v1's "no limit".
        cgroupLimitBytes: null,
        cgroupUsageBytes: 5_582_848,
        cgroupAnonBytes: 2_117_632,
        cgroupFileBytes: 1_753_088,
        cgroupKernelBytes: 1_540_096,
        // shmem 0 + dirty 24576 + writeback 0
        cgroupUnreclaimableFileBytes: 24_576,
        cgroupLimitHits: 0,
        cgroupOomKills: 0,
      },
    });
  });

  it('a v1 limit is hierarchical_memory_limit', () => {
    const p = createCgroupParser();
    p.push('H v=1 cg=1 path=/kvscope-x');
    const line = V1_LINE.replace('9223372036854771712', '209715200').replace('oom_kill 0', 'oom_kill 1');
    expect(p.push(line)).toMatchObject({ values: { cgroupLimitBytes: 209_715_200, cgroupOomKills: 1 } });
  });

  it('reads a v2 group: the smallest memory.max up the tree, memory.events max and oom_kill', () => {
    const p = createCgroupParser();
    p.push('H v=1 cg=2 path=/boards.slice/engine');
    expect(p.push(V2_LINE)).toEqual(V2_TREE_SAMPLE);
  });

  it('before Linux 5.18 (no `kernel` line) kernel memory is the sum of its parts; "max" everywhere is no limit', () => {
    const p = createCgroupParser();
    p.push('H v=1 cg=2 path=/a');
    const old = V2_LINE.replace('lim max 419430400', 'lim max max').replace('kernel 4194304 ', '');
    // kernel_stack 98304 + pagetables 1179648 + sec_pagetables 0 + percpu 0 + slab 3145728 + sock 0
    expect(p.push(old)).toMatchObject({ values: { cgroupLimitBytes: null, cgroupKernelBytes: 4_423_680 } });
  });

  it('status lines, and lines it cannot read, never throw', () => {
    const p = createCgroupParser();
    expect(p.push(V2_LINE)).toMatchObject({ kind: 'diagnostic', reason: 'cgroup line before its header' });
    expect(p.push('H v=1 path=/x')).toMatchObject({ kind: 'diagnostic', reason: 'cgroup header without a version' });
    expect(p.push('! absent the engine is in no memory cgroup (/proc/1/cgroup)')).toEqual({
      kind: 'status',
      status: 'absent',
      reason: 'the engine is in no memory cgroup (/proc/1/cgroup)',
    });
    p.push('H v=1 cg=2 path=/x');
    expect(p.push('t=1.0|use |lim max')).toMatchObject({ kind: 'diagnostic', reason: 'no memory.current' });
    expect(p.push('t=1.0|use 5|lim 12k')).toMatchObject({ kind: 'diagnostic', reason: 'unreadable memory.max "12k"' });
    expect(p.push('garbage')).toMatchObject({ kind: 'diagnostic', reason: 'not a cgroup line' });
    expect(p.push('')).toBeNull();
  });
});
