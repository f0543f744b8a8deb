// What a run reads from its engine's own output (the spool's O/P/E records, run-scripts.ts):
// generated tokens counted on stdout (stdout-token-counter.ts), and on stderr the engine's log
// (llama.cpp and compatible: timings, KV cache size, model facts) and its last lines, the best
// error message a failed engine leaves. Part of a RunController (run-controller.ts), which turns
// what this reads into samples and events.
import type { RunEvent } from '../../../shared/api/schemas';
import { engineGeneratedTokens, TOKEN_COUNT_TOLERANCE } from '../../../shared/analysis/throughput';
import { KEPT_DIAGNOSTIC_TEXT_CHARS, keepsPerReason } from '../../../shared/collectors/collector';
import { createLlamaLogParser } from '../../../shared/parsers/llama-log-parser';
import type { KvRecord, ModelRecord, TimingsRecord } from '../../../shared/parsers/records';
import { StdoutTokenCounter } from './stdout-token-counter';

/** The engine's last stderr lines kept: enough for a failed engine's reason, a few in a message. */
const STDERR_TAIL_LINES = 20;

export class EngineOutput {
  tokens = 0;
  /** Of `tokens`, those a server streamed to the client (server mode), not seen on stdout. */
  streamedTokens = 0;
  /** Engine stdout characters so far (newlines included): what the token count is spread over when the engine's own count differs. */
  stdoutChars = 0;
  firstTokenMs: number | null = null;
  /** What the engine's own log said (llama.cpp and compatible): timings, KV size, model facts. */
  readonly engineLog: { timings: TimingsRecord[]; kv: KvRecord[]; model: ModelRecord[] } = {
    timings: [],
    kv: [],
    model: [],
  };
  /** The engine's last stderr lines: what a failed engine said last is the best error message. */
  readonly stderrTail: string[] = [];
  /**
   * Engine log lines that looked like a reading but could not be read, or reported a failure (out of
   * memory, a load error: shared/parsers/llama-log-errors.ts). All counted; the first
   * MAX_KEPT_DIAGNOSTICS of each reason are kept as `info` events with their line and reason, so a
   * flood of one (a server's KV cache full at every request) does not hide another (the out-of-memory
   * line after it).
   */
  diagnostics = 0;
  private readonly keeps = keepsPerReason();
  private readonly stdoutTokens: StdoutTokenCounter;
  private readonly llamaLog = createLlamaLogParser();

  /** `tokenRegex`: the run's --token-regex, matching once per generated token on stdout. */
  constructor(tokenRegex: string | undefined) {
    this.stdoutTokens = new StdoutTokenCounter(tokenRegex);
  }

  /**
   * One record of the engine's output at run time `tMs`: `O` ends a stdout line, `P` is stdout text
   * still waiting for its newline, `E` a stderr line. Returns the tokens it added and the events
   * the engine's log gave rise to, and how many of its log lines were diagnostics.
   */
  read(
    tag: 'O' | 'P' | 'E',
    tMs: number,
    text: string,
  ): { newTokens: number; events: RunEvent[]; diagnostics: number } {
    if (tag === 'E') {
      const before = this.diagnostics;
      const events = this.readStderr(text, tMs);
      return { newTokens: 0, events, diagnostics: this.diagnostics - before };
    }
    this.stdoutChars += text.length + (tag === 'O' ? 1 : 0);
    const newTokens = this.stdoutTokens.push(tag, text);
    if (newTokens > 0) {
      this.tokens += newTokens;
      this.firstTokenMs ??= tMs;
    }
    return { newTokens, events: [], diagnostics: 0 };
  }

  /** Server mode: `n` tokens the client saw streamed at run time `tMs` (server-profile.ts). */
  addStreamed(n: number, tMs: number): void {
    this.tokens += n;
    this.streamedTokens += n;
    this.firstTokenMs ??= tMs;
  }

  /** llama.cpp and friends log to stderr; stdout is the generated text. */
  private readStderr(text: string, tMs: number): RunEvent[] {
    const events: RunEvent[] = [];
    for (const record of this.llamaLog.push(text)) {
      if (record.kind === 'timings') this.engineLog.timings.push(record);
      else if (record.kind === 'kv') {
        this.engineLog.kv.push(record);
        if (record.scope === 'total' && record.sizeBytes !== null) {
          events.push({
            tMs,
            kind: 'info',
            message: `engine reports a KV cache of ${record.sizeBytes} bytes`,
            data: { kvBytes: record.sizeBytes, cells: record.cells },
          });
        }
      } else if (record.kind === 'model') this.engineLog.model.push(record);
      else if (record.kind === 'diagnostic') {
        this.diagnostics += 1;
        if (this.keeps(record.reason))
          events.push({
            tMs,
            kind: 'info',
            message: `engine log: ${record.reason}`,
            data: { reason: record.reason, text: record.text.slice(0, KEPT_DIAGNOSTIC_TEXT_CHARS) },
          });
      }
    }
    if (text.trim() !== '') {
      this.stderrTail.push(text);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    }
    return events;
  }

  /** The live count against the engine's own (its timing lines); null when the engine printed none. */
  tokenCount(): { liveTokens: number; engineTokens: number | null } {
    return { liveTokens: this.tokens, engineTokens: engineGeneratedTokens(this.engineLog.timings) };
  }

  /** The event saying the engine's own count and the live one differ (the engine's count is the run's), or null. */
  tokenCountEvent(tMs: number): RunEvent | null {
    // Server mode: the client counted every streamed token of every request, while a server's
    // timing lines are per request; nothing to reconcile.
    if (this.streamedTokens > 0) return null;
    const { liveTokens, engineTokens } = this.tokenCount();
    if (engineTokens === null || Math.abs(engineTokens - liveTokens) <= TOKEN_COUNT_TOLERANCE) return null;
    return {
      tMs,
      kind: 'info',
      message:
        `the engine counted ${engineTokens} tokens (its timing lines), ${liveTokens} stdout ` +
        `${this.stdoutTokens.unit} were seen live: the engine's count is the run's`,
      data: { liveTokens, engineTokens, differenceTokens: engineTokens - liveTokens },
    };
  }
}
