// The board's own sysfs and debugfs readers, in one collector, a reader (a getline per file per
// tick, no process per tick; shared/collectors/reader-script.ts):
// - devfreq, every /sys/class/devfreq/* (GPU, NPU, DMC, Jetson's VIC/NVDEC…): cur/min/max clock;
// - the Rockchip NPU's load, /sys/kernel/debug/rknpu/load (debugfs: readable as root only);
// - INA3221/INA2xx power sensors through hwmon (and L4T 32's ina3221x iio), only where tegrastats is
//   absent (tegrastats reports the same rails, shared/collectors/tegrastats-collector.ts);
// - thermal trip points, read once (the first tick carries them).
// Thermal zone temperatures and cpufreq are the procfs collector's (shared/collectors/procfs-collector.ts).
//
// The script takes a root directory ($3, default `/`, or KVSCOPE_SYSFS_ROOT on the target for
// tests, see docs/DEVELOPING.md; then $4, how often a clock's caps are read while it stays, see
// KV_BOARD_FILES below) and prints paths relative to it, as `grep .` prints them, so the
// tick is read by shared/parsers/thermal-parsers.ts (shared/collectors/board-sysfs-tick.ts).
// Lines: shared/collectors/board-sysfs-collector-parser.ts.
import type { CollectorDefinition, ReaderPart } from './collector';
import { BOARD_UNREADABLE_HOW, createBoardSysfsCollectorParser } from './board-sysfs-collector-parser';
import { capRecheckEveryTicks, readerScript } from './reader-script';

const ABSENT_REASON =
  'no devfreq device, no readable Rockchip NPU load, no INA power sensor and no thermal trip point under /sys';

// Its part of a reader script (shared/collectors/reader-script.ts): the files listed once, then a
// getline per file per tick. Argument: the root directory (default /).
// KV_BOARD_FILES: one file a line, `e <path>` read every tick, `o <path>` on the first tick only,
// `s <path>` (a name: an INA channel's label) read on the first tick and repeated on every tick
// after it: each tick is read by itself (board-sysfs-tick.ts), and a driver's labels never change
// while it is bound, so Jetson's three labels cost one read each per run, not one per tick.
// `c <path>` (a devfreq device's min_freq and max_freq, after its cur_freq) is read when that
// clock moved since the last tick, else every KV_BOARD_CAPS_EVERY-th tick, its last reading
// repeated between (rdCap, CAP_RECHECK_PERIOD_MS in reader-script.ts: a limit that holds the
// clock back moves it).
// Arguments: the root directory, and that N.
const reader: ReaderPart = {
  setupSh: `R="\${1:-\${KVSCOPE_SYSFS_ROOT:-/}}"; R="\${R%/}"; export KV_BOARD_CAPS_EVERY="\${2:-1}"
L=""; nd=0; nn=0; nh=0; nt=0; nu=0; U=""
add() { L="$L$1 $2
"; }
# A file that is there but does not read (EACCES, EINVAL, EBUSY) is left out, counted, and the
# first one named in the header: the run says what it could not read (BOARD_UNREADABLE_HOW).
ok() {
  read -r _ 2>/dev/null < "$R$1" && return 0
  if [ -e "$R$1" ]; then nu=$((nu + 1)); [ -n "$U" ] || U=$1; fi
  return 1
}
for d in "$R"/sys/class/devfreq/*; do
  [ -d "$d" ] || continue
  n=\${d##*/}; c=0; k=e
  ok "/sys/class/devfreq/$n/cur_freq" && add e "/sys/class/devfreq/$n/cur_freq" && c=1 && k=c
  for a in min_freq max_freq; do ok "/sys/class/devfreq/$n/$a" && add $k "/sys/class/devfreq/$n/$a" && c=1; done
  nd=$((nd + c))
done
ok /sys/kernel/debug/rknpu/load && add e /sys/kernel/debug/rknpu/load && nn=1
# debugfs is mode 700 for root: a login without root does not even see rknpu/load. A board with an
# NPU devfreq node has it, so it counts as unreadable there.
if [ $nn = 0 ] && [ -d "$R/sys/kernel/debug" ] && [ ! -r "$R/sys/kernel/debug" ]; then
  for d in "$R"/sys/class/devfreq/*npu*; do
    [ -d "$d" ] && { nu=$((nu + 1)); U=\${U:-/sys/kernel/debug/rknpu/load}; break; }
  done
fi
if ! command -v tegrastats >/dev/null 2>&1; then
  for h in "$R"/sys/class/hwmon/hwmon*; do
    nm=""; read -r nm < "$h/name" 2>/dev/null || continue
    case "$nm" in ina*) ;; *) continue;; esac
    hn=\${h##*/}; nh=$((nh + 1))
    for f in "$h"/in*_label "$h"/curr*_label "$h"/power*_label; do
      ok "/sys/class/hwmon/$hn/\${f##*/}" && add s "/sys/class/hwmon/$hn/\${f##*/}"
    done
    for f in "$h"/in*_input "$h"/curr*_input "$h"/power*_input; do
      ok "/sys/class/hwmon/$hn/\${f##*/}" && add e "/sys/class/hwmon/$hn/\${f##*/}"
    done
  done
  for x in "$R"/sys/bus/i2c/drivers/ina3221x/*/iio:device*; do
    [ -d "$x" ] || continue
    rel=\${x#"$R"}; nh=$((nh + 1))
    for f in "$x"/rail_name_*; do ok "$rel/\${f##*/}" && add s "$rel/\${f##*/}"; done
    for f in "$x"/in_power*_input; do ok "$rel/\${f##*/}" && add e "$rel/\${f##*/}"; done
  done
fi
for z in "$R"/sys/class/thermal/thermal_zone*; do
  zn=\${z##*/}; c=0
  for f in "$z"/trip_point_*_temp; do
    ok "/sys/class/thermal/$zn/\${f##*/}" || continue
    [ $c = 0 ] && add o "/sys/class/thermal/$zn/type"
    add o "/sys/class/thermal/$zn/\${f##*/}"; c=1
  done
  nt=$((nt + c))
done
[ -n "$L" ] || [ $nu = 0 ] || { say "! denied $U and $((nu - 1)) more files do not read; ${BOARD_UNREADABLE_HOW}"; return 1; }
[ -n "$L" ] || { say "! absent ${ABSENT_REASON}"; return 1; }
say "H v=1 devfreq=$nd npu=$nn power=$nh tripzones=$nt unreadable=$nu first=$U"
export KV_BOARD_FILES="$L" KV_BOARDSYSFS_ROOT="$R"`,
  awk: String.raw`
function boardsysfs_begin() {
  boardsysfs_n = split(ENVIRON["KV_BOARD_FILES"], boardsysfs_files, "\n"); boardsysfs_first = 1
  boardsysfs_root = ENVIRON["KV_BOARDSYSFS_ROOT"]; boardsysfs_ticks = 0
  boardsysfs_capEvery = ENVIRON["KV_BOARD_CAPS_EVERY"] + 0; if (boardsysfs_capEvery < 1) boardsysfs_capEvery = 1
  return 1
}
# boardsysfs_kept[i]: file i's last reading (a label, a clock); boardsysfs_moved: the clock before
# a cap changed since the last tick.
function boardsysfs_tick(   ua, out, i, f, k, p, v) {
  if (rdTick("/proc/" pid "/stat") == "") return 0
  split(rdTick("/proc/uptime"), ua, " ")
  out = "t=" ua[1]
  for (i = 1; i <= boardsysfs_n; i++) {
    f = boardsysfs_files[i]; k = substr(f, 1, 1)
    if (f == "" || (k == "o" && !boardsysfs_first)) continue
    p = substr(f, 3)
    if (k == "s") {
      if (boardsysfs_first) boardsysfs_kept[i] = rd(boardsysfs_root p)
      v = boardsysfs_kept[i]
    } else if (k == "c") v = rdCap(boardsysfs_root p, boardsysfs_moved, boardsysfs_ticks, boardsysfs_capEvery)
    else {
      v = rd(boardsysfs_root p)
      boardsysfs_moved = boardsysfs_first || v != boardsysfs_kept[i]; boardsysfs_kept[i] = v
    }
    out = out "|" p ":" v
  }
  boardsysfs_first = 0; boardsysfs_ticks++
  # Nothing but the time (a board with trip points only, after the first tick): no line, which
  # would read as a tick without a reading.
  if (out != "t=" ua[1]) emit(out)
  return 1
}
`,
};

/** A trip point's part, `<zone type>.<index>` (boardKey.trip): `cpu-thermal, trip 0`. */
function tripWords(part: string): string {
  const m = /^(.+)\.(\d+)$/.exec(part);
  return m ? `${m[1] ?? ''}, trip ${m[2] ?? ''}` : part;
}

export const boardSysfsCollector: CollectorDefinition = {
  id: 'boardsysfs',
  title: 'Board clocks, NPU load, power sensors, trip points (devfreq, rknpu, hwmon INA, thermal)',
  script: readerScript([{ id: 'boardsysfs', reader }]),
  reader,
  tagsOwnLines: true,
  // A getline per file: a few dozen files cost well under a millisecond a tick; devfreq governors
  // move clocks every 10–100 ms, so 1 s shows the trend, faster shows the steps.
  interval: { defaultMs: 1000, minMs: 200, maxMs: 60_000 },
  scriptArgs: (intervalMs) => ['', String(capRecheckEveryTicks(intervalMs))],
  createParser: createBoardSysfsCollectorParser,
  series: [
    { key: 'devfreq.*.curFreqMHz', label: 'devfreq clock', legend: (d) => `${d} clock`, unit: 'MHz', kind: 'gauge' },
    {
      key: 'devfreq.*.minFreqMHz',
      label: 'devfreq clock floor',
      legend: (d) => `${d} floor`,
      unit: 'MHz',
      kind: 'gauge',
    },
    {
      key: 'devfreq.*.maxFreqMHz',
      label: 'devfreq clock ceiling',
      legend: (d) => `${d} ceiling`,
      unit: 'MHz',
      kind: 'gauge',
    },
    {
      key: 'npu.*.loadPct',
      label: 'NPU core load (rknpu)',
      legend: (core) => `NPU ${core} load`,
      unit: 'pct',
      kind: 'gauge',
    },
    { key: 'power.*.mW', label: 'power sensor (INA)', legend: (rail) => `${rail} (INA)`, unit: 'mW', kind: 'gauge' },
    {
      key: 'trip.*.C',
      label: 'thermal trip point',
      partWords: tripWords,
      legend: tripWords,
      unit: 'C',
      kind: 'limit',
    },
  ],
};
