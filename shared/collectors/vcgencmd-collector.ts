// Raspberry Pi firmware readings: get_throttled (under-voltage, ARM clock capped, throttled, soft
// temperature limit; now and since boot), the SoC temperature and the ARM clock the firmware
// measured (on a Pi, cpufreq's scaling_cur_freq is the requested clock, not the throttled one).
//
// Cost: `vcgencmd` is a process per reading. So the script reads the firmware's sysfs mirror
// /sys/devices/platform/soc/soc:firmware/get_throttled and the SoC's thermal zone where present (a
// getline, no process), and forks only for what has no file: `vcgencmd measure_clock arm`, plus
// `get_throttled`/`measure_temp` on kernels without those files. Hence the 2 s default. (On a 4.19 OSMC kernel the sysfs mirror showed only
// the under-voltage bits while vcgencmd showed the soft-limit ones: corpus thermal_cpufreq/03 (F),
// test/fixtures/thermal/raspberry-pi-vcgencmd.)
//
// Takes a root directory ($3, default `/`, or KVSCOPE_SYSFS_ROOT on the target for tests, see
// docs/DEVELOPING.md) under which it looks for the sysfs files. Lines:
// shared/collectors/vcgencmd-collector-parser.ts.
import type { CollectorDefinition } from './collector';
import { AWK_INTERACTIVE_SH, awkWord, EMIT_AWK, SAY_SH, TICKER_SH } from './collector-script';
import { createVcgencmdCollectorParser, THROTTLE_SERIES, THROTTLED_BITS_KEY } from './vcgencmd-collector-parser';

const ABSENT_REASON =
  'no vcgencmd and no /sys/devices/platform/soc/soc:firmware/get_throttled: not a Raspberry Pi (or its firmware tools are not installed)';
const DENIED_HOW = 'add the login to the video group (sudo usermod -aG video <user>, then log in again) or run as root';

/** The sysfs mirror of the firmware's throttled bits (hex without 0x). */
const THROTTLED_FILE = '/sys/devices/platform/soc/soc:firmware/get_throttled';

// The readings that have no file are run by the shell loop between the ticker and the awk: a
// fork of the small shell per reading, not a fork of awk plus an `sh -c` (measured on the 2-core
// x86 VM: ~0.9 ms of CPU a tick less for three readings). Each reading's lines end with a SEP
// line, the tick with an END line.
const SEP = '--kvscope-vcgencmd--';
const END = '--kvscope-tick--';

const awkProgram = String.raw`
function rd(f,   l, r) { r = ""; if ((getline l < f) > 0) r = l; close(f); return r }
BEGIN { k = 1 }
$0 == sep { k++; next }
$0 != end { got[k] = got[k] $0; next }
{
  if (rd("/proc/" pid "/stat") == "") exit 0
  split(rd("/proc/uptime"), ua, " ")
  out = "t=" ua[1]; j = 1
  if (thf != "") out = out "|" thf ":" rd(root thf)
  else out = out "|" got[j++]
  if (tz != "") out = out "|/sys/class/thermal/" tz "/type:" tzt "|/sys/class/thermal/" tz "/temp:" rd(root "/sys/class/thermal/" tz "/temp")
  else out = out "|" got[j++]
  if (vc) out = out "|" got[j++]
  emit(out)
  split("", got); k = 1
}
`;

function vcgencmdScript(): string {
  return `#!/bin/sh
# KVScope vcgencmd collector: one awk; files where the kernel has them, vcgencmd (a fork of the loop) where not.
# $1 = pid, $2 = interval in seconds, $3 = root directory (default /).
${SAY_SH}
P="$1"; I="$2"; R="\${3:-\${KVSCOPE_SYSFS_ROOT:-/}}"; R="\${R%/}"
VC=0; command -v vcgencmd >/dev/null 2>&1 && VC=1
THF=""; read -r _ < "$R${THROTTLED_FILE}" 2>/dev/null && THF="${THROTTLED_FILE}"
if [ $VC = 0 ] && [ -z "$THF" ]; then say "! absent ${ABSENT_REASON}"; exit 0; fi
if [ $VC = 1 ]; then
  o=$(vcgencmd get_throttled 2>&1)
  case "$o" in throttled=*) ;; *) [ -z "$THF" ] && { say "! denied vcgencmd get_throttled says: $(echo $o): ${DENIED_HOW}"; exit 0; }; VC=0;; esac
fi
TZ=""; TZT=""
for z in "$R"/sys/class/thermal/thermal_zone*; do
  t=""; read -r t < "$z/type" 2>/dev/null || continue
  case "$t" in cpu-thermal|bcm2835_thermal|bcm2711_thermal) ;; *) continue;; esac
  read -r v < "$z/temp" 2>/dev/null || continue
  case "$v" in ''|*[!0-9-]*) continue;; esac
  TZ=\${z##*/}; TZT=$t; break
done
say "H v=1 throttled=\${THF:+sysfs}\${THF:-vcgencmd} temp=\${TZ:-vcgencmd} clock=$VC"
${TICKER_SH}
${AWK_INTERACTIVE_SH}
tick | while read -r _; do
  [ -z "$THF" ] && { vcgencmd get_throttled 2>&1; printf '\\n%s\\n' ${SEP}; }
  [ -z "$TZ" ] && { vcgencmd measure_temp 2>&1; printf '\\n%s\\n' ${SEP}; }
  [ $VC = 1 ] && { vcgencmd measure_clock arm 2>&1; printf '\\n%s\\n' ${SEP}; }
  echo ${END}
done | awk $AWKI -v pid="$P" -v root="$R" -v thf="$THF" -v tz="$TZ" -v tzt="$TZT" -v vc="$VC" -v sep=${SEP} -v end=${END} ${awkWord(EMIT_AWK + awkProgram)}
`;
}

export const vcgencmdCollector: CollectorDefinition = {
  id: 'vcgencmd',
  title: 'Raspberry Pi firmware (get_throttled, SoC temperature, measured ARM clock)',
  script: vcgencmdScript(),
  tagsOwnLines: true,
  // vcgencmd forks a process per reading (see above); the firmware's throttle bits change on a
  // scale of seconds, so 2 s misses no throttling episode that matters to a run.
  interval: { defaultMs: 2000, minMs: 500, maxMs: 60_000 },
  unavailable: (facts) =>
    facts?.tools && facts.tools.vcgencmd === null && facts.raspberryPi?.throttledBits == null
      ? { status: 'absent', reason: ABSENT_REASON }
      : null,
  createParser: createVcgencmdCollectorParser,
  series: [
    { key: 'rpi.soc.C', label: 'SoC temperature (firmware)', legend: 'SoC temp', unit: 'C', kind: 'gauge' },
    { key: 'rpi.armFreqMHz', label: 'ARM clock, measured', unit: 'MHz', kind: 'gauge' },
    { key: THROTTLED_BITS_KEY, label: 'get_throttled bits', unit: 'count', kind: 'gauge' },
    ...THROTTLE_SERIES.map((s) => ({ key: s.key, label: s.label, unit: 'count' as const, kind: 'gauge' as const })),
  ],
};
