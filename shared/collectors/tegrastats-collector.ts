// NVIDIA Jetson's tegrastats, streamed: the script runs `tegrastats --interval <ms>` once for the
// run and one long-lived awk stamps each line it prints with the target's uptime (getline on
// /proc/uptime, no process per tick) and ends the stream once the engine's /proc entry is gone
// (tegrastats then dies of SIGPIPE at its next line, so a run ends at most one interval later).
// Lines: shared/collectors/tegrastats-collector-parser.ts.
//
// Jetson memory is unified: the GPU's buffers (CUDA, cuBLAS workspaces, a GPU-offloaded KV cache)
// are NvMap allocations that never show in the engine's RSS. The procfs collector samples
// `nvmapBytes` (NvMapMemUsed of /proc/meminfo) next to RSS; tegrastats' RAM used includes them.
import type { CollectorDefinition } from './collector';
import { AWK_INTERACTIVE_SH, awkWord, EMIT_AWK, SAY_SH } from './collector-script';
import { createTegrastatsCollectorParser } from './tegrastats-collector-parser';

const ABSENT_REASON = 'no tegrastats on PATH: not an NVIDIA Jetson, or L4T without its tegrastats';

/** What a non-root login is told when tegrastats refuses it or prints nothing. */
export const TEGRASTATS_DENIED_HOW =
  'run the profile as root, or allow this user `sudo -n tegrastats` (NOPASSWD in /etc/sudoers.d)';

/**
 * The line the script writes after tegrastats ends, with its exit status: the awk exits with that
 * status, so the script's is tegrastats' own (the launcher's `! stopped code=<n>` then tells a
 * crash, 128 + the signal, from an error exit), not the awk's 0 at the end of a pipe.
 */
const EXIT_MARK = '--kvscope-tegrastats-exit--';

// Stamps each tegrastats line; says `denied` when a non-root login is refused (before any reading).
const awkProgram = String.raw`
BEGIN { st = "/proc/" pid "/stat"; em = "^" mark " [0-9]+$" }
$0 ~ em { exit $2 + 0 }
{
  if ((getline s < st) <= 0) { gone = 1; exit 0 }
  close(st)
  if ($0 ~ /^[ \t\r]*$/) next
  if (n == 0 && uid != 0 && $0 ~ /[Pp]ermission denied|[Oo]peration not permitted|[Mm]ust be (run as )?root/) {
    emit("! denied tegrastats as uid " uid ": " $0 ": " how); said = 1; exit 0
  }
  if ((getline u < "/proc/uptime") > 0) split(u, ua, " ")
  close("/proc/uptime")
  emit("t=" ua[1] " " $0); n++
}
END {
  if (n == 0 && !gone && !said && uid != 0) emit("! denied tegrastats printed nothing as uid " uid ": " how)
}
`;

function tegrastatsScript(): string {
  return `#!/bin/sh
# KVScope tegrastats collector: tegrastats streams, one awk stamps its lines. $1 = pid, $2 = interval in seconds.
${SAY_SH}
P="$1"; I="$2"
T=$(command -v tegrastats 2>/dev/null) || { say "! absent ${ABSENT_REASON}"; exit 0; }
MS=$(awk -v s="$I" 'BEGIN { printf "%d", s * 1000 + 0.5 }')
U=$(id -u 2>/dev/null || echo 0)
# Not root: tegrastats reads debugfs and privileged sysfs on many L4T releases; sudo only when it asks for nothing.
S=""
if [ "$U" != 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then S="sudo -n"; fi
say "H v=1 tegrastats=$T ms=$MS uid=$U sudo=\${S:+1}"
${AWK_INTERACTIVE_SH}
# tegrastats' stderr joins its stdout in a shell that becomes it: a shell that waited for it with
# 2>&1 in force would put its own "Segmentation fault" into the stream.
{ sh -c 'exec "$@" 2>&1' kvscope-tegrastats $S "$T" --interval "$MS"; echo "${EXIT_MARK} $?"; } | awk $AWKI -v pid="$P" -v uid="$U" -v mark=${EXIT_MARK} -v how=${awkWord(TEGRASTATS_DENIED_HOW)} ${awkWord(EMIT_AWK + awkProgram)}
`;
}

/** A core of `CPU [a%@f,b%@f,…]` by its place in the list, from 0: `core 0`. */
const coreWords = (core: string) => `core ${core}`;

export const tegrastatsCollector: CollectorDefinition = {
  id: 'tegrastats',
  title: 'NVIDIA Jetson tegrastats (memory, CPU, GPU, EMC, engines, temperatures, power rails)',
  script: tegrastatsScript(),
  tagsOwnLines: true,
  // tegrastats itself samples at this rate (it reads every source once per interval): below 100 ms
  // its own cost shows on a small Jetson, and the rails' averaging window is longer anyway.
  interval: { defaultMs: 1000, minMs: 100, maxMs: 60_000 },
  unavailable: (facts) =>
    facts?.tools && facts.tools.tegrastats === null ? { status: 'absent', reason: ABSENT_REASON } : null,
  createParser: createTegrastatsCollectorParser,
  series: [
    { key: 'tegra.ramUsedBytes', label: 'RAM used (tegrastats, incl. NvMap)', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.ramTotalBytes', label: 'RAM total (tegrastats)', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.lfbBlocks', label: 'largest free blocks (lfb)', unit: 'count', kind: 'gauge' },
    { key: 'tegra.lfbBlockBytes', label: 'largest free block size (lfb)', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.swapUsedBytes', label: 'swap used (tegrastats)', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.swapTotalBytes', label: 'swap total (tegrastats)', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.swapCachedBytes', label: 'swap cached (tegrastats)', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.iramUsedBytes', label: 'IRAM used', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.iramTotalBytes', label: 'IRAM total', unit: 'bytes', kind: 'gauge' },
    { key: 'tegra.iramLfbBytes', label: 'IRAM largest free block', unit: 'bytes', kind: 'gauge' },
    {
      key: 'tegra.cpu.*.loadPct',
      label: 'CPU load (tegrastats)',
      partWords: coreWords,
      legend: (core) => `CPU ${core} load`,
      unit: 'pct',
      kind: 'gauge',
    },
    {
      key: 'tegra.cpu.*.freqMHz',
      label: 'CPU clock (tegrastats)',
      partWords: coreWords,
      legend: (core) => `CPU ${core} clock`,
      unit: 'MHz',
      kind: 'gauge',
    },
    { key: 'tegra.gpu.loadPct', label: 'GPU load (GR3D)', legend: 'GPU load', unit: 'pct', kind: 'gauge' },
    { key: 'tegra.gpu.freqMHz', label: 'GPU clock (GR3D)', legend: 'GPU clock', unit: 'MHz', kind: 'gauge' },
    { key: 'tegra.emc.loadPct', label: 'memory controller load (EMC)', legend: 'EMC load', unit: 'pct', kind: 'gauge' },
    { key: 'tegra.emc.freqMHz', label: 'memory clock (EMC)', legend: 'EMC clock', unit: 'MHz', kind: 'gauge' },
    { key: 'tegra.mtsFgPct', label: 'MTS foreground', unit: 'pct', kind: 'gauge' },
    { key: 'tegra.mtsBgPct', label: 'MTS background', unit: 'pct', kind: 'gauge' },
    { key: 'tegra.edpLimitMHz', label: 'EDP clock limit', unit: 'MHz', kind: 'gauge' },
    { key: 'tegra.engine.*.loadPct', label: 'engine load', legend: (e) => `${e} load`, unit: 'pct', kind: 'gauge' },
    { key: 'tegra.engine.*.freqMHz', label: 'engine clock', legend: (e) => `${e} clock`, unit: 'MHz', kind: 'gauge' },
    {
      key: 'tegra.temp.*.C',
      label: 'temperature (tegrastats)',
      legend: (zone) => `${zone} temp`,
      unit: 'C',
      kind: 'gauge',
    },
    // A rail's reading now and its average since tegrastats started: one name, two series.
    { key: 'tegra.rail.*.curmW', label: 'power rail, now', legend: (rail) => rail, unit: 'mW', kind: 'gauge' },
    {
      key: 'tegra.rail.*.avgmW',
      label: 'power rail, average',
      legend: (rail) => `${rail} avg`,
      unit: 'mW',
      kind: 'gauge',
    },
  ],
};
