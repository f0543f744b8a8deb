// CPU load and pressure stalls: /proc/loadavg and /proc/pressure/{memory,cpu,io}. Memory pressure
// ("some" > 0: tasks wait for memory being reclaimed or swapped in) rises before the OOM killer
// strikes, so it is an early sign that a context size is too large for the board. PSI exists
// since Linux 4.20 (and can be off: CONFIG_PSI, psi=0); without /proc/pressure/memory the
// collector says "absent" and stops. Lines: shared/collectors/pressure-parser.ts.
import type { CollectorDefinition, ReaderPart, SeriesDef } from './collector';
import { readerScript } from './reader-script';
import { createPressureParser } from './pressure-parser';

/** Why a kernel older than this has no PSI. */
const PSI_SINCE: [number, number] = [4, 20];

const ABSENT_REASON =
  'no /proc/pressure/memory: the kernel has no pressure stall information (Linux 4.20+, not booted with psi=0)';

// Its part of a reader script (shared/collectors/reader-script.ts): per tick, the files with
// getline (no fork); it ends when the engine's /proc entry is gone.
const reader: ReaderPart = {
  setupSh: `if ! read -r _ < /proc/pressure/memory 2>/dev/null; then say "! absent ${ABSENT_REASON}"; return 1; fi
files=""
for r in memory cpu io; do read -r _ < "/proc/pressure/$r" 2>/dev/null && files="$files$r,"; done
say "H v=1 files=$files"
export KV_PRESSURE_FILES="$files"`,
  awk: String.raw`
function pressure_begin() { pressure_n = split(ENVIRON["KV_PRESSURE_FILES"], pressure_files, ","); return 1 }
function pressure_tick(   ua, out, i, f, l) {
  if (rdTick("/proc/" pid "/stat") == "") return 0
  split(rdTick("/proc/uptime"), ua, " ")
  out = "t=" ua[1] "|loadavg " rd("/proc/loadavg")
  for (i = 1; i <= pressure_n; i++) {
    if (pressure_files[i] == "") continue
    f = "/proc/pressure/" pressure_files[i]
    while ((getline l < f) > 0) out = out "|" pressure_files[i] " " l
    close(f)
  }
  emit(out)
  return 1
}
`,
};

function kernelBefore(kernel: string | null | undefined, [major, minor]: [number, number]): boolean {
  const m = /^(\d+)\.(\d+)/.exec(kernel ?? '');
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a < major || (a === major && b < minor);
}

/**
 * A PSI series' part is `<resource>.<some|full>` (shared/collectors/pressure-parser.ts psiKey),
 * worded in the kernel's own terms: `memory (some)`; its legend adds the window, `memory (some) 10 s`.
 */
function psiNames(window: string): Pick<SeriesDef, 'partWords' | 'legend'> {
  const words = (part: string) => {
    const m = /^(.+)\.(some|full)$/.exec(part);
    return m ? `${m[1] ?? ''} (${m[2] ?? ''})` : part;
  };
  return { partWords: words, legend: (part) => `${words(part)} ${window}` };
}

export const pressureCollector: CollectorDefinition = {
  id: 'pressure',
  title: 'CPU load and pressure stalls (/proc/loadavg, /proc/pressure)',
  script: readerScript([{ id: 'pressure', reader }]),
  reader,
  tagsOwnLines: true,
  // The kernel updates the PSI averages every 2 s (PSI_FREQ) and the load averages every 5 s
  // (LOAD_FREQ): by default it reads them as often as the averages change, and the totals (stall
  // time in µs, counted as it happens) at that pace too. In the run's reader script it then costs
  // its files every other tick at 1 Hz, not every tick.
  interval: { defaultMs: 2000, minMs: 500, maxMs: 60_000 },
  unavailable: (facts) =>
    kernelBefore(facts?.kernel, PSI_SINCE)
      ? { status: 'absent', reason: `kernel ${facts?.kernel}: ${ABSENT_REASON}` }
      : null,
  createParser: createPressureParser,
  series: [
    { key: 'load1', label: 'load average, 1 min', unit: 'count', kind: 'gauge' },
    { key: 'load5', label: 'load average, 5 min', unit: 'count', kind: 'gauge' },
    { key: 'load15', label: 'load average, 15 min', unit: 'count', kind: 'gauge' },
    { key: 'tasksRunnable', label: 'runnable tasks', unit: 'count', kind: 'gauge' },
    { key: 'tasks', label: 'tasks', unit: 'count', kind: 'gauge' },
    { key: 'psi.*.avg10Pct', label: 'stalled, 10 s average', ...psiNames('10 s'), unit: 'pct', kind: 'gauge' },
    { key: 'psi.*.avg60Pct', label: 'stalled, 1 min average', ...psiNames('1 min'), unit: 'pct', kind: 'gauge' },
    { key: 'psi.*.avg300Pct', label: 'stalled, 5 min average', ...psiNames('5 min'), unit: 'pct', kind: 'gauge' },
    { key: 'psi.*.totalUs', label: 'stalled since boot', ...psiNames('total'), unit: 'us', kind: 'counter' },
  ],
};
