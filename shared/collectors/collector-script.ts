// Shell pieces every collector script shares (shared/collectors/collector.ts has the contract).
// Text only: the launcher (electron/node/run/run-scripts.ts) uploads and runs the scripts.

/**
 * Defines `tick`: prints one empty line every `$I` seconds until its reader goes away. With bash
 * it aims at absolute deadlines (EPOCHREALTIME, bash 5+) so ticks do not drift by the work done
 * per tick, and sleeps with `read -t` on a pipe that never has data (no fork; `printf -v` is a
 * builtin); falling behind by more than a tick starts afresh, never bursts. Without bash, one
 * `sleep` a tick. Reads `$I` (interval in seconds, decimal text such as 0.2).
 */
export const TICKER_SH = `TICK_BASH='exec 3<> <(:)
iv=$1; case $iv in *.*) int=\${iv%.*}; frac=\${iv#*.};; *) int=$iv; frac=0;; esac
frac=\${frac}000000; us=$(( 10#\${int:-0} * 1000000 + 10#\${frac:0:6} ))
if [ -z "$EPOCHREALTIME" ]; then while :; do echo || exit 0; read -r -t "$iv" -u 3; done; fi
next=\${EPOCHREALTIME/./}
while :; do
  echo || exit 0
  next=$((next + us)); now=\${EPOCHREALTIME/./}; d=$((next - now))
  if [ $d -le 0 ]; then [ $d -lt -$us ] && next=$now; continue; fi
  printf -v t "%d.%06d" $((d / 1000000)) $((d % 1000000))
  read -r -t "$t" -u 3
done'
tick() {
  if command -v bash >/dev/null 2>&1; then
    exec bash -c "$TICK_BASH" kvscope-tick "$I"
  fi
  while :; do echo || exit 0; sleep "$I"; done
}`;

/** Sets `$AWKI`: mawk reads a pipe in blocks unless told to be interactive; gawk and busybox awk read lines. */
export const AWK_INTERACTIVE_SH = `AWKI=""; case "$(awk -W version 2>&1 </dev/null | head -n 1)" in *mawk*) AWKI="-W interactive";; esac`;

/** An awk program as one single-quoted shell word. */
export function awkWord(program: string): string {
  return `'${program.replace(/'/g, "'\\''")}'`;
}
