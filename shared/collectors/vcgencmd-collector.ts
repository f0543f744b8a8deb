// Raspberry Pi firmware readings: get_throttled (under-voltage, ARM clock capped, throttled, soft
// temperature limit; now and since boot), the SoC temperature and the ARM clock.
//
// A reader (shared/collectors/reader-script.ts): at 1 Hz it is every other tick of the run's reader
// awk. It reads the firmware's sysfs mirror /sys/devices/platform/soc/soc:firmware/get_throttled and
// the SoC's thermal zone (a getline each, no process), and runs `vcgencmd` (through one shell it
// keeps, see its awk below) only for a reading no file has:
// - the ARM clock. On a Pi, cpufreq's scaling_cur_freq is the clock the kernel asked the firmware
//   for, not the one it runs at when the firmware limits it. While get_throttled's "now" bits (0–3:
//   under-voltage, ARM clock capped, throttled, soft temperature limit) are all clear, nothing
//   limits it and the two are the same clock (sbc-bench's table in corpus thermal_cpufreq/04 (E):
//   cpufreq's OPP, the firmware's clock and the measured one within 1 MHz at every OPP). So the
//   clock is cpufreq's then (a file), and `vcgencmd measure_clock arm` runs only while a now bit
//   is set (or where cpufreq has no file). The sysfs mirror's bits lag by up to its driver's 2 s
//   poll, as a measurement every 2 s does.
// - get_throttled and measure_temp on kernels without those files (before 2018).
// A Pi the firmware is not limiting costs three file reads every 2 s; a limited one a fork of
// vcgencmd too. (The shell loop this collector had before woke a ticker, a shell and an awk and
// forked every 2 s whatever the bits: ~0.12 % of a core, bench/collectors.bench.ts.)
// On a 4.19 OSMC kernel the sysfs mirror showed only the under-voltage bits while vcgencmd showed
// the soft-limit ones: corpus thermal_cpufreq/03 (F), test/fixtures/thermal/raspberry-pi-vcgencmd.
//
// Takes a root directory ($1, default `/`, or KVSCOPE_SYSFS_ROOT on the target for tests, see
// docs/DEVELOPING.md) under which it looks for the sysfs files. Lines:
// shared/collectors/vcgencmd-collector-parser.ts.
import type { CollectorDefinition, ReaderPart } from './collector';
import { readerScript } from './reader-script';
import { createVcgencmdCollectorParser, THROTTLE_SERIES, THROTTLED_BITS_KEY } from './vcgencmd-collector-parser';

const ABSENT_REASON =
  'no vcgencmd and no /sys/devices/platform/soc/soc:firmware/get_throttled: not a Raspberry Pi (or its firmware tools are not installed)';
const DENIED_HOW = 'add the login to the video group (sudo usermod -aG video <user>, then log in again) or run as root';

/** The sysfs mirror of the firmware's throttled bits (hex without 0x). */
const THROTTLED_FILE = '/sys/devices/platform/soc/soc:firmware/get_throttled';
/** The clock cpufreq set for the ARM cores (kHz; one policy: every Pi has one cluster). */
const CPUFREQ_FILE = '/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq';

const reader: ReaderPart = {
  setupSh: `VR="\${1:-\${KVSCOPE_SYSFS_ROOT:-/}}"; VR="\${VR%/}"
VC=0; command -v vcgencmd >/dev/null 2>&1 && VC=1
THF=""; read -r _ < "$VR${THROTTLED_FILE}" 2>/dev/null && THF="${THROTTLED_FILE}"
if [ $VC = 0 ] && [ -z "$THF" ]; then say "! absent ${ABSENT_REASON}"; return 1; fi
if [ $VC = 1 ]; then
  o=$(vcgencmd get_throttled 2>&1)
  case "$o" in throttled=*) ;; *) [ -z "$THF" ] && { say "! denied vcgencmd get_throttled says: $(echo $o): ${DENIED_HOW}"; return 1; }; VC=0;; esac
fi
TZ=""; TZT=""
for z in "$VR"/sys/class/thermal/thermal_zone*; do
  t=""; read -r t < "$z/type" 2>/dev/null || continue
  case "$t" in cpu-thermal|bcm2835_thermal|bcm2711_thermal) ;; *) continue;; esac
  read -r v < "$z/temp" 2>/dev/null || continue
  case "$v" in ''|*[!0-9-]*) continue;; esac
  TZ=\${z##*/}; TZT=$t; break
done
CF=""; read -r _ < "$VR${CPUFREQ_FILE}" 2>/dev/null && CF="${CPUFREQ_FILE}"
# Where the shell that runs vcgencmd puts a reading and the count of requests it has answered (tmpfs
# where there is one: a write a reading, never to the SD card).
VF="\${TMPDIR:-/tmp}/kvscope-vcgencmd.$$"; [ -d /dev/shm ] && [ -w /dev/shm ] && VF=/dev/shm/kvscope-vcgencmd.$$
TH=vcgencmd; [ -n "$THF" ] && TH=sysfs
say "H v=1 throttled=$TH temp=\${TZ:-vcgencmd} clock=$VC cpufreq=\${CF:+policy0}"
export KV_VCGENCMD_ROOT="$VR" KV_VCGENCMD_THF="$THF" KV_VCGENCMD_TZ="$TZ" KV_VCGENCMD_TZT="$TZT" KV_VCGENCMD_VC="$VC" KV_VCGENCMD_CF="$CF" KV_VCGENCMD_F="$VF"`,
  // A tick: `t=<uptime>|<part>…` (shared/collectors/board-sysfs-tick.ts), a file's part as
  // `<path>:<value>`, a reading's as vcgencmd printed it (its lines joined by spaces). The readings
  // that need vcgencmd are asked of one shell the awk starts once (`print … | helper`): it forks
  // vcgencmd for each (~2 ms of CPU a reading on the 2-core x86 VM, where a fork of the awk,
  // `cmd | getline`, costs ~4.7 ms), adds them to the tick's line and writes it, tagged by the awk
  // and counted against its spool cap (emitTagged; vcgencmd's words, ~30 bytes a reading, are not).
  awk: String.raw`
function vcgencmd_begin() {
  vcgencmd_root = ENVIRON["KV_VCGENCMD_ROOT"]; vcgencmd_thf = ENVIRON["KV_VCGENCMD_THF"]
  vcgencmd_tz = ENVIRON["KV_VCGENCMD_TZ"]; vcgencmd_tzt = ENVIRON["KV_VCGENCMD_TZT"]
  vcgencmd_vc = ENVIRON["KV_VCGENCMD_VC"] + 0; vcgencmd_cf = ENVIRON["KV_VCGENCMD_CF"]
  # Reads "<readings>|<line>": b get_throttled, t measure_temp, c measure_clock arm. vcgencmd
  # writes into a file read back by the shell's read (a command substitution cost ~1.4 ms of CPU a
  # reading more: a pipe, and the shell reading it); after each line the shell writes how many
  # requests it has answered into <file>.n.
  vcgencmd_f = ENVIRON["KV_VCGENCMD_F"]; vcgencmd_asked = 0
  vcgencmd_helper = "set -f; F=$KV_VCGENCMD_F; n=0; trap 'rm -f \"$F\" \"$F.n\"' EXIT; trap 'exit 1' HUP INT TERM;" \
    " r() { vcgencmd \"$@\" > \"$F\" 2>&1; o=\"\";" \
    " while IFS= read -r x || [ -n \"$x\" ]; do [ -z \"$o\" ] && o=$x || o=\"$o $x\"; done < \"$F\"; l=\"$l|$o\"; };" \
    " while IFS=\"|\" read -r w l; do" \
    " case $w in *b*) r get_throttled;; esac; case $w in *t*) r measure_temp;; esac;" \
    " case $w in *c*) r measure_clock arm;; esac; printf \"%s\\n\" \"$l\"; n=$((n + 1)); echo $n > \"$F.n\"; done"
  return 1
}
function vcgencmd_tick(   ua, out, w, b, f, t) {
  if (rdTick("/proc/" pid "/stat") == "") return 0
  split(rdTick("/proc/uptime"), ua, " ")
  out = "t=" ua[1]; w = ""
  if (vcgencmd_thf != "") { b = rd(vcgencmd_root vcgencmd_thf); out = out "|" vcgencmd_thf ":" b }
  else w = "b"
  if (vcgencmd_tz != "") {
    f = "/sys/class/thermal/" vcgencmd_tz
    # rdTick: the procfs reader reads the same zone (and policy0's clock below): one read a tick.
    out = out "|" f "/type:" vcgencmd_tzt "|" f "/temp:" rdTick(vcgencmd_root f "/temp")
  } else w = w "t"
  # The ARM clock: cpufreq's while no now bit is set (the bits' last hex digit is 0), else measured.
  f = ""
  if (vcgencmd_cf != "" && vcgencmd_thf != "" && b ~ /^[0-9a-fA-F]*0$/) f = rdTick(vcgencmd_root vcgencmd_cf)
  if (f ~ /^[0-9]+$/) out = out "|" vcgencmd_cf ":" f
  else if (vcgencmd_vc) w = w "c"
  # Nothing to ask; or the shell has not answered the last request yet (vcgencmd hanging on a stuck
  # firmware mailbox): no more requests, which would fill the pipe and stop every reader of the
  # awk; the tick goes out with what the files gave, and not at all when they gave nothing (a
  # board without the files: a line without a reading would read as a fault of the board).
  if (w == "" || (vcgencmd_asked > 0 && rd(vcgencmd_f ".n") + 0 < vcgencmd_asked)) {
    if (out != "t=" ua[1]) emit(out)
    return 1
  }
  t = emitTagged(out)
  if (emitKept) { print w "|" t | vcgencmd_helper; fflush(vcgencmd_helper); vcgencmd_asked++ }
  return 1
}
`,
};

export const vcgencmdCollector: CollectorDefinition = {
  id: 'vcgencmd',
  title: 'Raspberry Pi firmware (get_throttled, SoC temperature, ARM clock)',
  script: readerScript([{ id: 'vcgencmd', reader }]),
  reader,
  tagsOwnLines: true,
  // The firmware's driver polls its throttle bits every 2 s, and a limited Pi forks vcgencmd per
  // reading (see above): 2 s misses no throttling episode that matters to a run.
  interval: { defaultMs: 2000, minMs: 500, maxMs: 60_000 },
  unavailable: (facts) =>
    facts?.tools && facts.tools.vcgencmd === null && facts.raspberryPi?.throttledBits == null
      ? { status: 'absent', reason: ABSENT_REASON }
      : null,
  createParser: createVcgencmdCollectorParser,
  series: [
    { key: 'rpi.soc.C', label: 'SoC temperature (firmware)', legend: 'SoC temp', unit: 'C', kind: 'gauge' },
    { key: 'rpi.armFreqMHz', label: 'ARM clock, actual', legend: 'ARM clock', unit: 'MHz', kind: 'gauge' },
    { key: THROTTLED_BITS_KEY, label: 'get_throttled bits', unit: 'count', kind: 'gauge' },
    ...THROTTLE_SERIES.map((s) => ({ key: s.key, label: s.label, unit: 'count' as const, kind: 'gauge' as const })),
  ],
};
