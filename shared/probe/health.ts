// Health findings from a probe (docs/DESIGN.md, "Board-level facts that change the picture"): what
// will distort a measurement or kill a run, said plainly, with the command that fixes it.
import { formatBytes, formatCount, formatFreqKHz, formatPercent, formatTempC } from '../format/units';
import type { HealthFinding, ProbeResult } from './probe-schema';
import { alarmOfReading, isAlarmLevelZone, pmicAlarmWords } from '../analysis/alarm-sensors';
import { shellQuote } from '../util/shell';

/** Every threshold in one place, with its reason. */
export const HEALTH_THRESHOLDS = {
  /** Below 15 % of RAM (or 512 MiB) available, the engine's own growth reaches the OOM killer early. */
  lowAvailableFraction: 0.15,
  lowAvailableBytes: 512 * 1024 ** 2,
  /** Below 5 % (or 128 MiB) a run will most likely be OOM-killed during model load. */
  criticalAvailableFraction: 0.05,
  criticalAvailableBytes: 128 * 1024 ** 2,
  /** A zone within 10 °C of its first passive/hot/critical trip throttles soon after load starts. */
  hotMarginC: 10,
  /** More than this already in swap comes back as major faults during the run; less is noise. */
  swapInUseBytes: 64 * 1024 ** 2,
  /** Uploads (demo engine, run scripts) and spools go to /tmp. */
  tmpFreeBytes: 256 * 1024 ** 2,
  /** A 1-minute load above half the cores means something else competes with the benchmark. */
  busyLoadPerCore: 0.5,
  /** perf_event_paranoid above 1 keeps unprivileged perf from kernel-side counts (2) or everything (3, 4). */
  perfParanoidMax: 1,
} as const;

export interface HealthOptions {
  /** The probe precedes a benchmark: clocks, governors and background load matter more. */
  benchmarking?: boolean;
}

export function healthFindings(probe: ProbeResult, options: HealthOptions = {}): HealthFinding[] {
  const T = HEALTH_THRESHOLDS;
  const bench = options.benchmarking === true;
  const out: HealthFinding[] = [];
  const add = (f: HealthFinding) => out.push(f);
  const mem = probe.memory;
  const isRoot = probe.uid === 0;
  const sudo = isRoot ? '' : 'sudo ';

  // --- memory ------------------------------------------------------------------------------
  if (probe.thp.enabled === 'always') {
    add({
      id: 'thp-always',
      severity: 'warn',
      title: 'Transparent huge pages are set to "always"',
      detail:
        'Every anonymous allocation may be backed by 2 MiB pages: small allocations inflate RSS, the KV-cache curve shows 2 MiB steps, and khugepaged compaction causes latency stalls during decode.',
      fix: `echo madvise | ${sudo}tee /sys/kernel/mm/transparent_hugepage/enabled`,
    });
  }

  const zramSwap = probe.zram.filter((z) => z.usedAsSwap);
  if (mem.swapTotalBytes === 0 && zramSwap.length === 0) {
    add({
      id: 'no-swap',
      severity: 'warn',
      title: 'No swap and no zram',
      detail:
        'When the engine outgrows RAM it is OOM-killed at once, with no slowdown to warn you; compressed swap in RAM (zram) gives KV-cache overflow a soft landing on small boards.',
      fix: `${sudo}modprobe zram && echo 1G | ${sudo}tee /sys/block/zram0/disksize && ${sudo}mkswap /dev/zram0 && ${sudo}swapon -p 100 /dev/zram0   (permanent: install zram-tools or systemd-zram-generator)`,
    });
  } else if (
    mem.swapTotalBytes !== null &&
    mem.swapFreeBytes !== null &&
    mem.swapTotalBytes - mem.swapFreeBytes > T.swapInUseBytes
  ) {
    add({
      id: 'swap-in-use',
      severity: 'info',
      title: `${formatBytes(mem.swapTotalBytes - mem.swapFreeBytes)} already in swap`,
      detail: 'Pages swapped out before the run come back as major faults while it runs and blur the memory curve.',
      fix: `${sudo}swapoff -a && ${sudo}swapon -a   (only when there is enough free RAM to take them back)`,
    });
  }

  if (mem.totalBytes !== null && mem.availableBytes !== null) {
    const frac = mem.availableBytes / mem.totalBytes;
    const critical = frac < T.criticalAvailableFraction || mem.availableBytes < T.criticalAvailableBytes;
    const low = frac < T.lowAvailableFraction || mem.availableBytes < T.lowAvailableBytes;
    if (low) {
      add({
        id: 'low-available-memory',
        severity: critical ? 'error' : 'warn',
        title: `Only ${formatBytes(mem.availableBytes)} of ${formatBytes(mem.totalBytes)} RAM available (${formatPercent(frac)})`,
        detail: `Other processes hold the memory the engine needs; the OOM horizon is computed from what is available now${mem.availableEstimated ? ' (estimated: this kernel has no MemAvailable)' : ''}.`,
        fix: 'Stop other services on the board (e.g. a desktop session: sudo systemctl isolate multi-user.target) before the run.',
      });
    }
  }
  if (mem.availableEstimated) {
    add({
      id: 'memavailable-missing',
      severity: 'info',
      title: 'Kernel without MemAvailable',
      detail:
        'This kernel (before 3.14) does not report MemAvailable; KVScope estimates it as MemFree + Buffers + Cached, which overstates what can be reclaimed.',
      fix: null,
    });
  }

  const limit = probe.cgroup.memoryLimitBytes;
  if (limit !== null && mem.totalBytes !== null && limit < mem.totalBytes) {
    add({
      id: 'cgroup-memory-limit',
      severity: 'warn',
      title: `Memory limited to ${formatBytes(limit)} by a cgroup (RAM is ${formatBytes(mem.totalBytes)})`,
      detail: `The login session runs in a cgroup (${probe.cgroup.limitSource ?? probe.cgroup.path ?? '?'}, cgroup v${probe.cgroup.version ?? '?'}) whose limit is below RAM: the OOM killer acts at ${formatBytes(limit)}, so that is the real budget.`,
      fix:
        probe.cgroup.version === 2
          ? "Raise the limit of the unit or container (systemctl set-property <unit> MemoryMax=…, or the container runtime's memory option), or pass --budget with the limit."
          : 'Raise memory.limit_in_bytes of the group, or pass --budget with the limit.',
    });
  }

  if (probe.vm.overcommitMemory === 2) {
    add({
      id: 'overcommit-never',
      severity: 'warn',
      title: 'vm.overcommit_memory = 2 (strict accounting)',
      detail:
        "Large mmap'd model files and reserved KV buffers count against CommitLimit: allocations fail long before RAM is full.",
      fix: `${sudo}sysctl -w vm.overcommit_memory=0`,
    });
  }

  if (Object.keys(mem.nvmapBytes).length > 0) {
    add({
      id: 'jetson-nvmap',
      severity: 'info',
      title: 'Jetson unified memory (NvMap)',
      detail:
        'GPU buffers allocated through NvMap do not appear in the process RSS; KVScope samples the NvMap counters alongside RSS so the KV cache on the GPU is not missed.',
      fix: null,
    });
  }

  if (probe.pageSizeBytes !== null && probe.pageSizeBytes !== 4096) {
    add({
      id: 'page-size',
      severity: 'info',
      title: `${probe.pageSizeBytes / 1024} KiB pages`,
      detail:
        "RSS grows in larger steps than on 4 KiB-page kernels (e.g. Raspberry Pi 5's 16K kernel); KVScope uses the real page size.",
      fix: null,
    });
  }

  // --- CPU clocks ------------------------------------------------------------------------
  const slow = probe.cpu.policies.filter((p) => p.governor !== null && p.governor !== 'performance');
  if (slow.length > 0) {
    const list = slow.map((p) => `${p.policy} (CPUs ${p.cpus.join(',') || '?'}): ${p.governor}`).join('; ');
    add({
      id: 'cpu-governor',
      severity: bench ? 'warn' : 'info',
      title: `CPU governor is not "performance" on ${slow.length} of ${probe.cpu.policies.length} clusters`,
      detail: `${list}. Clocks ramp with load, so the first tokens and short runs measure the ramp, not the board.`,
      fix: `echo performance | ${sudo}tee /sys/devices/system/cpu/cpufreq/policy*/scaling_governor`,
    });
  }
  const capped = probe.cpu.policies.filter((p) => p.maxKHz !== null && p.hwMaxKHz !== null && p.maxKHz < p.hwMaxKHz);
  if (capped.length > 0) {
    add({
      id: 'cpu-max-capped',
      severity: bench ? 'warn' : 'info',
      title: 'CPU maximum clock capped below what the hardware can do',
      detail:
        capped
          .map((p) => `${p.policy}: ${formatFreqKHz(p.maxKHz as number)} of ${formatFreqKHz(p.hwMaxKHz as number)}`)
          .join('; ') + ' (a power mode such as nvpmodel, or a thermal/user limit).',
      fix: `cat /sys/devices/system/cpu/cpufreq/policy*/cpuinfo_max_freq | ${sudo}tee /sys/devices/system/cpu/cpufreq/policy*/scaling_max_freq   (Jetson: ${sudo}nvpmodel -m 0 && ${sudo}jetson_clocks)`,
    });
  }
  const slowDevfreq = probe.devfreq.filter(
    (d) =>
      (d.kind === 'gpu' || d.kind === 'dram' || d.kind === 'npu') &&
      d.governor !== null &&
      d.governor !== 'performance',
  );
  if (bench && slowDevfreq.length > 0) {
    add({
      id: 'devfreq-governor',
      severity: 'info',
      title: 'GPU/NPU/memory clocks scale on demand',
      detail:
        slowDevfreq.map((d) => `${d.name} (${d.kind}): ${d.governor}`).join('; ') +
        '. Memory-bound decode depends on the DRAM clock.',
      // The device name is the board's word, and the user pastes this into a shell: quoted (a NUL,
      // which no sysfs name holds and no shell word can, dropped).
      fix: slowDevfreq
        .map(
          (d) =>
            `echo performance | ${sudo}tee ${shellQuote(`/sys/class/devfreq/${d.name.replaceAll('\0', '')}/governor`)}`,
        )
        .join(' && '),
    });
  }

  if (bench && probe.loadAvg && probe.cpu.count) {
    const load1 = probe.loadAvg[0];
    if (load1 !== undefined && load1 > T.busyLoadPerCore * probe.cpu.count) {
      add({
        id: 'board-busy',
        severity: 'warn',
        title: `The board is busy (load ${formatCount(load1, 2)} on ${probe.cpu.count} CPUs)`,
        detail:
          'Other work competes with the engine for cores and memory bandwidth; tokens/s will be lower and noisier.',
        fix: 'Find it with `top` and stop it before the run.',
      });
    }
  }

  // --- thermals -----------------------------------------------------------------------------
  for (const z of probe.thermal) {
    if (z.tempC === null) continue;
    // The Jetson PMIC's die zone reads an alarm level, not a temperature (../analysis/alarm-sensors.ts):
    // its trips are the alarm levels themselves; what it says is whether an alarm is raised.
    if (isAlarmLevelZone(z.type)) {
      const alarm = alarmOfReading(z.tempC);
      if (alarm !== 0)
        add({
          id: `pmic-alarm-${z.zone}`,
          severity: 'warn',
          title: `${z.type ?? z.zone}: ${pmicAlarmWords(alarm)} is raised`,
          detail:
            'The PMIC has no thermometer: its driver reports a fixed 100 °C (50 °C on some builds) until a die alarm fires. A raised alarm means the power stage is hot, whatever the SoC sensors read; the PMIC heats with the current its regulators deliver.',
          fix: 'Let the board cool down and check the airflow over the module before the run.',
        });
      continue;
    }
    const trips = z.trips.filter(
      (t) => t.tempC !== null && t.tempC > 0 && (t.type === 'passive' || t.type === 'hot' || t.type === 'critical'),
    );
    if (trips.length === 0) continue;
    const first = trips.reduce((a, b) => ((a.tempC as number) <= (b.tempC as number) ? a : b));
    if (z.tempC >= (first.tempC as number) - T.hotMarginC) {
      add({
        id: `thermal-hot-${z.zone}`,
        severity: z.tempC >= (first.tempC as number) ? 'error' : 'warn',
        title: `${z.type ?? z.zone} at ${formatTempC(z.tempC)}, ${first.type} trip at ${formatTempC(first.tempC)}`,
        detail:
          "The board starts the run hot and will throttle early; throttled clocks lower tokens/s for reasons that are not the model's.",
        fix: 'Let the board cool down, add a heatsink or fan, and check airflow.',
      });
    }
  }
  const unreadable = probe.thermal.filter((z) => z.unreadable);
  if (unreadable.length > 0) {
    add({
      id: 'thermal-unreadable',
      severity: 'info',
      title: `${unreadable.length} thermal zone(s) could not be read`,
      detail: `${unreadable.map((z) => z.type ?? z.zone).join(', ')}: the read failed (power-gated sensors on Jetson answer EAGAIN while their engine is idle). They are sampled when readable.`,
      fix: null,
    });
  }

  const bits = probe.raspberryPi.throttledBits;
  if (bits !== null && bits !== 0) {
    const now = bits & 0xf;
    const past = (bits >> 16) & 0xf;
    const names = (b: number) =>
      [
        b & 1 ? 'under-voltage' : '',
        b & 2 ? 'ARM clock capped' : '',
        b & 4 ? 'throttled' : '',
        b & 8 ? 'soft temperature limit' : '',
      ]
        .filter(Boolean)
        .join(', ');
    if ((bits & 1) !== 0 || (bits & 0x10000) !== 0) {
      add({
        id: 'rpi-under-voltage',
        severity: (bits & 1) !== 0 ? 'error' : 'warn',
        title: (bits & 1) !== 0 ? 'Under-voltage now' : 'Under-voltage has occurred since boot',
        detail: `vcgencmd get_throttled = 0x${bits.toString(16)}. The power supply cannot hold 5 V under load: the firmware throttles the CPU and the SD card can corrupt.`,
        fix: 'Use the official power supply (5.1 V 3 A for Pi 4, 5.1 V 5 A for Pi 5) and a short, thick cable.',
      });
    }
    if ((now & 0xe) !== 0 || (past & 0xe) !== 0) {
      add({
        id: 'rpi-throttled',
        severity: (now & 0xe) !== 0 ? 'warn' : 'info',
        title:
          (now & 0xe) !== 0
            ? `Firmware throttling now: ${names(now & 0xe)}`
            : `Firmware throttling has occurred: ${names(past & 0xe)}`,
        detail: `vcgencmd get_throttled = 0x${bits.toString(16)}. On a Pi, scaling_cur_freq shows the requested clock, not the throttled one; KVScope reads the firmware's bits.`,
        fix: 'Cool the board (heatsink, fan) and check the power supply.',
      });
    }
  }

  // --- tools ----------------------------------------------------------------------------------
  if (probe.perf.path === null) {
    add({
      id: 'perf-missing',
      severity: 'info',
      title: 'perf is not installed',
      detail: 'Hardware counters (cycles, instructions, cache misses) of the engine are not collected.',
      fix: 'sudo apt-get install linux-perf (Debian) or linux-tools-$(uname -r) (Ubuntu)',
    });
  } else if (probe.perf.usable === false) {
    add({
      id: 'perf-broken',
      severity: 'warn',
      title: 'perf is installed but does not run',
      detail: `${probe.perf.path}: ${probe.perf.version ?? 'perf --version failed'} — usually the distribution wrapper without the perf build for this kernel (${probe.kernel ?? '?'}).`,
      fix: 'Install the perf package matching the running kernel (linux-tools-$(uname -r) on Ubuntu).',
    });
  }
  if (probe.perf.path !== null && probe.perf.eventParanoid !== null && probe.perf.eventParanoid > T.perfParanoidMax) {
    add({
      id: 'perf-paranoid',
      severity: isRoot ? 'info' : 'warn',
      title: `kernel.perf_event_paranoid = ${probe.perf.eventParanoid}`,
      detail: isRoot
        ? 'The probe ran as root, which this setting does not restrict; runs as another user would be.'
        : probe.perf.eventParanoid >= 3
          ? 'Unprivileged users cannot use perf at all: no counters for the engine.'
          : 'Unprivileged users get user-space counts only: kernel time (page faults, memory management) is missing from the counters.',
      fix: `${sudo}sysctl -w kernel.perf_event_paranoid=1   (permanent: echo kernel.perf_event_paranoid=1 | ${sudo}tee /etc/sysctl.d/60-perf.conf)`,
    });
  }
  if (probe.tools.node === null || probe.tools.node === undefined) {
    add({
      id: 'node-missing',
      severity: 'info',
      title: 'node is not installed',
      detail: "`profile --demo` runs the reference workload with the board's node; engine commands work without it.",
      fix: 'sudo apt-get install nodejs',
    });
  }
  if (probe.smapsRollup === false) {
    add({
      id: 'no-smaps-rollup',
      severity: 'info',
      title: 'No /proc/<pid>/smaps_rollup (kernel before 4.14)',
      detail:
        'Anonymous vs file-backed RSS comes from the full smaps file, which costs more to read; KVScope samples it less often.',
      fix: null,
    });
  }
  if (probe.tmpDisk && probe.tmpDisk.availableBytes < T.tmpFreeBytes) {
    add({
      id: 'tmp-low',
      severity: 'warn',
      title: `Only ${formatBytes(probe.tmpDisk.availableBytes)} free in /tmp`,
      detail: `KVScope uploads its run scripts and spools samples under /tmp (${probe.tmpDisk.mount}); a full /tmp loses samples.`,
      fix: 'Free space in /tmp.',
    });
  }
  return out;
}
