// The procfs sampler as a collector: the engine process's memory (status, statm, smaps_rollup),
// the board's memory (meminfo), CPU load, thermal zones and CPU clocks, one line a tick from one
// long-lived awk (shared/collectors/procfs-sampler-script.ts), read by
// shared/collectors/procfs-sampler-parser.ts. Its ticks are the memory curve: it samples at the
// run's own `intervalMs`.
import type { CollectorDefinition } from './collector';
import { createProcfsSamplerParser } from './procfs-sampler-parser';
import { capRecheckEveryTicks } from './reader-script';
import {
  GROUP_RESCAN_SLOW_PERIOD_MS,
  procfsReader,
  procfsSamplerScript,
  rescanEveryTicks,
  smapsEveryTicks,
  unchangedWalkEveryTicks,
} from './procfs-sampler-script';

export const procfsCollector: CollectorDefinition = {
  id: 'procfs',
  title: 'Process and board memory (procfs)',
  script: procfsSamplerScript(),
  reader: procfsReader,
  tagsOwnLines: true,
  interval: 'run',
  scriptArgs: (intervalMs) => [
    String(smapsEveryTicks(intervalMs)),
    String(rescanEveryTicks(intervalMs)),
    String(rescanEveryTicks(intervalMs, GROUP_RESCAN_SLOW_PERIOD_MS)),
    String(unchangedWalkEveryTicks(intervalMs)),
    String(capRecheckEveryTicks(intervalMs)),
  ],
  createParser: createProcfsSamplerParser,
  series: [
    { key: 'rssBytes', label: 'RSS', unit: 'bytes', kind: 'gauge' },
    { key: 'rssAnonBytes', label: 'anonymous RSS', legend: 'anon RSS', unit: 'bytes', kind: 'gauge' },
    { key: 'rssFileBytes', label: 'file-backed RSS', unit: 'bytes', kind: 'gauge' },
    { key: 'rssShmemBytes', label: 'shared-memory RSS', legend: 'shmem RSS', unit: 'bytes', kind: 'gauge' },
    { key: 'pssBytes', label: 'PSS', unit: 'bytes', kind: 'gauge' },
    { key: 'smapsAnonBytes', label: 'anonymous (smaps_rollup)', unit: 'bytes', kind: 'gauge' },
    { key: 'swapBytes', label: 'swapped out', legend: 'engine swapped out', unit: 'bytes', kind: 'gauge' },
    { key: 'rssPeakBytes', label: 'peak RSS (VmHWM)', legend: 'peak RSS (HWM)', unit: 'bytes', kind: 'gauge' },
    { key: 'vmSizeBytes', label: 'virtual size', unit: 'bytes', kind: 'gauge' },
    { key: 'statmResidentBytes', label: 'resident (statm)', unit: 'bytes', kind: 'gauge' },
    { key: 'threads', label: 'threads', unit: 'count', kind: 'gauge' },
    { key: 'memTotalBytes', label: 'board memory', unit: 'bytes', kind: 'gauge' },
    { key: 'memAvailableBytes', label: 'board memory available', legend: 'MemAvailable', unit: 'bytes', kind: 'gauge' },
    { key: 'memFreeBytes', label: 'board memory free', legend: 'MemFree', unit: 'bytes', kind: 'gauge' },
    { key: 'memCachedBytes', label: 'page cache', legend: 'Cached', unit: 'bytes', kind: 'gauge' },
    { key: 'swapTotalBytes', label: 'swap size', unit: 'bytes', kind: 'gauge' },
    { key: 'swapFreeBytes', label: 'swap free', unit: 'bytes', kind: 'gauge' },
    { key: 'nvmapBytes', label: 'NvMap (Jetson GPU buffers)', legend: 'NvMap', unit: 'bytes', kind: 'gauge' },
    { key: 'cpuBusyPct', label: 'CPU busy (board)', legend: 'CPU busy', unit: 'pct', kind: 'gauge' },
    { key: 'engineCpuPct', label: 'engine CPU', unit: 'pct', kind: 'gauge' },
    { key: 'temp.*.C', label: 'temperature', legend: (zone) => zone, unit: 'C', kind: 'gauge' },
    { key: 'cpufreq.*.KHz', label: 'CPU clock', legend: (policy) => `CPU ${policy}`, unit: 'kHz', kind: 'gauge' },
    {
      key: 'cpufreq.*.max.KHz',
      label: 'CPU clock cap (scaling_max_freq)',
      legend: (policy) => `CPU ${policy} cap`,
      unit: 'kHz',
      kind: 'gauge',
    },
  ],
};
