// One run: launches the engine and the run's collectors (shared/collectors/registry.ts) on the
// target detached from this process (run-launch.ts), watches the spool (spool-watch.ts: follows
// it, rides out a dropped link, notices a launcher that died), turns lines into samples and
// events through each collector's parser and the engine's output reader (engine-output.ts),
// raises alerts, beats the watchdog, and stops the engine's whole process group on request. Knows
// nothing of local vs SSH. What it has seen is one run record (shared/run/run-record.ts,
// `record()`, run-record-of.ts), the shape a session stores.
import type {
  CollectorStatus,
  RunAnalysis,
  RunEvent,
  RunRequest,
  RunStatus,
  Sample,
} from '../../../shared/api/schemas';
import { analyzeRun } from '../../../shared/analysis/run-analysis';
import { engineModelBytes } from '../../../shared/analysis/run-summary';
import type { ServerProfile } from '../../../shared/analysis/stream-timing';
import { KEPT_DIAGNOSTIC_TEXT_CHARS } from '../../../shared/collectors/collector';
import { parseSpoolLine } from '../../../shared/collectors/run-spool';
import { planCollectors, plannedIntervalsMs } from '../../../shared/collectors/collector-plan';
import type { AnalysisInputs, MeasuredProcess, RunEngine, RunRecord } from '../../../shared/run/run-record';
import type { TargetFacts } from '../../../shared/run/target-facts';
import { shellQuote } from '../../../shared/util/shell';
import type { Target } from '../transport/target';
import { SpoolWatch } from './spool-watch';
import type { PreparedEngine } from './engine-setup';
import { EngineOutput } from './engine-output';
import { MemoryTickEvents } from './memory-tick-events';
import { LaunchStopped, launchRun, readEnginePid } from './run-launch';
import { signalProcessTree } from './process-tree';
import { CollectorBook, type CollectorLineResult } from './collector-book';
import { runRecordOf } from './run-record-of';
import { defaultRunLabel, USER_STOP_REASON } from '../../../shared/run/run-labels';
import { engineExitOfStatus, runEndState } from '../../../shared/run/engine-exit';
import { RUN_DEFAULTS, withListeners, type RunCallbacks, type RunControllerOptions } from './run-options';
import type { RunManifest } from './run-manifest';
import { commandLineSecrets } from '../session/scrub';
import { registerEngineEnvironmentSecrets } from './engine-environment';
import { redact, registerSecret } from '../util/redact';

export { RUN_DEFAULTS, type RunCallbacks, type RunControllerOptions } from './run-options';

/** The collector whose samples are the memory curve: they carry the token count and feed the budget alerts. */
const MEMORY_COLLECTOR = 'procfs';

export class RunController {
  readonly samples: Sample[] = [];
  readonly events: RunEvent[] = [];
  analysis: RunAnalysis | null = null;
  status: RunStatus;
  dir = '';
  engine: PreparedEngine | null = null;
  enginePid: number | null = null;
  exitCode: number | null = null;
  exitSignal: string | null = null;
  /** The engine's life on the run's clock: the launcher's `engine` and `exit` events (collectorStatuses). */
  private engineLife: { fromTMs: number | null; toTMs: number | null } = { fromTMs: null, toTMs: null };
  oomKilled = false;
  /** Why the launcher gave up before the engine ran (its `error` event), or null. */
  launchError: string | null = null;
  /** Why a stop ended the run as failed (stop's `failure`), else null. */
  private stopFailure: string | null = null;
  lostSamples = 0;
  diagnostics = 0;
  lastTMs = 0;
  /** When (performance.now()) lastTMs last advanced: server mode's streamed tokens are timed from it. */
  private lastTMsSeenAt: number | null = null;
  /** Run time of the latest engine token sample. */
  private lastTokenTMs = 0;
  readonly done: Promise<void>;

  private resolveDone!: () => void;
  private t0Uptime: number | null = null;
  private launcherPid: number | null = null;
  private launching: Promise<number | null> | null = null;
  /** Follows the spool and looks at the launcher (spool-watch.ts), once launched; none while replaying. */
  private watch: SpoolWatch | null = null;
  /** The launch ended at a Stop before the launcher started (run-launch.ts LaunchStopped). */
  private launchStopped = false;
  private ended = false;
  private stopping = false;
  /** The target's watchdog ended the engine (no app for too long): KVScope's own signal, not a foreign kill. */
  private watchdogEnded = false;
  private heartbeat?: NodeJS.Timeout;
  private hbCount = 0;
  /** The heartbeat write in flight: removing the run directory waits for it (it would re-create a file there). */
  private beating: Promise<void> = Promise.resolve();
  private analysisTimer?: NodeJS.Timeout;
  private limitTimer?: NodeJS.Timeout;
  private pendingSamples: Sample[] = [];
  private flushTimer?: NodeJS.Timeout;
  /** The run's collectors by id, once launched; and those the facts said cannot run. */
  private readonly collectors = new CollectorBook();
  /** Server mode: the client's timing of every streamed turn (attachServerProfile). */
  server: ServerProfile | null = null;
  private started = new Date().toISOString();
  /** RECOVERY: true while replay() feeds a dead run's spool; nothing is done on the target then. */
  private replaying = false;
  endedAt: string | null = null;
  /** Tokens, the engine's log and its last stderr lines (engine-output.ts). */
  private readonly output: EngineOutput;
  /** Measured-process changes and alerts of the memory sampler's ticks (memory-tick-events.ts). */
  private readonly memoryTicks: MemoryTickEvents;
  /** Subscribers besides the constructor's callbacks (session recorder…), called after them. */
  private readonly listeners = new Set<Partial<RunCallbacks>>();
  private readonly callbacks: RunCallbacks;

  constructor(
    readonly target: Target,
    readonly request: RunRequest,
    readonly runId: string,
    callbacks: RunCallbacks,
    private readonly options: RunControllerOptions = RUN_DEFAULTS,
    /** The target's probe facts when known before the run: collectors whose source they lack are not started. */
    readonly targetFacts: TargetFacts | null = null,
  ) {
    this.callbacks = withListeners(callbacks, this.listeners);
    this.memoryTicks = new MemoryTickEvents(targetFacts, request.alertThresholds);
    // Every run passes here (app, CLI, sweeps, recovery): from now on its command's secrets are
    // masked in what is logged, stored and printed (util/redact.ts); the engine still gets them.
    if (request.engine.kind === 'command')
      for (const s of commandLineSecrets(request.engine.command)) registerSecret(s);
    // The secrets of the environment the engine inherits are registered before it starts
    // (launchRun) or its spool is replayed (replay): engine-environment.ts.
    this.status = { runId, state: 'starting', label: request.label ?? defaultRunLabel(request, redact) };
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.output = new EngineOutput(request.engine.kind === 'command' ? request.engine.tokenRegex : undefined);
  }

  /** Generated tokens counted on the engine's stdout so far. */
  get tokens(): number {
    return this.output.tokens;
  }

  /** Engine stdout characters so far (newlines included): what the token count is spread over when the engine's own count differs. */
  get stdoutChars(): number {
    return this.output.stdoutChars;
  }

  get firstTokenMs(): number | null {
    return this.output.firstTokenMs;
  }

  /** What the engine's own log said (llama.cpp and compatible): timings, KV size, model facts. */
  get engineLog(): EngineOutput['engineLog'] {
    return this.output.engineLog;
  }

  /** The engine's last stderr lines: what a failed engine said last is the best error message. */
  get stderrTail(): readonly string[] {
    return this.output.stderrTail;
  }

  /** Subscribe to this run's callbacks too (listeners must not throw); returns the unsubscribe. */
  addListener(listener: Partial<RunCallbacks>): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** A Stop ended the launch before the launcher started: no engine ran, nothing is left on the target. */
  get stoppedBeforeEngine(): boolean {
    return this.launchStopped;
  }

  get startedAt(): string {
    return this.started;
  }

  get theoryBytesPerToken(): number | null {
    return this.engine?.theoryBytesPerToken ?? null;
  }

  /** The model's training context (n_ctx_train) when the run read its GGUF. */
  get trainedCtx(): number | null {
    return this.engine?.model?.nCtxTrain ?? null;
  }

  get ctx(): number | null {
    return this.engine?.ctx ?? null;
  }

  /** Prepare the run directory, launch, and start following. Resolves once the run is launched. */
  async start(): Promise<void> {
    try {
      this.launching = launchRun({
        target: this.target,
        request: this.request,
        runId: this.runId,
        label: this.status.label,
        startedAt: this.startedAt,
        options: this.options,
        targetFacts: this.targetFacts,
        collectors: this.collectors,
        onDir: (dir) => (this.dir = dir),
        onEngine: (engine) => (this.engine = engine),
        stopped: () => this.stopping,
      });
      this.launcherPid = await this.launching;
      this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs);
      this.watch = this.watchSpool();
      this.watch.start();
      // A Stop that came during the launch waits for it (stop()), then ends the engine it started.
      if (!this.stopping) this.setState('running');
      if (this.request.durationMs)
        this.limitTimer = setTimeout(() => void this.stop('duration reached'), this.request.durationMs);
    } catch (error) {
      if (error instanceof LaunchStopped) return this.endStoppedLaunch();
      this.fail(error);
      throw error;
    }
  }

  /** Stopped during the launch, before the engine started: what was uploaded goes, the run is done (stopped). */
  private async endStoppedLaunch(): Promise<void> {
    this.launchStopped = true;
    if (this.dir && !process.env.KVSCOPE_KEEP_RUN_DIR)
      await this.target.exec(`rm -rf ${shellQuote(this.dir)}`, { timeoutMs: 10_000 }).catch(() => {});
    this.finish();
  }

  /**
   * Stop the engine's process tree: TERM, then KILL after a grace period. With `failure`, what the
   * profiler drove failed (server mode's conversation): the run ends failed with it as its error.
   */
  async stop(reason = USER_STOP_REASON, failure?: string): Promise<void> {
    if (this.ended || this.stopping || this.replaying) return this.done;
    this.stopFailure = failure ?? null;
    this.stopping = true;
    this.setState('stopping');
    this.addEvent({ tMs: this.lastTMs, kind: 'stop', message: reason });
    // Stopped while launching: once launched there is an engine to end (a failed launch ends the run).
    await this.launching?.catch(() => {});
    // A launch that the Stop ended before the engine started ends the run itself (endStoppedLaunch).
    if (this.ended || this.launchStopped) return this.done;
    if (!this.enginePid && this.launcherPid !== null)
      this.enginePid =
        (await readEnginePid(this.target, this.dir, this.options.stopGraceMs, () => this.ended || !!this.enginePid)) ??
        this.enginePid;
    if (this.enginePid) {
      const pid = this.enginePid;
      // KILL after the grace period, and again each period until the launcher reports the end
      // (a loaded board may not even have run the first one).
      const killer = setInterval(() => {
        if (!this.ended) void signalProcessTree(this.target, pid, 'KILL');
      }, this.options.stopGraceMs);
      await signalProcessTree(this.target, pid, 'TERM');
      await this.done;
      clearInterval(killer);
    } else {
      // Not launched yet (or the pid never arrived): nothing to signal; end here.
      this.finish();
    }
  }

  private async beat() {
    if (this.ended || !this.dir) return;
    this.hbCount += 1;
    this.beating = this.target.writeFile(`${this.dir}/hb`, `${this.hbCount}\n`).catch(() => {});
    await this.beating;
  }

  /** The spool's watch: what a line, a lost link and a dead launcher mean for this run are decided here. */
  private watchSpool(): SpoolWatch {
    return new SpoolWatch({
      target: this.target,
      spoolPath: `${this.dir}/spool`,
      launcherPid: () => this.launcherPid,
      reconnectGiveUpMs: this.options.reconnectGiveUpMs,
      keepRunning: !!this.request.keepRunning,
      watchdogS: this.options.watchdogS,
      ended: () => this.ended,
      nowTMs: () => this.lastTMs,
      onLine: (line) => this.onLine(line),
      onEvent: (event) => this.addEvent(event),
      onLinkLost: (error) => this.fail(error),
      onLauncherGone: () => this.onLauncherGone(),
    });
  }

  /**
   * The launcher died without its `end` line (spool-watch.ts saw it and handed the spool's rest
   * over): the engine it left is ended (unless the run keeps it running) and the run fails, with
   * every sample spooled until then.
   */
  private async onLauncherGone() {
    if (this.enginePid !== null && !this.request.keepRunning)
      await signalProcessTree(this.target, this.enginePid, 'KILL').catch(() => {});
    const message =
      `the run's launcher on the target (pid ${this.launcherPid}) ended without ending the run ` +
      `(killed, or the disk of ${this.dir} is full); the samples up to then are kept`;
    this.addEvent({ tMs: this.lastTMs, kind: 'error', message });
    this.launchError ??= message;
    clearInterval(this.heartbeat);
    await this.beating;
    if (this.dir && !this.request.keepRunning && !process.env.KVSCOPE_KEEP_RUN_DIR)
      await this.target.exec(`rm -rf ${shellQuote(this.dir)}`).catch(() => {});
    this.finish();
  }

  private onLine(line: string) {
    const parsed = parseSpoolLine(line);
    switch (parsed.tag) {
      case 'X':
        return this.onLauncherEvent(parsed.event, parsed.uptimeMs, parsed.fields);
      case 'O':
      case 'P':
      case 'E':
        return this.onEngineLine(parsed.tag, parsed.uptimeMs, parsed.text);
      case 'C':
        return this.onCollectorLine(parsed.collector, parsed.text);
      case 'H':
      case 'S':
        // A spool written before the collector seam: these are the procfs sampler's.
        return this.onCollectorLine(MEMORY_COLLECTOR, parsed.text);
      default:
        this.diagnostics += 1;
    }
  }

  private toTMs(uptimeMs: number): number {
    if (this.t0Uptime === null) this.t0Uptime = uptimeMs;
    return uptimeMs - this.t0Uptime;
  }

  private onLauncherEvent(event: string, uptimeMs: number, fields: Record<string, string>) {
    // "dropped" from the sampler's cap filter carries no time of its own.
    const tMs = uptimeMs > 0 ? this.toTMs(uptimeMs) : this.lastTMs;
    this.advanceTo(tMs);
    switch (event) {
      case 'start':
        // RECOVERY: a replayed run learns its launcher here (collectorStatuses needs it).
        this.launcherPid ??= Number(fields.launcher) || null;
        this.addEvent({ tMs, kind: 'start', message: `engine: ${this.engine?.displayCommand ?? ''}` });
        break;
      case 'engine':
        this.enginePid = Number(fields.pid) || null;
        this.engineLife.fromTMs = tMs;
        this.pushSample({ tMs, source: 'engine', values: { started: 1, tokens: 0 } });
        break;
      case 'exit': {
        this.engineLife.toTMs = tMs;
        const code = Number(fields.code);
        const end = engineExitOfStatus(code);
        this.exitSignal = end.signal;
        this.exitCode = end.code;
        this.addEvent({
          tMs,
          kind: 'exit',
          message: this.exitSignal ? `engine ended by ${this.exitSignal}` : `engine exited with status ${code}`,
          data: { code, signal: this.exitSignal },
        });
        break;
      }
      case 'oom':
        this.oomKilled = true;
        this.addEvent({
          tMs,
          kind: 'oom',
          message: fields.kernel ?? 'killed by the kernel OOM killer',
          data: { pid: Number(fields.pid) },
        });
        break;
      case 'watchdog':
        this.watchdogEnded = true;
        this.addEvent({
          tMs,
          kind: 'alert',
          message: `the target's watchdog ended the engine after ${fields.seconds}s without the app`,
        });
        break;
      case 'dropped':
        if (fields.stream === MEMORY_COLLECTOR || fields.stream === 'S') this.lostSamples += Number(fields.lines) || 0;
        this.addEvent({ tMs, kind: 'alert', message: `spool full: ${fields.lines} ${fields.stream} lines not kept` });
        break;
      case 'error':
        // The launcher could not start the engine (e.g. no memory cgroup for --memory-limit).
        this.launchError ??= fields.reason ?? 'launcher error';
        this.addEvent({ tMs, kind: 'error', message: fields.reason ?? 'launcher error' });
        break;
      case 'end':
        this.watch?.endLineRead();
        void this.onEnd();
        break;
      default:
        this.addEvent({ tMs, kind: 'info', message: `${event} ${JSON.stringify(fields)}` });
    }
  }

  /**
   * One record of the engine's output (engine-output.ts reads it). Stdout comes as the launcher's
   * chunk reader saw it arrive (run-scripts.ts): `O` ends a line, `P` is text still waiting for its
   * newline (a token written and flushed, or a line cut by the reader's 10 ms window).
   */
  private onEngineLine(tag: 'O' | 'P' | 'E', uptimeMs: number, text: string) {
    const tMs = this.toTMs(uptimeMs);
    this.advanceTo(tMs);
    const { newTokens, events, diagnostics } = this.output.read(tag, tMs, text);
    this.diagnostics += diagnostics;
    if (newTokens > 0) this.recordTokens(tMs);
    for (const event of events) this.addEvent(event);
    this.callbacks.onOutput(tag === 'E' ? 'stderr' : 'stdout', tag === 'P' ? text : text + '\n');
  }

  /** An engine sample of the token count at `tMs`, and the token limit's stop. */
  private recordTokens(tMs: number) {
    // Token arrivals share the spool's 10 ms clock: one engine sample per distinct time.
    const last = this.pendingSamples[this.pendingSamples.length - 1];
    if (last && last.source === 'engine' && last.tMs === tMs && last.values.started === undefined) {
      last.values.tokens = this.tokens;
      last.values.stdoutChars = this.stdoutChars;
    } else this.pushSample({ tMs, source: 'engine', values: { tokens: this.tokens, stdoutChars: this.stdoutChars } });
    this.lastTokenTMs = tMs;
    if (this.request.tokens && this.tokens >= this.request.tokens && this.request.engine.kind === 'command') {
      void this.stop(`token limit ${this.request.tokens} reached`);
    }
  }

  /**
   * Server mode: `n` tokens the client saw streamed just now (server-profile.ts). The target's
   * clock cannot be read here, so they are stamped with the latest target time seen plus the time
   * since it was seen on this computer (early by the spool's delivery delay, tens of ms; never before the
   * previous tokens).
   */
  addStreamedTokens(n: number): void {
    if (this.ended || n <= 0) return;
    const sinceMs = this.lastTMsSeenAt === null ? 0 : performance.now() - this.lastTMsSeenAt;
    const tMs = Math.max(this.lastTokenTMs, Math.round(this.lastTMs + sinceMs));
    this.output.addStreamed(n, tMs);
    this.recordTokens(tMs);
  }

  /** A record of the target's at run time `tMs`: the latest target time, and when it was seen here. */
  private advanceTo(tMs: number) {
    if (tMs <= this.lastTMs && this.lastTMsSeenAt !== null) return;
    this.lastTMs = Math.max(this.lastTMs, tMs);
    this.lastTMsSeenAt = performance.now();
  }

  private onCollectorLine(id: string, text: string) {
    this.onCollectorRead(id, this.collectors.line(id, text));
  }

  /** A line (or a part of one) a collector's parser could not read: counted, and kept with its text (the first few per collector), so a run says what it could not read. */
  private collectorDiagnostic(id: string, d: { reason: string; text: string; keep: boolean }) {
    this.diagnostics += 1;
    if (d.keep)
      this.addEvent({
        tMs: this.lastTMs,
        kind: 'info',
        message: `${id}: ${d.reason}`,
        data: { text: d.text.slice(0, KEPT_DIAGNOSTIC_TEXT_CHARS) },
      });
  }

  private onCollectorRead(id: string, read: CollectorLineResult) {
    if (read.kind === 'diagnostic') this.collectorDiagnostic(id, read);
    if (read.kind === 'stopped')
      this.addEvent({ tMs: this.toTMs(read.uptimeMs), kind: 'alert', message: `${id}: ${read.reason}` });
    if (read.kind !== 'sample') return;
    if (read.unread) this.collectorDiagnostic(id, read.unread);
    const tMs = this.toTMs(read.uptimeMs);
    this.advanceTo(tMs);
    const values = read.values;
    if (id === MEMORY_COLLECTOR) {
      const measuring = this.memoryTicks.noteMeasured(tMs, values, this.enginePid);
      if (measuring) this.addEvent(measuring);
      values.tokens = this.tokens;
    }
    this.pushSample({ tMs, source: id, values });
    // ALERTS (shared/analysis/alerts.ts, the same rules the dashboard applies): new alerts become run events.
    for (const alert of this.memoryTicks.thermalAlerts(tMs, values)) this.addEvent(alert);
    if (id !== MEMORY_COLLECTOR) return;
    const alerts = this.memoryTicks.alerts({
      tMs,
      rssBytes: values.rssBytes,
      budgetBytes: this.request.budgetBytes ?? null,
      tokens: this.tokens,
      oomHorizonTokens: this.analysis?.oomHorizonTokens ?? null,
      engineSwapBytes: values.swapBytes,
    });
    for (const alert of alerts) this.addEvent(alert);
  }

  /** The processes whose memory the sampler measured, each from when it was chosen. */
  get measuredProcesses(): MeasuredProcess[] {
    return this.memoryTicks.measuredProcesses;
  }

  /** How each collector of the run fared so far (the launched ones and those the facts ruled out). */
  collectorStatuses(): Record<string, CollectorStatus> {
    const { fromTMs, toTMs } = this.engineLife;
    return this.collectors.statuses(this.launcherPid !== null, {
      ranMs: toTMs === null ? null : toTMs - (fromTMs ?? 0),
    });
  }

  /**
   * RECOVERY (electron/node/run/run-recovery.ts): the run of a dead app, rebuilt from its run.json
   * and the complete lines of its spool, fed through the same handlers as a live run's lines.
   * Nothing is done on the target (no directory is known, stop() does nothing while replaying).
   */
  static async replay(target: Target, manifest: RunManifest, spool: string): Promise<RunController> {
    const noop = () => {};
    const callbacks: RunCallbacks = {
      onSamples: noop,
      onEvent: noop,
      onStatus: noop,
      onOutput: noop,
      onAnalysis: noop,
    };
    const run = new RunController(target, manifest.request, manifest.runId, callbacks, RUN_DEFAULTS, manifest.target);
    await registerEngineEnvironmentSecrets(target);
    run.replaying = true;
    run.started = manifest.startedAt;
    run.status = { ...run.status, label: manifest.label, state: 'running' };
    run.engine = manifest.engine;
    run.collectors.unavailable.push(...manifest.unavailable);
    // The intervals the run was launched with; a run.json without them: as the launch planned them.
    const intervals =
      manifest.collectorIntervalsMs ?? plannedIntervalsMs(planCollectors(manifest.request, manifest.target).start);
    for (const id of manifest.collectors) run.collectors.start(id, intervals[id] ?? null);
    // A line cut short by the launcher's death has no newline: the follower would not deliver it either.
    const lines = spool.split('\n');
    lines.pop();
    for (const line of lines) run.onLine(line);
    run.addEvent({
      tMs: run.lastTMs,
      kind: 'info',
      message: 'recovered from the spool the run left on the target after the app ended (kvscope recover)',
    });
    // The spool's `end` line already ended it; a launcher killed before writing it ends here.
    await run.onEnd();
    return run;
  }

  /** Server mode: the client's timing of the streamed turns, part of this run's record. */
  attachServerProfile(profile: ServerProfile): void {
    this.server = profile;
  }

  /** Everything this run has seen, as one run record (run-record-of.ts); `outcome` is null until the run ended. */
  record(): RunRecord {
    return runRecordOf(this);
  }

  /** The engine facts worth keeping: everything but the launcher's shell line (temporary paths). */
  runEngine(): RunEngine | null {
    if (!this.engine) return null;
    const { command: _shellLine, displayCommand, ...rest } = this.engine;
    return { ...rest, command: displayCommand };
  }

  /** What analyze() passes to analyzeRun besides samples and timings: a recompute needs exactly these. */
  analysisInputs(): AnalysisInputs {
    return {
      theoryBytesPerToken: this.theoryBytesPerToken,
      ...(this.engine?.modeHint ? { theoryMode: this.engine.modeHint } : {}),
      ctx: this.ctx,
      theoryReservedBytes: this.engine?.theoryReservedBytes ?? null,
      budgetBytes: this.request.budgetBytes ?? null,
      engineKvBytes: this.engineLog.kv.find((k) => k.scope === 'total' && k.sizeBytes !== null)?.sizeBytes ?? null,
      memoryLimitBytes: this.request.memoryLimitBytes ?? null,
      ...(this.output.streamedTokens > 0 ? { liveTokensExact: true } : {}),
    };
  }

  /** The live count against the engine's own (its timing lines); null when the engine printed none. */
  tokenCount(): { liveTokens: number; engineTokens: number | null } {
    return this.output.tokenCount();
  }

  /**
   * How many of `samples` are final: all but those not yet handed to onSamples, since the last of
   * them can be an engine sample that recordTokens still merges its tick's later tokens into (a
   * copy taken before then, by a listener woken by an event, would keep the earlier count).
   */
  get settledSampleCount(): number {
    return this.samples.length - this.pendingSamples.length;
  }

  private pushSample(sample: Sample) {
    this.samples.push(sample);
    this.pendingSamples.push(sample);
    this.flushTimer ??= setTimeout(() => this.flushSamples(), 100);
    this.analysisTimer ??= setTimeout(() => {
      this.analysisTimer = undefined;
      this.analyze();
    }, this.options.analysisEveryMs);
  }

  private flushSamples() {
    this.flushTimer = undefined;
    // Tokens of one 10 ms tick of the spool's clock can come in two reads of the follow stream (a
    // network packet cut between them): recordTokens merges them into one engine sample only while
    // it is pending, so the tick's sample waits here until a later time is seen or the run ends.
    // Sent at once, the second read made a second sample at the same time, where a recovered run
    // (replay) has one.
    const last = this.pendingSamples[this.pendingSamples.length - 1];
    const held =
      !this.ended && last?.source === 'engine' && last.values.started === undefined && last.tMs >= this.lastTMs
        ? this.pendingSamples.pop()
        : undefined;
    const batch = this.pendingSamples;
    this.pendingSamples = held ? [held] : [];
    if (batch.length > 0) this.callbacks.onSamples(batch);
  }

  analyze(): RunAnalysis {
    this.analysis = analyzeRun({
      ...this.analysisInputs(),
      samples: this.samples,
      timings: this.engineLog.timings,
      modelBytes: engineModelBytes(this.engineLog.model),
    });
    this.callbacks.onAnalysis(this.analysis);
    return this.analysis;
  }

  /** Public for the addMarker API method (electron/node/api/create-app-services.ts). */
  addEvent(event: RunEvent) {
    this.events.push(event);
    this.callbacks.onEvent(event);
  }

  private async onEnd() {
    if (this.ended) return;
    this.watch?.stopFollowing();
    clearInterval(this.heartbeat);
    await this.beating;
    // The launcher has written everything: the run directory is no longer needed.
    // KVSCOPE_KEEP_RUN_DIR=1 keeps it for debugging a run.
    if (this.dir && !process.env.KVSCOPE_KEEP_RUN_DIR)
      await this.target.exec(`rm -rf ${shellQuote(this.dir)}`).catch(() => {});
    this.finish();
  }

  private finish() {
    if (this.ended) return;
    this.ended = true;
    this.endedAt = new Date().toISOString();
    clearInterval(this.heartbeat);
    this.watch?.stopChecking();
    clearTimeout(this.limitTimer);
    clearTimeout(this.analysisTimer);
    // What the collectors' parsers still hold (perf's last interval) belongs to the run.
    for (const { id, result } of this.collectors.end()) this.onCollectorRead(id, result);
    this.flushSamples();
    this.reportTokenCount();
    this.analyze();
    const end = runEndState({
      launchError: this.launchError,
      stopFailure: this.stopFailure,
      stopping: this.stopping,
      exitCode: this.exitCode,
      exitSignal: this.exitSignal,
      oomKilled: this.oomKilled,
      watchdogEnded: this.watchdogEnded,
      stderrTail: this.stderrTail,
    });
    this.setState(end.state, end.error);
    this.resolveDone();
  }

  /** Says so when the engine's own count and the live one differ: the engine's count is the run's. */
  private reportTokenCount() {
    const event = this.output.tokenCountEvent(this.lastTMs);
    if (event) this.addEvent(event);
  }

  private fail(error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    // Nothing was launched (setup failed): the directory holds only what we uploaded. `done`
    // waits for its removal, since the target is closed once the run is done.
    const removed =
      this.dir && this.launcherPid === null && !process.env.KVSCOPE_KEEP_RUN_DIR
        ? this.target.exec(`rm -rf ${shellQuote(this.dir)}`, { timeoutMs: 10_000 }).then(
            () => {},
            () => {},
          )
        : Promise.resolve();
    this.ended = true;
    this.endedAt = new Date().toISOString();
    clearInterval(this.heartbeat);
    this.watch?.stopChecking();
    // A token sample held back for its tick (flushSamples) goes out with the run's end.
    this.flushSamples();
    this.addEvent({ tMs: this.lastTMs, kind: 'error', message });
    this.setState('failed', message);
    void removed.then(() => this.resolveDone());
  }

  private setState(state: RunStatus['state'], error?: string) {
    this.status = { ...this.status, state, error, engineExitCode: this.exitCode };
    this.callbacks.onStatus(this.status);
  }
}
