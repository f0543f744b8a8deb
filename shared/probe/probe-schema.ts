// What `kvscope probe` learns about a board (docs/DESIGN.md, "Board-level facts that change the
// picture"). Produced by shared/probe/probe-parser.ts from the output of the one probe script;
// health findings (shared/probe/health.ts) read only this. Units in names: bytes, kHz, Hz, °C.
import { z } from 'zod';

const num = z.number().nullable();

export const CpufreqPolicySchema = z.object({
  /** sysfs directory name: policy0, policy4… */
  policy: z.string(),
  /** related_cpus: every CPU this policy clocks (online or not). */
  cpus: z.array(z.number().int()),
  governor: z.string().nullable(),
  availableGovernors: z.array(z.string()),
  driver: z.string().nullable(),
  /** scaling_cur_freq — on Raspberry Pi the requested clock, not the firmware-throttled one. */
  curKHz: num,
  minKHz: num,
  maxKHz: num,
  /** cpuinfo_min/max_freq: what the hardware can do. */
  hwMinKHz: num,
  hwMaxKHz: num,
});
export type CpufreqPolicy = z.infer<typeof CpufreqPolicySchema>;

export const ThermalTripSchema = z.object({
  name: z.string(),
  /** passive, active, hot, critical */
  type: z.string().nullable(),
  tempC: num,
});

export const ThermalZoneSchema = z.object({
  zone: z.string(),
  type: z.string().nullable(),
  tempC: num,
  /** The temp read failed (EAGAIN on power-gated Jetson zones, EINVAL…). */
  unreadable: z.boolean(),
  trips: z.array(ThermalTripSchema),
});
export type ThermalZone = z.infer<typeof ThermalZoneSchema>;

export const DevfreqDeviceSchema = z.object({
  name: z.string(),
  /** Guessed from the name: fb000000.gpu → gpu, dmc → dram, fdab0000.npu → npu, 17000000.ga10b → gpu. */
  kind: z.enum(['gpu', 'npu', 'dram', 'other']),
  curHz: num,
  minHz: num,
  maxHz: num,
  governor: z.string().nullable(),
  availableHz: z.array(z.number()),
});
export type DevfreqDevice = z.infer<typeof DevfreqDeviceSchema>;

export const SwapAreaSchema = z.object({
  filename: z.string(),
  type: z.string(),
  sizeBytes: z.number(),
  usedBytes: z.number(),
  priority: z.number().nullable(),
});

export const ZramDeviceSchema = z.object({
  device: z.string(),
  disksizeBytes: num,
  /** The bracketed (active) choice of comp_algorithm. */
  algorithm: z.string().nullable(),
  algorithms: z.array(z.string()),
  origDataBytes: num,
  comprDataBytes: num,
  usedAsSwap: z.boolean(),
});

export const CgroupLevelSchema = z.object({
  path: z.string(),
  file: z.string(),
  /** null = unlimited ("max", or v1's page-counter maximum). */
  limitBytes: num,
});

export const ProbeDiagnosticSchema = z.object({
  section: z.string(),
  reason: z.string(),
  text: z.string(),
});

export const ProbeResultSchema = z.object({
  schemaVersion: z.literal(1),
  /** Seconds since the epoch on the target's clock when the probe ran. */
  targetEpochSec: num,
  arch: z.string().nullable(),
  kernel: z.string().nullable(),
  hostname: z.string().nullable(),
  distro: z.string().nullable(),
  boardModel: z.string().nullable(),
  user: z.string().nullable(),
  uid: num,
  cpu: z.object({
    /** Online CPUs (from /sys/devices/system/cpu/online, else /proc/cpuinfo). */
    count: num,
    online: z.string().nullable(),
    modelName: z.string().nullable(),
    policies: z.array(CpufreqPolicySchema),
  }),
  memory: z.object({
    totalBytes: num,
    freeBytes: num,
    /** MemAvailable; estimated as MemFree + Buffers + Cached on kernels before 3.14. */
    availableBytes: num,
    availableEstimated: z.boolean(),
    swapTotalBytes: num,
    swapFreeBytes: num,
    cmaTotalBytes: num,
    /** Jetson's NvMap* keys (GPU buffers that are not in any process's RSS), bytes. */
    nvmapBytes: z.record(z.string(), z.number()),
    /** Every /proc/meminfo key, in kB (HugePages_* counts as written). */
    meminfoKb: z.record(z.string(), z.number()),
  }),
  swaps: z.array(SwapAreaSchema),
  zram: z.array(ZramDeviceSchema),
  pageSizeBytes: num,
  thp: z.object({
    enabled: z.string().nullable(),
    defrag: z.string().nullable(),
  }),
  vm: z.object({
    overcommitMemory: num,
    swappiness: num,
    minFreeKbytes: num,
  }),
  cgroup: z.object({
    version: z.union([z.literal(1), z.literal(2)]).nullable(),
    /** The login session's cgroup path (memory controller for v1). */
    path: z.string().nullable(),
    /** The effective limit: the smallest limit from the session's group up to the root. */
    memoryLimitBytes: num,
    limitSource: z.string().nullable(),
    levels: z.array(CgroupLevelSchema),
  }),
  perf: z.object({
    path: z.string().nullable(),
    version: z.string().nullable(),
    /** `perf --version` ran and exited 0 (Debian's wrapper fails without the kernel's perf). */
    usable: z.boolean().nullable(),
    eventParanoid: num,
  }),
  /** Absolute path of each tool looked for, or null when absent. */
  tools: z.record(z.string(), z.string().nullable()),
  nodeVersion: z.string().nullable(),
  thermal: z.array(ThermalZoneSchema),
  devfreq: z.array(DevfreqDeviceSchema),
  smapsRollup: z.boolean().nullable(),
  uptimeSec: num,
  loadAvg: z.array(z.number()).nullable(),
  tmpDisk: z
    .object({
      filesystem: z.string(),
      mount: z.string(),
      totalBytes: z.number(),
      availableBytes: z.number(),
    })
    .nullable(),
  raspberryPi: z.object({
    /** `vcgencmd get_throttled` bits (0 under-voltage now, 1 arm capped, 2 throttled, 3 soft temp limit; +16 "has occurred"). */
    throttledBits: num,
  }),
  jetson: z.object({
    /** First line of /etc/nv_tegra_release, e.g. "# R35 (release), REVISION: 3.1, …". */
    l4tRelease: z.string().nullable(),
  }),
  diagnostics: z.array(ProbeDiagnosticSchema),
});
export type ProbeResult = z.infer<typeof ProbeResultSchema>;

export const HealthSeveritySchema = z.enum(['info', 'warn', 'error']);
export type HealthSeverity = z.infer<typeof HealthSeveritySchema>;

export const HealthFindingSchema = z.object({
  id: z.string(),
  severity: HealthSeveritySchema,
  title: z.string(),
  detail: z.string(),
  /** A command or a step that fixes it, or null when there is nothing to do. */
  fix: z.string().nullable(),
});
export type HealthFinding = z.infer<typeof HealthFindingSchema>;

/** `kvscope probe --json`: the probe facts plus the findings. */
export const ProbeReportSchema = ProbeResultSchema.extend({
  target: z.object({ id: z.string(), label: z.string(), kind: z.string() }),
  findings: z.array(HealthFindingSchema),
});
export type ProbeReport = z.infer<typeof ProbeReportSchema>;
