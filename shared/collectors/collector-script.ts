// Shell pieces every collector script shares (shared/collectors/collector.ts has the contract).
// Text only: the launcher (electron/node/run/run-scripts.ts) uploads and runs the scripts.

/**
 * A tick's line(s) in sh (the bash ticker and the `sleep` one): `line` prints the empty line, or,
 * when asked to list (`ge`, see TICKER_SH), "+" and the /proc listing at a rescan tick.
 */
const TICK_LINE_SH = `n=0; k=0
line() {
  [ -z "$ge" ] && { echo; return; }
  if [ $n = 0 ]; then
    echo + && echo /proc/[0-9]* || return 1; k=$((k + 1)); [ $k = "$gf" ] && ge=$gs
  else echo || return 1; fi
  n=$(( (n + 1) % ge ))
}`;

/**
 * Defines `tick`: prints one empty line every `$I` seconds (decimal text such as 0.2) until its
 * reader goes away, aiming at absolute deadlines so ticks do not drift by the work done per tick;
 * falling behind by more than a tick starts afresh, never bursts. A tick is a timer wake-up and a
 * write, whichever runs it, so the cheapest sleeper the target has does it (CPU a tick at 1 Hz,
 * cpuacct, 2-core x86 VM, bench/collectors.bench.ts):
 *  - perl with Time::HiRes (core since perl 5.8; on Debian, Ubuntu/L4T, Raspberry Pi OS, Armbian):
 *    ~0.06 ms;
 *  - bash 5 (EPOCHREALTIME), sleeping with `read -t` on a pipe that never has data (no fork;
 *    `printf -v` is a builtin): ~0.15 ms, most of it bash evaluating the deadline arithmetic;
 *  - else (busybox, no perl): one `sleep` a tick, a fork and an exec: ~1.3 ms.
 * The price of perl is memory: ~1.2 MB private (anonymous) per ticker against bash's ~0.3 MB, and
 * libperl's pages (shared by every perl ticker) — a few MB on the board for ~0.1 ms of CPU a tick
 * saved per collector (measured with smaps_rollup on the same VM).
 *
 * `tick <every> <slow> <fast>` (the procfs sampler) also lists the processes: at a rescan tick the
 * line is "+" followed by a line of the /proc/<pid> directories (a readdir in the ticker itself, no
 * fork, ~0.3 ms; perl's glob() would also stat every entry, ~0.4 ms more for 150 processes on the
 * 2-core x86 VM: perl reads the directory itself), every <every> ticks for the first <fast>
 * rescans, then every <slow> ticks. The
 * ticker is the one process that wakes each tick anyway: a shell between it and the awk to do this
 * was one more (~0.1 ms of CPU a tick at 1 Hz, perf stat on the 2-core x86 VM).
 */
export const TICKER_SH = `TICK_PERL='$|=1; my ($iv, $ge, $gs, $gf) = @ARGV; my $list = defined $ge && $ge ne "";
my ($n, $k) = (0, 0); my $next=time();
while (1) {
  if ($list && $n == 0) {
    print "+\\n" or exit 0;
    my @p; if (opendir(my $d, "/proc")) { @p = sort map { "/proc/$_" } grep { /^[0-9]/ } readdir($d) }
    print join(" ", @p), "\\n" or exit 0;
    $ge = $gs if ++$k == $gf;
  } else { print "\\n" or exit 0 }
  $n = ($n + 1) % $ge if $list;
  $next += $iv; my $d = $next - time();
  if ($d <= 0) { $next = time() if $d < -$iv; next }
  sleep($d);
}'
TICK_BASH='exec 3<> <(:)
iv=$1; ge=$2; gs=$3; gf=$4
${TICK_LINE_SH}
case $iv in *.*) int=\${iv%.*}; frac=\${iv#*.};; *) int=$iv; frac=0;; esac
frac=\${frac}000000; us=$(( 10#\${int:-0} * 1000000 + 10#\${frac:0:6} ))
if [ -z "$EPOCHREALTIME" ]; then while :; do line || exit 0; read -r -t "$iv" -u 3; done; fi
next=\${EPOCHREALTIME/./}
while :; do
  line || exit 0
  next=$((next + us)); now=\${EPOCHREALTIME/./}; d=$((next - now))
  if [ $d -le 0 ]; then [ $d -lt -$us ] && next=$now; continue; fi
  printf -v t "%d.%06d" $((d / 1000000)) $((d % 1000000))
  read -r -t "$t" -u 3
done'
tick() {
  if [ -z "$KVSCOPE_TICKER" ] || [ "$KVSCOPE_TICKER" = perl ]; then
    if perl -MTime::HiRes=time,sleep -e 1 >/dev/null 2>&1; then
      exec perl -MTime::HiRes=time,sleep -e "$TICK_PERL" "$I" "$@"
    fi
  fi
  if [ "$KVSCOPE_TICKER" != sleep ] && command -v bash >/dev/null 2>&1; then
    exec bash -c "$TICK_BASH" kvscope-tick "$I" "$@"
  fi
  ge=$1; gs=$2; gf=$3
  ${TICK_LINE_SH.replace(/\n/g, '\n  ')}
  while :; do line || exit 0; sleep "$I"; done
}`;

/**
 * Sets `$AWKI`: mawk reads a pipe in blocks unless told to be interactive; gawk and busybox awk read lines.
 * Keep it for the readers' sake too: mawk applies it to every file `getline` opens, and so reads a file whose
 * read fails after its open (a power-gated thermal zone's EAGAIN, an ended process's ESRCH) as empty, as gawk
 * and busybox awk do; without it mawk 1.3.4 stops on the first such read ("mawk: read error", exit 2), and every
 * reader of its script with it (test/integration/run/procfs-sampler.test.ts, a zone that fails to read).
 */
export const AWK_INTERACTIVE_SH = `AWKI=""; case "$(awk -W version 2>&1 </dev/null | head -n 1)" in *mawk*) AWKI="-W interactive";; esac`;

/** An awk program as one single-quoted shell word. */
export function awkWord(program: string): string {
  return `'${program.replace(/'/g, "'\\''")}'`;
}

// --- a collector's lines into the run's spool -------------------------------------------------
// The launcher (electron/node/run/run-scripts.ts) appends a collector's stdout to the spool, where
// every line must read `C <id> <text>` and leave in ONE write(2) (several writers append at once).
// A collector whose definition says `tagsOwnLines` writes them so itself: its shell lines through
// `say`, its awk lines through `emit()`. The launcher then starts no tagging awk of its own for it:
// that awk was one more process waking for every line, a third of the floor a ticking collector
// costs (its ticker, its awk, the tagging awk; bench/collectors.bench.ts), and ~1 MB of memory on
// the board. Without KVSCOPE_TAG (a script run by hand or by a test) the lines come out plain.

/**
 * `emit(s)`: writes `s` (lines joined by "\n", no final newline) as spool lines `C <tag> <line>`
 * in one printf, or plain without KVSCOPE_TAG. The tag is KVSCOPE_TAG, or, in a reader script that
 * several collectors share (shared/collectors/reader-script.ts), the id of the collector whose
 * code runs (`emitMember`). Past KVSCOPE_SPOOL_MAX bytes of a tag's lines (the spool is bounded;
 * each collector has that much, shared script or not) it counts them instead, except the procfs sampler's "gone" line that ends the run's memory curve; at the end
 * one `X 0 dropped stream=<tag> lines=<n>` per tag says how many. With `emitHold` set, the lines
 * are held until `emitFlush()` (a reader script's tick: all its members' lines in one write(2), not
 * one each). `emitTagged(s)`: the text emit() would write, counted against the cap (emitKept 0
 * and "" when over it), for a helper that writes the line itself (the vcgencmd reader's). One printf of one string: mawk's
 * unbuffered output (-W interactive) writes each printf argument apart, and `print` writes the
 * text and its newline apart, so two writers' lines would interleave.
 * Prefixed to a collector's awk program: its END block runs before the program's own.
 */
export const EMIT_AWK = String.raw`
function emitTagged(s,   t, n, tag) {
  if (!emitSet) { emitTag = ENVIRON["KVSCOPE_TAG"]; emitMax = ENVIRON["KVSCOPE_SPOOL_MAX"] + 0; emitSet = 1 }
  emitKept = 1
  if (emitTag == "") return s
  tag = emitMember != "" ? emitMember : emitTag
  t = "C " tag " " s; n = gsub(/\n/, "\nC " tag " ", t)
  emitBytes[tag] += length(t) + 1
  if (emitMax > 0 && emitBytes[tag] > emitMax && s !~ /gone=1/) { emitDropped[tag] += n + 1; emitKept = 0; return "" }
  return t
}
function emit(s,   t) {
  t = emitTagged(s); if (!emitKept) return
  if (emitHold) { emitHeld = emitHeld t "\n"; return }
  printf "%s", t "\n"; fflush()
}
function emitFlush() { if (emitHeld != "") { printf "%s", emitHeld; fflush(); emitHeld = "" } }
END { emitFlush(); for (tag in emitDropped) { printf "%s", "X 0 dropped stream=" tag " lines=" emitDropped[tag] "\n"; fflush() } }
`;

/** `say <text…>`: one line from the collector's shell, tagged like `emit()` (printf: one write). */
export const SAY_SH = `say() { if [ -n "$KVSCOPE_TAG" ]; then printf 'C %s %s\\n' "$KVSCOPE_TAG" "$*"; else printf '%s\\n' "$*"; fi; }`;

/**
 * An awk program that writes every line of its input through `emit()`: a stream that is not the
 * collector's own text (a tool's raw output, perf's) into the spool, by the same rules. Run with
 * KVSCOPE_TAG and KVSCOPE_SPOOL_MAX in its environment (`tag_lines` below; the launcher for a
 * collector without `tagsOwnLines`, electron/node/run/run-scripts.ts).
 */
export const TAG_LINES_AWK = `${EMIT_AWK}{ emit($0) }`;

/** `tag_lines`: a stream's lines (a tool's raw output) through `emit()`, or as they are without KVSCOPE_TAG. Needs $AWKI. */
export const TAG_LINES_SH = `tag_lines() { if [ -n "$KVSCOPE_TAG" ]; then awk $AWKI ${awkWord(TAG_LINES_AWK)}; else cat; fi; }`;
