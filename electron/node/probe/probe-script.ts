// The probe: ONE POSIX sh script, fed to `sh -s` on the target, that prints every board fact
// KVScope needs in sections the pure parser (shared/probe/probe-parser.ts) splits.
//
// Rules it keeps: POSIX sh only (runs under dash, bash and busybox ash: checked by
// test/integration/ssh/probe-script.test.ts with busybox's own applets on PATH); every file may
// be missing or unreadable (sysfs reads can fail with EAGAIN); files are read with the `read`
// builtin (no fork per file — a fork costs ~1 ms on a Pi) and only fall back to `cat` when the
// read fails; the whole body is one function, so the shell has read all of it from stdin before
// the first command runs, and every command gets /dev/null as stdin.
import { PROBE_HEADER, probeSectionMarker } from '../../../shared/probe/probe-parser';

const S = probeSectionMarker;

export const PROBE_SCRIPT = `kvscope_probe() {
LC_ALL=C
export LC_ALL
PATH="$PATH:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
kv() {
  [ -e "$2" ] || return 0
  v=
  if read -r v 2>/dev/null <"$2" || [ -n "$v" ]; then
    printf '%s=%s\\n' "$1" "$v"
  elif v=$(cat "$2" 2>/dev/null); then
    printf '%s=%s\\n' "$1" "$v"
  else
    printf '%s!\\n' "$1"
  fi
}
# /proc/sys files answer only a read at offset 0: dash's byte-at-a-time \`read\` gets "5" of "50".
kvc() {
  [ -e "$2" ] || return 0
  if v=$(cat "$2" 2>/dev/null); then printf '%s=%s\\n' "$1" "$v"; else printf '%s!\\n' "$1"; fi
}
printf '%s\\n' '${PROBE_HEADER}'

echo '${S('uname')}'
printf 'arch=%s\\n' "$(uname -m 2>/dev/null)"
printf 'kernel=%s\\n' "$(uname -r 2>/dev/null)"
printf 'hostname=%s\\n' "$(uname -n 2>/dev/null)"
printf 'uid=%s\\n' "$(id -u 2>/dev/null)"
printf 'user=%s\\n' "$(id -un 2>/dev/null)"
printf 'epoch=%s\\n' "$(date +%s 2>/dev/null)"

echo '${S('os-release')}'
cat /etc/os-release 2>/dev/null || cat /usr/lib/os-release 2>/dev/null

echo '${S('model')}'
if [ -r /proc/device-tree/model ]; then tr -d '\\000' </proc/device-tree/model 2>/dev/null; echo; fi

echo '${S('jetson')}'
kv l4t /etc/nv_tegra_release

echo '${S('cpu')}'
kv online /sys/devices/system/cpu/online
printf 'nproc=%s\\n' "$(grep -c '^processor' /proc/cpuinfo 2>/dev/null)"
awk '/^(model name|Hardware|Model)[ \\t]*:/ { k = $0; sub(/[ \\t]*:.*$/, "", k); v = $0; sub(/^[^:]*:[ \\t]*/, "", v); if (!(k in seen)) { seen[k] = 1; print k "=" v } }' /proc/cpuinfo 2>/dev/null

echo '${S('cpufreq')}'
found=
for p in /sys/devices/system/cpu/cpufreq/policy*; do
  [ -d "$p" ] || continue
  found=1
  n=\${p##*/}
  for f in related_cpus affected_cpus cpuinfo_min_freq cpuinfo_max_freq scaling_min_freq scaling_max_freq scaling_cur_freq scaling_governor scaling_driver scaling_available_governors; do
    kv "$n/$f" "$p/$f"
  done
done
if [ -z "$found" ]; then
  for p in /sys/devices/system/cpu/cpu[0-9]*/cpufreq; do
    [ -d "$p" ] || continue
    c=\${p%/cpufreq}
    n=policy\${c##*/cpu}
    for f in related_cpus affected_cpus cpuinfo_min_freq cpuinfo_max_freq scaling_min_freq scaling_max_freq scaling_cur_freq scaling_governor scaling_driver scaling_available_governors; do
      kv "$n/$f" "$p/$f"
    done
  done
fi

echo '${S('meminfo')}'
cat /proc/meminfo 2>/dev/null

echo '${S('swaps')}'
cat /proc/swaps 2>/dev/null

echo '${S('zram')}'
for d in /sys/block/zram*; do
  [ -d "$d" ] || continue
  n=\${d##*/}
  kv "$n/disksize" "$d/disksize"
  kv "$n/comp_algorithm" "$d/comp_algorithm"
  kv "$n/mm_stat" "$d/mm_stat"
done

echo '${S('pagesize')}'
printf 'getconf=%s\\n' "$(getconf PAGESIZE 2>/dev/null)"
awk '/^KernelPageSize:/ { print "smaps_kb=" $2; exit }' /proc/self/smaps 2>/dev/null

echo '${S('thp')}'
kv enabled /sys/kernel/mm/transparent_hugepage/enabled
kv defrag /sys/kernel/mm/transparent_hugepage/defrag

echo '${S('vm')}'
for f in overcommit_memory overcommit_ratio swappiness min_free_kbytes; do kvc "$f" "/proc/sys/vm/$f"; done

echo '${S('cgroup')}'
while read -r l; do printf 'line=%s\\n' "$l"; done </proc/self/cgroup 2>/dev/null
p2=$(awk -F: '$1 == "0" && $2 == "" { print $3; exit }' /proc/self/cgroup 2>/dev/null)
if [ -n "$p2" ] && [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  d=/sys/fs/cgroup\${p2%/}
  while [ -n "$d" ]; do
    kv "v2:\${d#/sys/fs/cgroup}/memory.max" "$d/memory.max"
    kv "v2:\${d#/sys/fs/cgroup}/memory.high" "$d/memory.high"
    [ "$d" = /sys/fs/cgroup ] && break
    d=\${d%/*}
  done
fi
m1=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i+1) == "cgroup" && $(i+3) ~ /(^|,)memory(,|$)/) print $4 " " $5; break } }' /proc/self/mountinfo 2>/dev/null | head -n 1)
p1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup 2>/dev/null)
if [ -n "$m1" ] && [ -n "$p1" ]; then
  root=\${m1%% *}
  mnt=\${m1#* }
  [ "$root" != / ] && p1=\${p1#"$root"}
  d=$mnt\${p1%/}
  awk '$1 == "hierarchical_memory_limit" { print "v1:hierarchical_memory_limit=" $2 }' "$d/memory.stat" 2>/dev/null
  while [ -n "$d" ]; do
    kv "v1:\${d#"$mnt"}/memory.limit_in_bytes" "$d/memory.limit_in_bytes"
    [ "$d" = "$mnt" ] && break
    d=\${d%/*}
  done
fi

echo '${S('perf')}'
pp=$(command -v perf 2>/dev/null)
printf 'path=%s\\n' "$pp"
kvc paranoid /proc/sys/kernel/perf_event_paranoid
if [ -n "$pp" ]; then
  pv=$(perf --version 2>&1)
  printf 'version_status=%s\\n' "$?"
  printf '%s\\n' "$pv" | head -n 1 | sed 's/^/version=/'
fi

echo '${S('tools')}'
for t in tegrastats jetson_clocks nvpmodel vcgencmd node python3 pmap awk llama-cli llama-server llama-bench nvidia-smi; do
  printf '%s=%s\\n' "$t" "$(command -v "$t" 2>/dev/null)"
done
if command -v node >/dev/null 2>&1; then printf 'node_version=%s\\n' "$(node --version 2>/dev/null)"; fi

echo '${S('rpi')}'
if command -v vcgencmd >/dev/null 2>&1; then printf 'get_throttled=%s\\n' "$(vcgencmd get_throttled 2>/dev/null)"; fi

echo '${S('thermal')}'
for z in /sys/class/thermal/thermal_zone*; do
  [ -d "$z" ] || continue
  n=\${z##*/}
  kv "$n/type" "$z/type"
  kv "$n/temp" "$z/temp"
  for t in "$z"/trip_point_*_temp; do
    [ -e "$t" ] || continue
    b=\${t##*/}
    b=\${b%_temp}
    kv "$n/\${b}_temp" "$t"
    kv "$n/\${b}_type" "$z/\${b}_type"
  done
done

echo '${S('devfreq')}'
for d in /sys/class/devfreq/*; do
  [ -d "$d" ] || continue
  n=\${d##*/}
  for f in cur_freq min_freq max_freq governor available_frequencies; do kv "$n/$f" "$d/$f"; done
done

echo '${S('smaps_rollup')}'
if [ -r /proc/self/smaps_rollup ]; then echo yes; else echo no; fi

echo '${S('uptime')}'
kv uptime /proc/uptime
kv loadavg /proc/loadavg

echo '${S('df')}'
df -Pk /tmp 2>/dev/null

echo '${S('end')}'
}
kvscope_probe </dev/null
`;
