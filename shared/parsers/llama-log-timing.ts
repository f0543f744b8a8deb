// llama.cpp's timing lines, every era, into TimingsRecords. Part of the llama.cpp log parser
// (llama-log-parser.ts), which strips the prefixes and decides which body comes here. Pure.
//
// Formats, by the printing code's era (format strings summarised, not copied):
// - March 2023 `main:` (examples/main before llama_print_timings): `load time = %8.2f ms`,
//   `sample time = %8.2f ms`, `predict time = %8.2f ms / %.2f ms per token` (every evaluated token,
//   prompt included), `total time = %8.2f ms`.
// - April–June 2023 `llama_print_timings:` with `( x ms per token)` only; from mid 2023 `( x ms per
//   token, y tokens per second)`; `llama_perf_*` / `common_perf_print` (late 2024+) the same shape.
// - llama-server: `print_timings:` (2023), `INFO [ print_timings] … | key=value` (2024), its JSON
//   log form `{"function":"print_timings","msg":"prompt eval time = …","id_slot":0,…}` (2024, the
//   server's default `--log-format json` then; ollama's runner printed the same with `slot_id`),
//   `slot print_timing: id N | task M | …` (late 2024+) with, since 2026, progress lines
//   (`prompt processing, n_tokens = N, progress = P, t = T s / R tokens per second`,
//   `n_gen = N, tg = R t/s, tg_3s = R t/s`).
// - llama-cli's chat (tools/cli, December 2025+): `[ Prompt: 62.6 t/s | Generation: 4.7 t/s ]`.
import { diagnostic, type Diagnostic, type TimingPhase, type TimingsRecord } from './records';

export const TIMING_LABEL_RE =
  /^(?:load|sample|sampling|samplers|prompt eval|eval|generation eval|predict|total) time\s*=/;
const NUM = String.raw`[-+]?(?:\d+(?:\.\d+)?|inf|nan)`;
/**
 * A float of the perf block (`llama_print_timings` … `common_perf_print`, printf `%10.2f`), whose decimal point
 * printf takes from LC_NUMERIC: a program that set the user's locale (a SYCL llama-cli run under de_DE, 2026)
 * prints `40380,08 ms`. `%f` never groups thousands, so a comma between digits can only be that decimal separator.
 */
const PRINTF_NUM = String.raw`[-+]?(?:\d+(?:[.,]\d+)?|inf|nan)`;
const TIMING_RE = new RegExp(
  String.raw`^(load|sample|sampling|samplers|prompt eval|eval|generation eval|predict|total) time\s*=\s*(${PRINTF_NUM})\s*ms` +
    String.raw`(?:\s*\/\s*(\d+)\s*(?:runs|tokens)|\s*\/\s*(${PRINTF_NUM})\s*ms per token)?` +
    String.raw`(?:\s*\(\s*(${PRINTF_NUM})\s*ms per token(?:,\s*(${PRINTF_NUM})\s*tokens per second)?\s*\))?\s*(?:\|.*)?$`,
);

const PHASES: Record<string, TimingPhase> = {
  load: 'load',
  sample: 'sample',
  sampling: 'sample',
  samplers: 'sample',
  'prompt eval': 'prompt',
  eval: 'eval',
  'generation eval': 'eval',
  // March 2023: the time of every llama_eval, prompt batches included (label `predict` keeps that apart).
  predict: 'eval',
  total: 'total',
};

/**
 * Bodies of timing-block lines that are not a phase's time: derived or unrelated figures, skipped on
 * purpose (so the catch-all in the parser does not call them unreadable). `unaccounted time` is total
 * minus the phases (common_perf_print, 2025+), `graphs reused` a count, `draft acceptance` a
 * speculative-decoding ratio (`slot print_timing:`, 2025+), `mem per token` (March 2023) a size.
 */
export const TIMING_BLOCK_SKIPPED_RE = /^(?:unaccounted time|graphs reused|draft acceptance|mem per token)\s*=/;

/** A line with one of these, not read as a timing, is a timing nobody read. */
export const TIMING_HINT_RE = /\bms per token\b|\btokens per second\b|\bt\/s\b/;

function finite(text: string | undefined): number | null {
  if (text === undefined) return null;
  const v = Number(text.replace(',', '.'));
  return Number.isFinite(v) ? v : null;
}

export interface TimingOrigin {
  line: number;
  /** The input line as it arrived (for a diagnostic). */
  raw: string;
  source: string;
  slotId: number | null;
  taskId: number | null;
}

function record(
  o: TimingOrigin,
  phase: TimingPhase,
  label: string,
  ms: number | null,
  tokens: number | null,
  msPerToken: number | null,
  tokensPerSecond: number | null,
): TimingsRecord {
  return {
    kind: 'timings',
    line: o.line,
    phase,
    ms,
    tokens,
    tokensPerSecond,
    msPerToken,
    label,
    source: o.source,
    slotId: o.slotId,
    taskId: o.taskId,
  };
}

/** A body that starts with a timing label (TIMING_LABEL_RE): its record, or a diagnostic. */
export function readTiming(body: string, o: TimingOrigin): TimingsRecord | Diagnostic {
  const m = TIMING_RE.exec(body);
  const ms = m ? finite(m[2]) : null;
  const label = m?.[1] ?? '';
  const phase = PHASES[label];
  if (!m || ms === null || !phase) return diagnostic(o.line, 'unreadable timing line', o.raw);
  // `predict time = … / 345.67 ms per token` (March 2023) or `( 345.67 ms per token[, … tokens per second])`.
  const msPerToken = finite(m[4] ?? m[5]);
  return record(o, phase, label, ms, m[3] !== undefined ? Number(m[3]) : null, msPerToken, finite(m[6]));
}

const SLOT_PROMPT_PROGRESS_RE = new RegExp(
  String.raw`^prompt processing, n_tokens\s*=\s*(\d+), progress\s*=\s*[\d.]+, t\s*=\s*(${NUM})\s*s\s*\/\s*(${NUM})\s*tokens per second$`,
);
const SLOT_GEN_PROGRESS_RE = new RegExp(String.raw`^(?:n_gen|n_decoded)\s*=\s*(\d+), tg\s*=\s*(${NUM})\s*t\/s\b`);

/**
 * `slot print_timing:` progress lines (2026): a running figure of the prompt or of the generation so
 * far. Read with their own labels (`prompt processing`, `generation progress`); the phase's final
 * line follows and, being later, is the one `phaseTokensPerSecond` (shared/analysis/throughput.ts) takes.
 */
export function readSlotProgress(body: string, o: TimingOrigin): TimingsRecord | null {
  const p = SLOT_PROMPT_PROGRESS_RE.exec(body);
  if (p) {
    const s = finite(p[2]);
    return record(o, 'prompt', 'prompt processing', s === null ? null : s * 1000, Number(p[1]), null, finite(p[3]));
  }
  const g = SLOT_GEN_PROGRESS_RE.exec(body);
  if (g) return record(o, 'eval', 'generation progress', null, Number(g[1]), null, finite(g[2]));
  return null;
}

const CLI_SUMMARY_RE = new RegExp(
  String.raw`^\[\s*Prompt:\s*(${NUM})\s*t\/s\s*\|\s*Generation:\s*(${NUM})\s*t\/s\s*\]$`,
);

/**
 * llama-cli's `[ Prompt: 62.6 t/s | Generation: 4.7 t/s ]` (trimmed): two rate-only records (source
 * `cli`); a diagnostic when a line opening that way cannot be read; null for any other line.
 */
export function readCliSummary(trimmed: string, o: TimingOrigin): Array<TimingsRecord | Diagnostic> | null {
  if (!/^\[\s*Prompt:/.test(trimmed)) return null;
  const m = CLI_SUMMARY_RE.exec(trimmed);
  const prompt = finite(m?.[1]);
  const generation = finite(m?.[2]);
  if (prompt === null || generation === null) return [diagnostic(o.line, 'unreadable timing line', o.raw)];
  const cli = { ...o, source: 'cli', slotId: null, taskId: null };
  return [
    record(cli, 'prompt', 'Prompt', null, null, null, prompt),
    record(cli, 'eval', 'Generation', null, null, null, generation),
  ];
}

const SPEC_SUMMARY_RE = new RegExp(
  String.raw`^(encoded|decoded)\s+(\d+)\s+tokens in\s+(${NUM})\s+seconds, speed:\s+(${NUM})\s+t\/s$`,
);

/**
 * The speculative examples' own summary (speculative, speculative-simple, lookup, lookahead; `LOG_TEE` in 2023–2024,
 * `LOG_INF` since): `encoded %4d tokens in %8.3f seconds, speed: %8.3f t/s` for the prompt and `decoded …` for the
 * generation. In the captures seen the target's own `eval time` line then says `0.00 ms / 1 runs`, so `decoded` is
 * the run's generation rate. Null for another line; a diagnostic for a line that opens this way and cannot be read.
 */
export function readSpeculativeSummary(trimmed: string, o: TimingOrigin): TimingsRecord | Diagnostic | null {
  if (!/^(?:en|de)coded\s+\d+\s+tokens in\b/.test(trimmed)) return null;
  const m = SPEC_SUMMARY_RE.exec(trimmed);
  const seconds = finite(m?.[3]);
  if (!m || seconds === null) return diagnostic(o.line, 'unreadable timing line', o.raw);
  const phase = m[1] === 'encoded' ? 'prompt' : 'eval';
  return record(o, phase, m[1] ?? '', Math.round(seconds * 1e6) / 1e3, Number(m[2]), null, finite(m[4]));
}

/** The server's JSON log fields that carry a slot and a task id, by era (2024: id_slot, ollama: slot_id). */
function jsonInt(o: Record<string, unknown>, ...keys: string[]): number | null {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'number' && Number.isInteger(v)) return v;
  }
  return null;
}

/**
 * One line of llama-server's JSON log (2024): `{"function":"print_timings","msg":"prompt eval time = …"}`.
 * Returns the timing it holds; null when the line is not a JSON log line or holds no timing label;
 * a diagnostic when a print_timings line cannot be read.
 */
export function readJsonLogLine(trimmed: string, line: number, raw: string): TimingsRecord | Diagnostic | null {
  if (!trimmed.startsWith('{') || !trimmed.includes('"function"')) return null;
  let o: unknown;
  try {
    o = JSON.parse(trimmed);
  } catch {
    return trimmed.includes('print_timings') ? diagnostic(line, 'unreadable server JSON log line', raw) : null;
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const j = o as Record<string, unknown>;
  const msg = typeof j.msg === 'string' ? j.msg : typeof j.message === 'string' ? j.message : null;
  const fn = typeof j.function === 'string' ? j.function : 'server-json-log';
  if (msg === null || !TIMING_LABEL_RE.test(msg.trim())) {
    return fn === 'print_timings' ? diagnostic(line, 'unreadable server JSON log line', raw) : null;
  }
  return readTiming(msg.trim(), {
    line,
    raw,
    source: fn,
    slotId: jsonInt(j, 'id_slot', 'slot_id'),
    taskId: jsonInt(j, 'id_task', 'task_id'),
  });
}
