// `kvscope profile` progress on stderr, driven by the run's callbacks (electron/node/run/
// run-controller.ts RunCallbacks): a live line with the elapsed time, tokens, RSS and the OOM
// horizon, and every alert as it fires. On a terminal the live line is redrawn in place; in a
// pipe or a log a line is written every few seconds. stdout is never touched, so `--json` stays
// one document; `--quiet` (electron/node/cli/main.ts) silences all of it.
//
// Also here: what the end of a run means for the command (runFailure), so that a killed engine
// becomes the one line main.ts prints on stderr instead of a silent exit status.
import type { RunAnalysis, RunEvent, RunStatus, Sample } from '../../../shared/api/schemas';
import { formatBytes, formatCount, formatMs } from '../../../shared/format/units';
import type { RunCallbacks } from '../run/run-controller';
import { CliError, type CliIo } from './cli-io';

/** A terminal redraws the live line this often: smooth, and cheap on a 2-core board. */
export const TTY_REFRESH_MS = 250;
/** A pipe or log gets a progress line this often: alive, yet a 10-minute run stays ~300 lines. */
export const LOG_LINE_EVERY_MS = 2000;

/** Events worth a line of their own while the run goes on ('error' and 'stop' end the run: main prints those). */
const EVENT_WORDS: Partial<Record<RunEvent['kind'], string>> = {
  alert: 'alert',
  throttle: 'throttling',
  disconnect: 'link lost',
  reconnect: 'link back',
  oom: 'OOM kill',
};

/** What the printer needs of a run: RunController has it. */
export interface ProgressSource {
  addListener(listener: Partial<RunCallbacks>): () => void;
  /** The state when the printer starts following (a run is often running by then). */
  readonly status?: RunStatus;
}

export interface ProgressOptions {
  /** Line prefix, e.g. "kvscope profile: ". */
  prefix?: string;
  /** Refresh period (default: TTY_REFRESH_MS on a terminal, else LOG_LINE_EVERY_MS). */
  everyMs?: number;
  /** Milliseconds, monotonic (tests pass their own clock). */
  now?: () => number;
}

const CLEAR_LINE = '\r\x1b[K';

export class ProfileProgress {
  private readonly prefix: string;
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly everyMs: number;
  private startedMs: number;
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** What the terminal's live line shows now ('' = nothing drawn). */
  private drawn = '';
  private tokens = 0;
  private rssBytes: number | null = null;
  private analysis: RunAnalysis | null = null;
  private state: RunStatus['state'] = 'starting';

  constructor(
    private readonly io: CliIo,
    options: ProgressOptions = {},
  ) {
    this.prefix = options.prefix ?? 'kvscope profile: ';
    this.tty = io.errIsTty === true;
    this.now = options.now ?? (() => performance.now());
    this.everyMs = options.everyMs ?? (this.tty ? TTY_REFRESH_MS : LOG_LINE_EVERY_MS);
    this.startedMs = this.now();
  }

  /** Show this run from now on (a sweep follows one run after the other). */
  follow(run: ProgressSource): void {
    this.unsubscribe?.();
    this.tokens = 0;
    this.rssBytes = null;
    this.analysis = null;
    this.state = run.status?.state ?? 'starting';
    this.startedMs = this.now();
    this.unsubscribe = run.addListener({
      onSamples: (samples) => this.onSamples(samples),
      onAnalysis: (analysis) => (this.analysis = analysis),
      onEvent: (event) => this.onEvent(event),
      onStatus: (status) => (this.state = status.state),
    });
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.everyMs);
      // Progress never keeps the process alive on its own.
      this.timer.unref();
    }
  }

  /** Stop printing and leave the terminal's line empty (the summary or the error line follows). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.clear();
  }

  /** One refresh: redraw the live line (terminal) or write a progress line (pipe, log). */
  tick(): void {
    if (this.state !== 'running') return;
    const line = this.prefix + this.line();
    if (!this.tty) this.io.err(line + '\n');
    else if (line !== this.drawn) {
      this.io.err(CLEAR_LINE + line);
      this.drawn = line;
    }
  }

  /** The live line's text: "12.4 s · 812 tokens · RSS 412 MiB · OOM horizon 41,000 tokens (budget 2 GiB)". */
  line(): string {
    const a = this.analysis;
    const horizon =
      a?.budgetBytes === null || a?.budgetBytes === undefined
        ? 'no budget, no OOM horizon'
        : a.oomHorizonTokens === null
          ? `OOM horizon not known yet (budget ${formatBytes(a.budgetBytes)})`
          : a.oomHorizonTokens <= this.tokens
            ? `over the budget (${formatBytes(a.budgetBytes)}) since ${formatCount(a.oomHorizonTokens)} tokens`
            : `OOM horizon ${formatCount(a.oomHorizonTokens)} tokens (budget ${formatBytes(a.budgetBytes)})`;
    return [
      formatMs(this.now() - this.startedMs),
      `${formatCount(this.tokens)} tokens`,
      `RSS ${formatBytes(this.rssBytes)}`,
      horizon,
    ].join(' · ');
  }

  private onSamples(samples: Sample[]): void {
    for (const s of samples) {
      const tokens = s.values.tokens;
      if (typeof tokens === 'number' && tokens > this.tokens) this.tokens = tokens;
      const rss = s.values.rssBytes;
      if (s.source === 'procfs' && typeof rss === 'number') this.rssBytes = rss;
    }
  }

  private onEvent(event: RunEvent): void {
    const word = EVENT_WORDS[event.kind];
    if (!word) return;
    // An alert interrupts the live line, then the line comes back below it.
    const drawn = this.drawn;
    this.clear();
    this.io.err(`${this.prefix}${word} at ${formatMs(event.tMs)}: ${oneLine(event.message ?? '')}\n`);
    if (drawn) {
      this.io.err(drawn);
      this.drawn = drawn;
    }
  }

  private clear(): void {
    if (this.tty && this.drawn) this.io.err(CLEAR_LINE);
    this.drawn = '';
  }
}

function oneLine(text: string): string {
  return text
    .split(/[\r\n]/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}

/** What the end of a run says about it, for the one-line failure on stderr. */
export interface RunEnd {
  status: RunStatus;
  oomKilled: boolean;
  exitSignal: string | null;
  tokens: number;
  analysis: RunAnalysis | null;
}

/**
 * The error a run's end makes of `kvscope profile` (exit 1, one line via main.ts), or null when
 * the run ended as asked. An engine killed by a signal kvscope did not send is a failure even
 * when the kernel log names no OOM kill (a board without dmesg access, another process's kill).
 */
export function runFailure(run: RunEnd): CliError | null {
  const after = `after ${formatCount(run.tokens)} token${run.tokens === 1 ? '' : 's'}`;
  const peak = run.analysis?.peakRssBytes ?? null;
  const budget = run.analysis?.budgetBytes ?? null;
  const memory =
    peak === null
      ? ''
      : ` (peak RSS ${formatBytes(peak)}${budget === null ? '' : ` of a ${formatBytes(budget)} budget`})`;
  if (run.oomKilled) return new CliError(`the engine was killed by the kernel's OOM killer ${after}${memory}`);
  // The run controller decides whether a signal was foreign (no Stop, no limit, not the target's
  // watchdog: run-controller.ts finish) and fails the run then; this line only says more than its error.
  if (run.exitSignal && run.status.state === 'failed')
    return new CliError(
      `the engine was killed by ${run.exitSignal} ${after}${memory}, not by kvscope (the kernel log names no OOM kill)`,
    );
  if (run.status.state === 'failed') return new CliError(oneLine(run.status.error ?? 'the run failed'));
  return null;
}
