// Watching a live run's spool on its target: follows it (spool-follower.ts) and hands every line
// to the run; when the follow stream ends early it follows again, or rides out a dropped link
// (link-recovery.ts) and resumes at the same byte; and it looks at the launcher every
// LAUNCHER_CHECK_MS (launcher-liveness.ts), so a launcher that died without its `end` line ends
// the run instead of leaving it followed for ever. Part of a RunController (run-controller.ts),
// which decides what a line, a lost link and a dead launcher mean for the run.
import type { RunEvent } from '../../../shared/api/schemas';
import type { Target } from '../transport/target';
import { LAUNCHER_CHECK_MS, launcherState } from './launcher-liveness';
import { reconnectTarget, targetAnswers } from './link-recovery';
import { watchdogEndsWithinS } from './run-scripts';
import { ByteLineReader, followSpool, type SpoolFollower } from './spool-follower';

export interface SpoolWatchOptions {
  target: Target;
  /** The run's spool on the target (`<run dir>/spool`). */
  spoolPath: string;
  /** The launcher's pid, read at each follow and check: a run launched without it learns it from the spool's `start` line. */
  launcherPid(): number | null;
  /** How long to keep trying to reconnect a dropped link (RunControllerOptions). */
  reconnectGiveUpMs: number;
  /** What giving the link up says of the engine: it keeps running, or the target's watchdog (this many seconds) ends it. */
  keepRunning: boolean;
  watchdogS: number;
  /** The run has ended: nothing more is followed or looked at. */
  ended(): boolean;
  /** The run's latest time (ms): when a lost link is stamped. */
  nowTMs(): number;
  /** One complete spool line, in order, each once. */
  onLine(line: string): void;
  /** The link's `disconnect` and `reconnect` events. */
  onEvent(event: RunEvent): void;
  /** The link is lost for good (it cannot reconnect, or gave up): the run fails with this error. */
  onLinkLost(error: Error): void;
  /** The launcher died without its `end` line; the spool's rest was read and handed over already. */
  onLauncherGone(): Promise<void>;
}

export class SpoolWatch {
  private follower: SpoolFollower | null = null;
  private launcherCheck?: NodeJS.Timeout;
  private launcherStartTicks: string | null = null;
  private checkingLauncher = false;
  /** The launcher was found dead: the follow stream is detached and must not be resumed. */
  private launcherGone = false;
  /** The spool's `end` line was read: the run ends through its own end, whatever else is seen. */
  private endLineSeen = false;

  constructor(private readonly opts: SpoolWatchOptions) {}

  /** Looks at the launcher from now on, and follows the spool from its first byte. */
  start(): void {
    this.launcherCheck = setInterval(() => void this.checkLauncher(), LAUNCHER_CHECK_MS);
    this.follow(0);
  }

  /** The run read the spool's `end` line: the launcher check stands down. */
  endLineRead(): void {
    this.endLineSeen = true;
  }

  /** Stops the follow stream (the run read its end: the launcher has written everything). */
  stopFollowing(): void {
    this.follower?.stop();
  }

  /** No more looks at the launcher (the run ended). */
  stopChecking(): void {
    clearInterval(this.launcherCheck);
  }

  private follow(fromOffset: number) {
    // Once the launcher was found gone, its spool's rest is read in one piece (checkLauncher): a
    // follow started by a reconnect or a retry still under way would deliver those lines again.
    if (this.opts.ended() || this.launcherGone) return;
    this.follower = followSpool(this.opts.target, this.opts.spoolPath, fromOffset, this.opts.launcherPid(), (line) =>
      this.opts.onLine(line),
    );
    void this.follower.ended.then(() => {
      if (!this.opts.ended() && !this.launcherGone) void this.onFollowEnded();
    });
  }

  /**
   * A launcher that died without its `end` line (launcher-liveness.ts) would leave the run
   * 'running' for good, its spool followed for ever. Once it is gone: the spool's rest is read
   * (its `end` line may be there: then the run ends as it said), and the run is told
   * (onLauncherGone), with every line spooled until then handed over.
   */
  private async checkLauncher() {
    const launcherPid = this.opts.launcherPid();
    if (this.opts.ended() || this.launcherGone || this.endLineSeen || this.checkingLauncher || launcherPid === null)
      return;
    this.checkingLauncher = true;
    try {
      const seen = await launcherState(this.opts.target, launcherPid, this.launcherStartTicks);
      if (seen.state === 'alive') this.launcherStartTicks = seen.startTicks;
      if (seen.state !== 'gone' || this.opts.ended() || this.endLineSeen) return;
      this.launcherGone = true;
      const offset = this.follower?.detach() ?? 0;
      const rest = await this.opts.target.readFile(this.opts.spoolPath, { offset }).catch(() => null);
      if (rest === null) {
        // The link dropped at that moment: follow again, look again at the next check.
        this.launcherGone = false;
        if (!this.opts.ended()) this.follow(offset);
        return;
      }
      new ByteLineReader(offset, (line) => this.opts.onLine(line)).push(rest);
      if (this.opts.ended() || this.endLineSeen) return;
      await this.opts.onLauncherGone();
    } finally {
      this.checkingLauncher = false;
    }
  }

  /**
   * The follow stream ended before the run did. Either tail failed (the spool not there yet),
   * or the link dropped: then the run goes on on the target, spooling, while we reconnect with
   * backoff and resume at the same byte — nothing lost, nothing twice.
   */
  private async onFollowEnded() {
    const offset = this.follower?.offset ?? 0;
    // After the spool's `end` line the stream ends with the launcher (tail --pid): the run is ending.
    if (this.opts.ended() || this.launcherGone || this.endLineSeen) return;
    if (await targetAnswers(this.opts.target)) {
      await new Promise((r) => setTimeout(r, 200));
      if (!this.opts.ended()) this.follow(offset);
      return;
    }
    // The run ended while the target was asked, and closed it: that is no lost link (a sweep over
    // SSH said "link lost … reconnecting" after every step).
    if (this.opts.ended() || this.launcherGone || this.endLineSeen) return;
    const downAtMs = Date.now();
    const downTMs = this.opts.nowTMs();
    this.opts.onEvent({
      tMs: downTMs,
      kind: 'disconnect',
      message: 'link to the target lost: the run goes on there, spooled; reconnecting',
    });
    if (!this.opts.target.reconnect) {
      this.opts.onLinkLost(new Error('lost the connection to the target and cannot reconnect'));
      return;
    }
    try {
      await reconnectTarget(this.opts.target, this.opts.reconnectGiveUpMs, () => this.opts.ended());
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.opts.onLinkLost(
        new Error(
          `gave up reconnecting after ${Math.round((Date.now() - downAtMs) / 1000)} s (${why}); ` +
            (this.opts.keepRunning
              ? 'the engine keeps running on the target'
              : `the target ends the run by itself within ${watchdogEndsWithinS(this.opts.watchdogS)} s`),
        ),
      );
      return;
    }
    if (this.opts.ended()) return;
    const outageMs = Date.now() - downAtMs;
    this.opts.onEvent({
      tMs: downTMs + outageMs,
      kind: 'reconnect',
      message: `link back after ${(outageMs / 1000).toFixed(1)} s; resuming the spool at byte ${offset}`,
      data: { outageMs, offset },
    });
    this.follow(offset);
  }
}
