// One run: prepares the run directory on the target, launches the engine and the run's
// collectors (shared/collectors/registry.ts) detached from this process, follows the spool,
// turns lines into samples and events through each collector's parser, beats the watchdog, and
// stops the engine's whole process group on request. Knows nothing of local vs SSH. What it has
// seen is one run record (shared/run/run-record.ts, `record()`), the same shape a session stores.
import type {
  CollectorStatus,
  RunAnalysis,
  RunEvent,
  RunRequest,
  RunStatus,
  Sample,
} from '../../../shared/api/schemas';
import { analyzeRun } from '../../../shared/analysis/run-analysis';
import { alertToRunEvent, evaluateAlerts, INITIAL_ALERT_STATE } from '../../../shared/analysis/alerts';
import type { ServerProfile } from '../../../shared/analysis/stream-timing';
import { planCollectors } from '../../../shared/collectors/collector-plan';
import { parseSpoolLine } from '../../../shared/collectors/run-spool';
import type { AnalysisInputs, MeasuredProcess, RunEngine, RunRecord } from '../../../shared/run/run-record';
import { engineGeneratedTokens, TOKEN_COUNT_TOLERANCE } from '../../../shared/analysis/throughput';
import type { TargetFacts } from '../../../shared/run/target-facts';
import { shellQuote } from '../../../shared/util/shell';
import type { Target } from '../transport/target';
import { followSpool, type SpoolFollower } from './spool-follower';
import { launcherScript, runConf } from './run-scripts';
import { TREE_SIGNAL_TIMEOUT_MS, treeSignalCommand } from './process-tree';
import { prepareEngine, type PreparedEngine } from './engine-setup';
import { CollectorBook } from './collector-book';
import { reconnectTarget, targetAnswers } from './link-recovery';
import { runRecordOf } from './run-record-of';
import {
  defaultLabel,
  RUN_DEFAULTS,
  signalName,
  withListeners,
  type RunCallbacks,
  type RunControllerOptions,
} from './run-options';
import { StdoutTokenCounter } from './stdout-token-counter';
import { RUN_MANIFEST_FILE, runManifestText, type RunManifest } from './run-manifest';
import { createLlamaLogParser } from '../../../shared/parsers/llama-log-parser';
import type { KvRecord, ModelRecord, TimingsRecord } from '../../../shared/parsers/records';

export { RUN_DEFAULTS, type RunCallbacks, type RunControllerOptions } from './run-options';

const STDERR_TAIL_LINES = 20;
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
  oomKilled = false;
  /** Why the launcher gave up before the engine ran (its `error` event), or null. */
  launchError: string | null = null;
  lostSamples = 0;
  diagnostics = 0;
  tokens = 0;
  /** Engine stdout characters so far (newlines included): what the token count is spread over when the engine's own count differs. */
  stdoutChars = 0;
  firstTokenMs: number | null = null;
  lastTMs = 0;
  readonly done: Promise<void>;

  private resolveDone!: () => void;
  private t0Uptime: number | null = null;
  private launcherPid: number | null = null;
  private follower: SpoolFollower | null = null;
  private ended = false;
  private stopping = false;
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
  private readonly stdoutTokens: StdoutTokenCounter;
  private alertState = INITIAL_ALERT_STATE;
  /** What the engine's own log said (llama.cpp and compatible): timings, KV size, model facts. */
  readonly engineLog: { timings: TimingsRecord[]; kv: KvRecord[]; model: ModelRecord[] } = {
    timings: [],
    kv: [],
    model: [],
  };
  private readonly llamaLog = createLlamaLogParser();
  /** The engine's last stderr lines: what a failed engine said last is the best error message. */
  readonly stderrTail: string[] = [];
  /** The processes whose memory the sampler measured, each from when it was chosen. */
  readonly measuredProcesses: MeasuredProcess[] = [];
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
    this.status = { runId, state: 'starting', label: request.label ?? defaultLabel(request) };
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.stdoutTokens = new StdoutTokenCounter(
      request.engine.kind === 'command' ? request.engine.tokenRegex : undefined,
    );
  }

  /** Subscribe to this run's callbacks too (listeners must not throw); returns the unsubscribe. */
  addListener(listener: Partial<RunCallbacks>): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  get startedAt(): string {
    return this.started;
  }

  get theoryBytesPerToken(): number | null {
    return this.engine?.theoryBytesPerToken ?? null;
  }

  get ctx(): number | null {
    return this.engine?.ctx ?? null;
  }

  /** Prepare the run directory, launch, and start following. Resolves once the run is launched. */
  async start(): Promise<void> {
    try {
      const made = await this.target.exec(
        `d="\${TMPDIR:-/tmp}/kvscope-${this.runId}"; mkdir -m 700 "$d" && cd "$d" && pwd -P`,
      );
      if (made.code !== 0)
        throw new Error(`cannot create the run directory on the target: ${made.stderr.toString().trim()}`);
      this.dir = made.stdout.toString().trim();
      this.engine = await prepareEngine(this.target, this.request, this.dir);
      const plan = planCollectors(this.request, this.targetFacts);
      this.collectors.unavailable.push(...plan.unavailable);
      for (const { def } of plan.start) {
        if (def.script === null) continue;
        await this.target.writeFile(`${this.dir}/${def.id}.sh`, def.script, 0o700);
        this.collectors.start(def.id);
      }
      await this.target.writeFile(`${this.dir}/launcher.sh`, launcherScript(), 0o700);
      await this.target.writeFile(
        `${this.dir}/run.conf`,
        runConf({
          engineCommand: this.engine.command,
          collectors: plan.start
            .filter((c) => c.def.script !== null)
            .map((c) => ({
              id: c.def.id,
              intervalS: c.intervalMs / 1000,
              args: c.def.scriptArgs?.(c.intervalMs) ?? [],
            })),
          watchdogS: this.request.keepRunning ? 0 : this.options.watchdogS,
          spoolMaxBytes: this.options.spoolMaxBytes,
          memoryLimitBytes: this.request.memoryLimitBytes ?? null,
        }),
        0o600,
      );
      // RECOVERY: what `kvscope recover` needs to rebuild this run if the app dies (run-manifest.ts).
      await this.target.writeFile(
        `${this.dir}/${RUN_MANIFEST_FILE}`,
        runManifestText({
          version: 1,
          runId: this.runId,
          label: this.status.label,
          startedAt: this.startedAt,
          request: this.request,
          engine: this.engine,
          collectors: this.collectors.startedIds,
          unavailable: this.collectors.unavailable,
          target: this.targetFacts,
        }),
        0o600,
      );
      const d = shellQuote(this.dir);
      // Detached from this process and from the SSH channel: the launcher survives both.
      const launched = await this.target.exec(
        `${this.target.kind === 'local' ? `cd ${shellQuote(process.cwd())} 2>/dev/null; ` : ''}W=$(pwd -P); cd ${d} && if command -v setsid >/dev/null 2>&1; then setsid sh launcher.sh ${d} "$W" </dev/null >/dev/null 2>&1 & else nohup sh launcher.sh ${d} "$W" </dev/null >/dev/null 2>&1 & fi; echo $!`,
      );
      const pid = Number(launched.stdout.toString().trim());
      this.launcherPid = Number.isInteger(pid) && pid > 0 ? pid : null;
      this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs);
      this.follow(0);
      this.setState('running');
      if (this.request.durationMs)
        this.limitTimer = setTimeout(() => void this.stop('duration reached'), this.request.durationMs);
    } catch (error) {
      this.fail(error);
      throw error;
    }
  }

  /** Stop the engine's process tree: TERM, then KILL after a grace period. */
  async stop(reason = 'stopped by user'): Promise<void> {
    if (this.ended || this.stopping || this.replaying) return this.done;
    this.stopping = true;
    this.setState('stopping');
    this.addEvent({ tMs: this.lastTMs, kind: 'stop', message: reason });
    if (!this.enginePid && this.launcherPid !== null) await this.awaitEnginePid();
    if (this.enginePid) {
      const pid = this.enginePid;
      // The engine's group at once, then every process of the tree the run started
      // (electron/node/run/process-tree.ts: timeout & co. lead groups of their own).
      const signalAll = async (signal: 'TERM' | 'KILL') => {
        await this.target.signal(-pid, `SIG${signal}`).catch(() => {});
        await this.target.exec(treeSignalCommand(pid, signal), { timeoutMs: TREE_SIGNAL_TIMEOUT_MS }).catch(() => {});
      };
      // KILL after the grace period, and again each period until the launcher reports the end
      // (a loaded board may not even have run the first one).
      const killer = setInterval(() => {
        if (!this.ended) void signalAll('KILL');
      }, this.options.stopGraceMs);
      await signalAll('TERM');
      await this.done;
      clearInterval(killer);
    } else {
      // Not launched yet (or the pid never arrived): nothing to signal; end here.
      this.finish();
    }
  }

  /**
   * A stop that comes while the launcher is still starting the engine (its `engine` event comes
   * after up to a second of wrapper detection) must still find the engine's group: the wrapper
   * writes engine.pid first thing, so read it, for at most the stop's grace period.
   */
  private async awaitEnginePid(): Promise<void> {
    const until = Date.now() + this.options.stopGraceMs;
    while (!this.enginePid && !this.ended && Date.now() < until) {
      const text = await this.target.readFile(`${this.dir}/engine.pid`).catch(() => null);
      const pid = Number(text?.toString().trim());
      if (Number.isInteger(pid) && pid > 0) this.enginePid = pid;
      else await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async beat() {
    if (this.ended || !this.dir) return;
    this.hbCount += 1;
    this.beating = this.target.writeFile(`${this.dir}/hb`, `${this.hbCount}\n`).catch(() => {});
    await this.beating;
  }

  private follow(fromOffset: number) {
    this.follower = followSpool(this.target, `${this.dir}/spool`, fromOffset, this.launcherPid, (line) =>
      this.onLine(line),
    );
    void this.follower.ended.then(() => {
      if (!this.ended) void this.onFollowEnded();
    });
  }

  /**
   * The follow stream ended before the run did. Either tail failed (the spool not there yet),
   * or the link dropped: then the run goes on on the target, spooling, while we reconnect with
   * backoff and resume at the same byte — nothing lost, nothing twice.
   */
  private async onFollowEnded() {
    const offset = this.follower?.offset ?? 0;
    if (this.ended) return;
    if (await targetAnswers(this.target)) {
      await new Promise((r) => setTimeout(r, 200));
      if (!this.ended) this.follow(offset);
      return;
    }
    const downAtMs = Date.now();
    const downTMs = this.lastTMs;
    this.addEvent({
      tMs: downTMs,
      kind: 'disconnect',
      message: 'link to the target lost: the run goes on there, spooled; reconnecting',
    });
    if (!this.target.reconnect) {
      this.fail(new Error('lost the connection to the target and cannot reconnect'));
      return;
    }
    try {
      await reconnectTarget(this.target, this.options.reconnectGiveUpMs, () => this.ended);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.fail(
        new Error(
          `gave up reconnecting after ${Math.round((Date.now() - downAtMs) / 1000)} s (${why}); ` +
            (this.request.keepRunning
              ? 'the engine keeps running on the target'
              : `the target ends the run by itself within ${this.options.watchdogS} s`),
        ),
      );
      return;
    }
    if (this.ended) return;
    const outageMs = Date.now() - downAtMs;
    this.addEvent({
      tMs: downTMs + outageMs,
      kind: 'reconnect',
      message: `link back after ${(outageMs / 1000).toFixed(1)} s; resuming the spool at byte ${offset}`,
      data: { outageMs, offset },
    });
    this.follow(offset);
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
    this.lastTMs = Math.max(this.lastTMs, tMs);
    switch (event) {
      case 'start':
        // RECOVERY: a replayed run learns its launcher here (collectorStatuses needs it).
        this.launcherPid ??= Number(fields.launcher) || null;
        this.addEvent({ tMs, kind: 'start', message: `engine: ${this.engine?.displayCommand ?? ''}` });
        break;
      case 'engine':
        this.enginePid = Number(fields.pid) || null;
        this.pushSample({ tMs, source: 'engine', values: { started: 1, tokens: 0 } });
        break;
      case 'exit': {
        const code = Number(fields.code);
        // sh reports a death by signal N as 128 + N.
        if (code > 128) {
          this.exitSignal = signalName(code - 128);
          this.exitCode = null;
        } else this.exitCode = Number.isFinite(code) ? code : null;
        this.addEvent({
          tMs,
          kind: 'exit',
          message: this.exitSignal ? `engine ended by ${this.exitSignal}` : `engine exited with status ${code}`,
          data: { code },
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
        void this.onEnd();
        break;
      default:
        this.addEvent({ tMs, kind: 'info', message: `${event} ${JSON.stringify(fields)}` });
    }
  }

  /**
   * One record of the engine's output. Stdout comes as the launcher's chunk reader saw it arrive
   * (electron/node/run/run-scripts.ts): `O` ends a line, `P` is text still waiting for its newline
   * (a token written and flushed, or a line cut by the reader's 10 ms window).
   */
  private onEngineLine(tag: 'O' | 'P' | 'E', uptimeMs: number, text: string) {
    const tMs = this.toTMs(uptimeMs);
    this.lastTMs = Math.max(this.lastTMs, tMs);
    if (tag !== 'E') {
      this.stdoutChars += text.length + (tag === 'O' ? 1 : 0);
      const n = this.stdoutTokens.push(tag, text);
      if (n > 0) {
        this.tokens += n;
        if (this.firstTokenMs === null) this.firstTokenMs = tMs;
        // Token arrivals share the spool's 10 ms clock: one engine sample per distinct time.
        const last = this.pendingSamples[this.pendingSamples.length - 1];
        if (last && last.source === 'engine' && last.tMs === tMs && last.values.started === undefined) {
          last.values.tokens = this.tokens;
          last.values.stdoutChars = this.stdoutChars;
        } else
          this.pushSample({ tMs, source: 'engine', values: { tokens: this.tokens, stdoutChars: this.stdoutChars } });
        if (this.request.tokens && this.tokens >= this.request.tokens && this.request.engine.kind === 'command') {
          void this.stop(`token limit ${this.request.tokens} reached`);
        }
      }
    }
    if (tag === 'E') {
      // llama.cpp and friends log to stderr; stdout is the generated text.
      this.readEngineLog(text, tMs);
      if (text.trim() !== '') {
        this.stderrTail.push(text);
        if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      }
    }
    this.callbacks.onOutput(tag === 'E' ? 'stderr' : 'stdout', tag === 'P' ? text : text + '\n');
  }

  private readEngineLog(text: string, tMs: number) {
    for (const record of this.llamaLog.push(text)) {
      if (record.kind === 'timings') this.engineLog.timings.push(record);
      else if (record.kind === 'kv') {
        this.engineLog.kv.push(record);
        if (record.scope === 'total' && record.sizeBytes !== null) {
          this.addEvent({
            tMs,
            kind: 'info',
            message: `engine reports a KV cache of ${record.sizeBytes} bytes`,
            data: { kvBytes: record.sizeBytes, cells: record.cells },
          });
        }
      } else if (record.kind === 'model') this.engineLog.model.push(record);
    }
  }

  private onCollectorLine(id: string, text: string) {
    const read = this.collectors.line(id, text);
    if (read.kind === 'diagnostic') this.diagnostics += 1;
    if (read.kind !== 'sample') return;
    const tMs = this.toTMs(read.uptimeMs);
    this.lastTMs = Math.max(this.lastTMs, tMs);
    const values = read.values;
    if (id === MEMORY_COLLECTOR) {
      this.noteMeasured(tMs, values);
      values.tokens = this.tokens;
    }
    this.pushSample({ tMs, source: id, values });
    // ALERTS (shared/analysis/alerts.ts, the same rules the dashboard applies): new alerts become run events.
    if (id === MEMORY_COLLECTOR) this.raiseAlerts(tMs, values);
  }

  /**
   * The memory sampler measures the largest process of the engine's group and names it in each
   * tick (then taken out of the sample's values, which are series). A change, or a first choice
   * other than the process the launcher started (a wrapper's child), becomes an event.
   */
  private noteMeasured(tMs: number, values: Record<string, number | null>) {
    const pid = values.measuredPid;
    const groupProcesses = values.groupProcesses ?? null;
    delete values.measuredPid;
    delete values.groupProcesses;
    if (typeof pid !== 'number') return;
    const last = this.measuredProcesses.at(-1);
    if (last?.pid === pid) return;
    this.measuredProcesses.push({ pid, tMs, groupProcesses });
    if (!last && pid === this.enginePid) return;
    this.addEvent({
      tMs,
      kind: 'info',
      message: `measuring process ${pid}, the largest of ${groupProcesses ?? '?'} in the engine's process group${last ? ` (was ${last.pid})` : ` (the command started ${this.enginePid ?? '?'})`}`,
      data: { pid, groupProcesses },
    });
  }

  /** How each collector of the run fared so far (the launched ones and those the facts ruled out). */
  collectorStatuses(): Record<string, CollectorStatus> {
    return this.collectors.statuses(this.launcherPid !== null);
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
    run.replaying = true;
    run.started = manifest.startedAt;
    run.status = { ...run.status, label: manifest.label, state: 'running' };
    run.engine = manifest.engine;
    run.collectors.unavailable.push(...manifest.unavailable);
    for (const id of manifest.collectors) run.collectors.start(id);
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
    };
  }

  /** The live count against the engine's own (its timing lines); null when the engine printed none. */
  tokenCount(): { liveTokens: number; engineTokens: number | null } {
    return { liveTokens: this.tokens, engineTokens: engineGeneratedTokens(this.engineLog.timings) };
  }

  private raiseAlerts(tMs: number, values: Record<string, number | null>) {
    const { alerts, state } = evaluateAlerts(this.alertState, {
      tMs,
      rssBytes: values.rssBytes,
      budgetBytes: this.request.budgetBytes ?? null,
      tokens: this.tokens,
      oomHorizonTokens: this.analysis?.oomHorizonTokens ?? null,
      engineSwapBytes: values.swapBytes,
    });
    this.alertState = state;
    for (const alert of alerts) this.addEvent(alertToRunEvent(alert));
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
    if (this.pendingSamples.length === 0) return;
    const batch = this.pendingSamples;
    this.pendingSamples = [];
    this.callbacks.onSamples(batch);
  }

  analyze(): RunAnalysis {
    this.analysis = analyzeRun({ ...this.analysisInputs(), samples: this.samples, timings: this.engineLog.timings });
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
    this.follower?.stop();
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
    clearTimeout(this.limitTimer);
    clearTimeout(this.analysisTimer);
    this.flushSamples();
    this.reportTokenCount();
    this.analyze();
    if (this.launchError !== null) {
      this.setState('failed', this.launchError);
      this.resolveDone();
      return;
    }
    const failed = !this.stopping && this.exitCode !== 0 && this.exitCode !== null;
    const said = this.stderrTail.length ? `: ${this.stderrTail.slice(-3).join(' | ').slice(0, 500)}` : '';
    this.setState(
      failed || this.oomKilled ? 'failed' : 'done',
      failed
        ? `engine exited with status ${this.exitCode}${said}`
        : this.oomKilled
          ? 'engine killed by the OOM killer'
          : undefined,
    );
    this.resolveDone();
  }

  /** Says so when the engine's own count and the live one differ: the engine's count is the run's. */
  private reportTokenCount() {
    const { liveTokens, engineTokens } = this.tokenCount();
    if (engineTokens === null || Math.abs(engineTokens - liveTokens) <= TOKEN_COUNT_TOLERANCE) return;
    this.addEvent({
      tMs: this.lastTMs,
      kind: 'info',
      message:
        `the engine counted ${engineTokens} tokens (its timing lines), ${liveTokens} stdout ` +
        `${this.stdoutTokens.unit} were seen live: the engine's count is the run's`,
      data: { liveTokens, engineTokens, differenceTokens: engineTokens - liveTokens },
    });
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
    this.addEvent({ tMs: this.lastTMs, kind: 'error', message });
    this.setState('failed', message);
    void removed.then(() => this.resolveDone());
  }

  private setState(state: RunStatus['state'], error?: string) {
    this.status = { ...this.status, state, error, engineExitCode: this.exitCode };
    this.callbacks.onStatus(this.status);
  }
}
