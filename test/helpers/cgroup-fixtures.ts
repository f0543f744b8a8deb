// The v2 tree fixture (test/fixtures/cgroup/v2-tree: an engine in boards.slice/engine, laid out per
// the kernel's cgroup-v2 documentation) as the cgroup collector (shared/collectors/cgroup-collector.ts)
// reads it: the line its awk prints, and the sample the parser makes of it. Numbers read off the
// fixture's files by hand; the unit test parses the line, the integration test runs the script.
import type { CollectorRecord } from '../../shared/collectors/collector';

export const V2_TREE_LINE =
  't=120.5|use 299892736|lim max 419430400|ev low 0 high 0 max 17 oom 1 oom_kill 1 oom_group_kill 0|st anon 283115520 file 12582912 kernel 4194304 kernel_stack 98304 pagetables 1179648 sec_pagetables 0 percpu 0 sock 0 shmem 2097152 file_dirty 524288 file_writeback 65536 slab 3145728';

export const V2_TREE_SAMPLE: CollectorRecord = {
  kind: 'sample',
  uptimeMs: 120_500,
  values: {
    // The smallest memory.max up the tree: boards.slice's; the engine's own memory.max is "max".
    cgroupLimitBytes: 419_430_400,
    cgroupUsageBytes: 299_892_736,
    cgroupAnonBytes: 283_115_520,
    cgroupFileBytes: 12_582_912,
    cgroupKernelBytes: 4_194_304,
    // shmem 2097152 + file_dirty 524288 + file_writeback 65536
    cgroupUnreclaimableFileBytes: 2_686_976,
    // memory.events max and oom_kill
    cgroupLimitHits: 17,
    cgroupOomKills: 1,
  },
};
