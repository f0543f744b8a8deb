// llama.cpp logs (llama-cli/main, llama-server, llama-bench's stderr, ollama and other embedders)
// → `kind: "timings"`, `kind: "kv"`, `kind: "model"` records.
//
// Stateful line parser (`createLlamaLogParser().push(line)`) so that the app can feed engine stderr
// live. A log is mostly prose (generated text, loader chatter): a line that is not a known record
// is skipped; a line that looks like one (a timing label, `ms per token`, `t/s`, a KV size, a server
// `timings` object, a memory breakdown row) but cannot be read becomes a diagnostic, and so does a
// line reporting a failure (out of memory, load errors, asserts, `Killed`: llama-log-errors.ts).
//
// Format references (llama.cpp sources, format strings quoted in comments below):
// - timings: every era's lines in llama-log-timing.ts (`main:` of March 2023 to llama-cli's
//   `[ Prompt: … t/s | Generation: … t/s ]` of 2026, the server's text and JSON logs and its slot
//   lines, split form included); the server's JSON `timings` object and ollama's `--verbose` block
//   in llama-log-server.ts.
// - KV: `llama_model_load: memory_size = … MB, n_mem = …` (March 2023), `kv self size = … MB`,
//   `VRAM kv self = … MB` (2023 CUDA), `llama_kv_cache_init: <dev> KV buffer size = … MiB` + `KV self
//   size = …, K (f16): …, V (f16): …`, `kv_size = …, [offload = 1, ]type_k = '…'` and `size = … MiB (N
//   cells, L layers[, S[/T] seqs]), K (t): …, V (t): …`, `llama_kv_cache:` (late 2025), iSWA
//   `creating [non-]SWA KV cache`, ik_llama MLA `c^KV (f16): …, kv^T: not used`,
//   `llama_memory_recurrent: <dev> RS buffer size = …` and `… R (f32): …, S (f32): …`.
// - model/weights/context (llama-log-model.ts): `llama_model_load:` (2023), `llm_load_print_meta:`
//   (2023–2024), `print_info:` (2025+; per-layer values print as `[8, 8, 0, …]`), `llama_model_loader:
//   - kv N: key type = value`, weight buffers of `llm_load_tensors:` / `load_tensors:`,
//   `llama_new_context_with_model:` / `llama_init_from_model:` / `llama_context:` (`n_ctx = …`),
//   `sched_reserve:` compute buffers, the exit `llama_memory_breakdown_print:` table.
// Log prefixes stripped first: journald (`Sep 13 09:19:08 host prog[pid]: `, localised month names),
// docker compose (`[time] service-1   | `), `[pid] `, llama.cpp's common log `0.00.032.820 I ` (or `I `
// alone; ANSI colours removed first),
// llama-box `[2025-06-14 23:20:30.830830] I `, app tags `llama[1]: `.
// Sizes printed as "MB" by old llama.cpp were computed as bytes/1024/1024 and are read as MiB.
// A tool that set the user's locale (LC_NUMERIC=de_DE and the like) prints its figures with a decimal
// comma (`1,12 MiB (32,00 BPW)`, `292,80 K`): sizes and parameter counts read either way.
// Checked against captures from Raspberry Pi Zero 2 W and Pi 5, Jetson Orin (ollama, node-llama-cpp,
// llama-box), RK3588-era logs, x86 servers and Apple M-series (see test/fixtures/llama-cpp/*/SOURCE).

import { emptyDictionary } from '../util/dictionary';
import { capNumberedLines, type LineCapOptions } from './line-cap';
import {
  diagnostic,
  isCommentLine,
  type Diagnostic,
  type KvPart,
  type KvRecord,
  type LineParser,
  type ModelRecord,
  type TimingsRecord,
} from './records';
import {
  breakdownRow,
  bytesOf,
  colonReading,
  FIT_PROJECTION_REASON,
  isFitProjection,
  isMemoryKey,
  isReadingKey,
  LOADER_KV_RE,
  METAL_ALLOC_LOG_REASON,
  METAL_OVERCOMMIT_RE,
  MODEL_FUNCS,
  modelGroup,
  modelKeyValue,
  numberedBufferKey,
  readMetalBuffer,
  readPythonMetadata,
  setGgufField,
  setModelField,
  type ModelBlock,
} from './llama-log-model';
import { type CommonLogLevel, engineErrorReason } from './llama-log-errors';
import {
  JSON_TIMINGS_RE,
  OLLAMA_RE,
  ollamaMemoryLine,
  parseGoDurationMs,
  readSlotContext,
  serverMemoryReason,
  timingsFromJson,
  type OllamaPending,
} from './llama-log-server';
import {
  readCliSummary,
  readJsonLogLine,
  readSpeculativeSummary,
  readSlotProgress,
  readTiming,
  TIMING_BLOCK_SKIPPED_RE,
  TIMING_HINT_RE,
  TIMING_LABEL_RE,
  type TimingOrigin,
} from './llama-log-timing';
import { scanJson, type JsonScan } from './json-scan';

export type LlamaLogRecord = TimingsRecord | KvRecord | ModelRecord | Diagnostic;

/** A server `timings` object spread over lines is given up after this many (then a diagnostic). */
export const MAX_JSON_LINES = 200;

// ---------------------------------------------------------------------------------------------
// Prefixes

const PREFIXES: RegExp[] = [
  // journald short: `Sep 13 09:19:08 ubuntu ollama[17505]: ` (month may be localised: `Mär`)
  /^[^\s\d:[\]|]{3,9}\.? {1,2}\d{1,2} \d\d:\d\d:\d\d \S+ [^\s:]+: /u,
  // journald short-iso / RFC 3339
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)? \S+ [^\s:]+: /,
  // docker compose `2025-07-16 04:20:47 service-1   | ` (timestamp optional)
  /^(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?Z?\s+)?[\w.-]+\s+\| ?/,
  // docker --timestamps
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /,
  // a capture's own timestamp and a bar, no service name: `2026-05-14 22:40:29.046 | ` (a supervisor's log file)
  /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+\| ?/,
  // `[pid] ` added by some captures
  /^\[\d+\] /,
  // llama.cpp common log (common/log.cpp, late 2024+): `0.00.032.820 I ` with --log-timestamps
  // (minutes grow past two digits), the level letter alone with --log-prefix only
  /^(?:(?<stamp>\d+\.\d+\.\d+\.\d+) )?(?<level>[DIWEN]) /,
  // llama-box: `[2025-06-14 23:20:30.830830] I `
  /^(?<stamp>\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?\]) (?<level>[DIWEN]) /,
  // app tags `llama[1]: `
  /^[\w.-]+\[\d+\]: /,
];

/**
 * ANSI colour and cursor sequences (CSI `ESC [ … letter`, and a lone ESC): llama.cpp's common log
 * colours its timestamp and level letter and whole warning/error lines when it writes to a terminal
 * (`--log-colors`, on by default for a tty since 2025), and captures taken through `script`, docker
 * or tmux keep them.
 */
// eslint-disable-next-line no-control-regex -- the escape character is what this pattern is for
const ANSI_RE = /\u001b\[[0-9;?]*[\x20-\x2f]*[\x40-\x7e]|\u001b/g;

/**
 * A llama.cpp function lead inside the line (`llama_kv_cache_init:`, `print_info:`, `slot   load_model:`…),
 * for a line whose prefix no pattern above strips (a capture tool's own, or one damaged in transit:
 * `0.00.042.08e I llama_kv_cache_init: …`; llama-cli's `Loading model... ` spinner, 2026, whose last frame
 * stays glued to the first log line: `Loading model... -ggml_vulkan: Device memory allocation of size … failed.`).
 * Only names llama.cpp prints, followed by `: `.
 */
const LEAD_INSIDE_RE =
  /\b(?:llama_\w+|llm_load_\w+|ggml_\w+|print_info|load_tensors|sched_reserve|common_perf_print|common_memory_breakdown_print|(?:slot|srv|cmn)\s+\w+):\s/;

/** The line from its llama.cpp function lead when something unknown precedes it; else the line as it is. */
function withLlamaLead(s: string): string {
  // A `#` comment (provenance notes in captures, records.ts) quotes log lines: it is no log line.
  if (FUNC_RE.test(s) || /^(?:slot|srv|cmn)\s/.test(s) || isCommentLine(s)) return s;
  const m = LEAD_INSIDE_RE.exec(s);
  return m && m.index > 0 ? s.slice(m.index) : s;
}

export function stripLogPrefixes(text: string): string {
  return stripLogPrefixesAndLevel(text).line;
}

/** The line without its log prefixes, and the common log's level letter if one of them carried it. */
function stripLogPrefixesAndLevel(text: string): { line: string; level: CommonLogLevel | null } {
  let s = text.includes('\u001b') ? text.replace(ANSI_RE, '') : text;
  let level: CommonLogLevel | null = null;
  for (let round = 0; round < 4; round++) {
    let changed = false;
    for (const re of PREFIXES) {
      const m = re.exec(s);
      if (m && m[0].length < s.length) {
        s = s.slice(m[0].length);
        changed = true;
        const letter = m.groups?.level;
        if (letter) level = { letter, stamped: m.groups?.stamp !== undefined };
      }
    }
    if (!changed) break;
  }
  return { line: s, level };
}

// ---------------------------------------------------------------------------------------------
// Timings (readers in llama-log-timing.ts)

const FUNC_RE = /^([a-z_]\w*):\s*/i;
const SLOT_RE = /^slot\s+print_timing:\s+id\s+(\d+)\s+\|\s+task\s+(-?\d+)\s+\|\s*/;
const SERVER_INFO_RE = /^(?:INFO|WARN|ERR|DEBUG)\s+\[\s*print_timings\]\s*/;
/** A timing's label and its milliseconds anywhere in a line (`… prompt eval time =   648.99 ms / …`). */
const TIMING_INSIDE_RE =
  /\b(?:load|sample|sampling|samplers|prompt eval|eval|generation eval|predict|total) time\s*=\s*[-+]?\d[\d.]*\s*ms\b/;

// ---------------------------------------------------------------------------------------------
// KV cache

// The KV readers below take the body trimmed at both ends, so no pattern needs a trailing `\s*` next
// to a `.*` (the pair that backtracks quadratically on a run of spaces).
const KV_TRIGGER_RE =
  /\bKV self size\b|\b(?:KV|RS) buffer size\b|^VRAM kv self\b|^kv_size\s*=|^memory_size\s*=|^(?:\[fp8\]\s+)?size\s*=.*\bcells\b|^creating\s.*KV cache/i;
const KV_SELF_RE = /^KV self size\s*=\s*([\d.]+(?:,\d+)?)\s*(MiB|MB|GiB|GB|KiB)(?:\s*,\s*(\S.*))?$/i;
// `CUDA0 KV buffer size = …` (2024+); the recurrent state's `CPU RS buffer size = …` (llama_memory_recurrent, 2025+).
const KV_BUFFER_RE = /^(?:\[fp8\]\s+)?(\S+)\s+(?:KV|RS) buffer size\s*=\s*([\d.]+(?:,\d+)?)\s*(MiB|MB|GiB|GB|KiB)$/;
// Mid/late 2023 CUDA builds: the part of the cache offloaded to the GPU(s), `VRAM kv self = 1024.00 MB`.
const KV_VRAM_RE = /^VRAM kv self\s*=\s*([\d.]+(?:,\d+)?)\s*(MiB|MB|GiB|GB)$/;
// `offload = 1, ` between the size and the types: llama_kv_cache_init of mid 2024 to spring 2025;
// `n_seq_max = %u, ` there: llama_kv_cache_recurrent (mid 2025).
const KV_CONFIG_RE =
  /^kv_size\s*=\s*(\d+),\s*(?:offload\s*=\s*\d+,\s*)?(?:n_seq_max\s*=\s*(\d+),\s*)?type_k\s*=\s*'([^']*)',\s*type_v\s*=\s*'([^']*)',\s*n_layer\s*=\s*(\d+)/;
/** The recurrent state's own caches: llama_kv_cache_recurrent (mid 2025), llama_memory_recurrent (since). */
const RECURRENT_FUNC_RE = /^llama_(?:kv_cache|memory)_recurrent$/;
// `%2u/%u seqs` prints `1/1 seqs`; builds of July–August 2025 printed `%2u/%2u`, `1/ 1 seqs` (the stream count padded).
// llama_memory_recurrent since speculative rollback of the recurrent state (2026) adds its snapshot rows per cell,
// `%2u seqs %2u rs_seq` (`3 seqs  0 rs_seq`): part of the sizes that follow, not a figure of its own here.
const KV_SIZE_RE =
  /^(?:\[fp8\]\s+)?size\s*=\s*([\d.]+(?:,\d+)?)\s*(MiB|MB|GiB|GB|KiB)\s*\(\s*(\d+)\s*cells,\s*(\d+)\s*layers(?:,\s*(\d+)(?:\/\s*(\d+))?\s*seqs(?:\s+\d+\s*rs_seq)?)?\s*\)(?:\s*,\s*(\S.*))?$/;
const KV_MEMORY_SIZE_RE = /^memory_size\s*=\s*([\d.]+(?:,\d+)?)\s*(MiB|MB|GiB|GB)\b/;
const KV_ISWA_RE = /^creating\s+(non-SWA|SWA)\s+KV cache,\s*size\s*=\s*(\d+)\s*cells/;
// Another sub-cache announced the same way: llama_kv_cache_dsa's `creating main KV cache, size = %u cells` and
// `creating indexer KV cache, size = %u cells` (2026).
const KV_CREATE_RE = /^creating [\w -]+ KV cache, size = (\d+) cells$/;
const KV_PART_RE = /^([^\s(]+)\s*\(([^)]*)\):\s*([\d.]+(?:,\d+)?)\s*(MiB|MB|GiB|GB|KiB)$/;
const KV_PART_UNUSED_RE = /^(\S+):\s*not used$/;
/** A KV line no pattern above reads (a future format): the word KV and a size. Two tests, each linear. */
const KV_HINT_RE = { word: /\bkv\b/i, size: /\d\s*(?:MiB|MB|GiB|GB|KiB)\b/ };

/** An ollama `--verbose` timing (a phase's duration, with its token count and rate once printed). */
function ollamaTimings(
  line: number,
  phase: 'prompt' | 'eval' | 'total' | 'load',
  ms: number,
  tokens: number | null,
  tokensPerSecond: number | null,
): TimingsRecord {
  return {
    kind: 'timings',
    line,
    phase,
    ms,
    tokens,
    tokensPerSecond,
    msPerToken: null,
    label: phase === 'prompt' ? 'prompt eval' : phase,
    source: 'ollama',
    slotId: null,
    taskId: null,
  };
}

/** An empty KV record (every size and count unknown), filled in by the lines of its block; tests build theirs from it. */
export function kvRecord(line: number, source: string, scope: KvRecord['scope']): KvRecord {
  return {
    kind: 'kv',
    line,
    scope,
    sizeBytes: null,
    cells: null,
    layers: null,
    seqs: null,
    streams: null,
    typeK: null,
    typeV: null,
    kBytes: null,
    vBytes: null,
    device: null,
    swa: null,
    recurrent: false,
    parts: [],
    source,
  };
}

/** `K (f16):    4.50 MiB, V (f16):    4.50 MiB` / `c^KV (f16): 2196.00 MiB, kv^T: not used`; null if unreadable. */
function readParts(text: string | undefined): KvPart[] | null {
  if (text === undefined || text.trim() === '') return [];
  const parts: KvPart[] = [];
  // A decimal comma (`32,00 MiB`) is followed by a digit; the separator never is.
  for (const piece of text.split(/,(?!\d)\s*/)) {
    const p = KV_PART_RE.exec(piece.trim());
    if (p) {
      parts.push({ name: p[1] ?? '', type: p[2] ?? null, bytes: bytesOf(p[3], p[4]) });
      continue;
    }
    const u = KV_PART_UNUSED_RE.exec(piece.trim());
    if (u) {
      parts.push({ name: u[1] ?? '', type: null, bytes: null });
      continue;
    }
    return null;
  }
  return parts;
}

function applyParts(r: KvRecord, parts: KvPart[]): void {
  r.parts = parts;
  for (const p of parts) {
    if (p.name === 'K') [r.typeK, r.kBytes] = [p.type, p.bytes];
    if (p.name === 'V') [r.typeV, r.vBytes] = [p.type, p.bytes];
  }
}

// ---------------------------------------------------------------------------------------------

export function createLlamaLogParser(options: LineCapOptions = {}): LineParser<LlamaLogRecord> {
  /** The number of the line being read (push sets it; the readers in this closure report it). */
  let lineNo = 0;
  let split: { slotId: number; taskId: number } | null = null;
  let model: ModelBlock | null = null;
  let json: { line: number; text: string; scan: JsonScan; raw: string[] } | null = null;
  let ollama: OllamaPending | null = null;
  let iswa: boolean | null = null;

  const flushModel = (): ModelRecord[] => {
    const b = model;
    model = null;
    if (!b || b.mapped === 0) return [];
    if (b.record.extra && Object.keys(b.record.extra).length === 0) delete b.record.extra;
    return [b.record];
  };

  const flushOllama = (): TimingsRecord[] => {
    const p = ollama;
    ollama = null;
    if (!p || p.ms === null) return [];
    return [ollamaTimings(p.line, p.phase, p.ms, p.tokens, null)];
  };

  const readOllama = (key: string, value: string, raw: string): LlamaLogRecord[] => {
    const out: LlamaLogRecord[] = [];
    const phase: 'prompt' | 'eval' = key.startsWith('prompt') ? 'prompt' : 'eval';
    if (key === 'total duration' || key === 'load duration') {
      out.push(...flushOllama());
      const ms = parseGoDurationMs(value);
      if (ms === null) return [...out, diagnostic(lineNo, 'unreadable ollama duration', raw)];
      out.push(ollamaTimings(lineNo, key === 'total duration' ? 'total' : 'load', ms, null, null));
      return out;
    }
    if (ollama && ollama.phase !== phase) out.push(...flushOllama());
    ollama ??= { phase, line: lineNo, tokens: null, ms: null };
    if (key.endsWith('count')) {
      const m = /^(\d+) token\(s\)$/.exec(value);
      if (!m) return [...out, diagnostic(lineNo, 'unreadable ollama count', raw)];
      ollama.tokens = Number(m[1]);
    } else if (key.endsWith('duration')) {
      const ms = parseGoDurationMs(value);
      if (ms === null) return [...out, diagnostic(lineNo, 'unreadable ollama duration', raw)];
      ollama.ms = ms;
    } else {
      const m = /^([\d.]+) tokens\/s$/.exec(value);
      const p = ollama;
      ollama = null;
      if (!m || p.ms === null) return [...out, diagnostic(lineNo, 'unreadable ollama rate', raw)];
      out.push(ollamaTimings(p.line, phase, p.ms, p.tokens, Number(m[1])));
    }
    return out;
  };

  const readKv = (func: string, untrimmed: string, raw: string): KvRecord | Diagnostic | null => {
    const fail = () => diagnostic(lineNo, 'unreadable KV cache line', raw);
    const body = untrimmed.trim();
    let m = KV_SIZE_RE.exec(body);
    if (m) {
      const r = kvRecord(lineNo, func, 'total');
      r.sizeBytes = bytesOf(m[1], m[2]);
      r.cells = Number(m[3]);
      r.layers = Number(m[4]);
      r.seqs = m[5] !== undefined ? Number(m[5]) : null;
      r.streams = m[6] !== undefined ? Number(m[6]) : null;
      const parts = readParts(m[7]);
      if (!parts) return fail();
      applyParts(r, parts);
      r.recurrent = RECURRENT_FUNC_RE.test(func);
      r.swa = iswa;
      iswa = null;
      return r;
    }
    if ((m = KV_SELF_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'total');
      r.sizeBytes = bytesOf(m[1], m[2]);
      const parts = readParts(m[3]);
      if (!parts) return fail();
      applyParts(r, parts);
      r.recurrent = RECURRENT_FUNC_RE.test(func);
      return r;
    }
    if ((m = KV_BUFFER_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'device-buffer');
      r.device = m[1] ?? null;
      r.sizeBytes = bytesOf(m[2], m[3]);
      r.swa = iswa;
      r.recurrent = /\sRS buffer size/.test(body) || RECURRENT_FUNC_RE.test(func);
      return r;
    }
    if ((m = KV_VRAM_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'device-buffer');
      r.device = 'VRAM';
      r.sizeBytes = bytesOf(m[1], m[2]);
      return r;
    }
    if ((m = KV_CONFIG_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'config');
      r.cells = Number(m[1]);
      r.seqs = m[2] !== undefined ? Number(m[2]) : null;
      r.typeK = m[3] ?? null;
      r.typeV = m[4] ?? null;
      r.layers = Number(m[5]);
      r.recurrent = RECURRENT_FUNC_RE.test(func);
      return r;
    }
    if ((m = KV_ISWA_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'config');
      r.cells = Number(m[2]);
      iswa = m[1] === 'SWA';
      r.swa = iswa;
      return r;
    }
    if ((m = KV_CREATE_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'config');
      r.cells = Number(m[1]);
      return r;
    }
    if ((m = KV_MEMORY_SIZE_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'total');
      r.sizeBytes = bytesOf(m[1], m[2]);
      return r;
    }
    // `creating DSV4 raw KV cache` (llama_kv_cache_dsv4, 2026): the announcement of a cache whose
    // size comes on lines of their own; no figure (no `=`) in it, nothing lost.
    if (/^creating\s[^=]*KV cache$/i.test(body)) return null;
    return fail();
  };

  /** A line of a model/tensors/context block; a diagnostic when a memory breakdown row cannot be read. */
  const readModelLine = (func: string, body: string, raw: string): LlamaLogRecord[] => {
    if (model && modelGroup(model.record.source) !== modelGroup(func))
      return [...flushModel(), ...readModelLine(func, body, raw)];
    if (func === 'llama_model_loader') {
      const kv = LOADER_KV_RE.exec(body.trim());
      if (!kv) return [];
      model ??= { record: { kind: 'model', line: lineNo, source: func }, mapped: 0 };
      if (setGgufField(model.record, kv[1] ?? '', kv[2] ?? '', kv[3] ?? '')) model.mapped++;
      else if (isReadingKey(kv[1] ?? '', kv[3] ?? '', true)) return [diagnostic(lineNo, 'unreadable model line', raw)];
      return [];
    }
    let pairs: Array<[string, string]>;
    if (func.endsWith('_memory_breakdown_print')) {
      const row = breakdownRow(body);
      if (!row) return [diagnostic(lineNo, 'unreadable memory breakdown line', raw)];
      pairs = row;
    } else {
      const kv = colonReading(body) ?? modelKeyValue(body);
      // `CUDA? compute buffer size = …`, `offloaded 35/3e layers to GPU`: a memory reading nobody can read.
      if (!kv && (/\bbuffer size\s*=/.test(body) || /^\s*offloaded\b/.test(body)))
        return [diagnostic(lineNo, 'unreadable model line', raw)];
      if (!kv) return [];
      pairs = [kv];
    }
    // A block is emitted only if some key of it was mapped (flushModel), so a block of graph sizes
    // alone (`graph nodes = 1030`) yields nothing. Memory figures are readings (the tuning report's
    // batch advice reads the compute buffers), and llama.cpp prints them in blocks of their own
    // (`load_tensors:` weights, `sched_reserve:` compute buffers since late 2025, the exit breakdown).
    model ??= { record: { kind: 'model', line: lineNo, source: func, extra: emptyDictionary() }, mapped: 0 };
    model.record.extra ??= emptyDictionary();
    for (const [rawKey, value] of pairs) {
      const key = rawKey.replace(/\s+/g, ' ');
      if (setModelField(model.record, rawKey, value)) model.mapped++;
      else if (isReadingKey(rawKey, value, false)) return [diagnostic(lineNo, 'unreadable model line', raw)];
      else if (isMemoryKey(key)) {
        model.record.extra[numberedBufferKey(model, key)] = value;
        model.mapped++;
      } else {
        model.record.extra[key] = value;
        if (func.endsWith('_memory_breakdown_print')) model.mapped++;
      }
    }
    return [];
  };

  /**
   * Metal's buffer lines (2023–2024, llama-log-model.ts): the `kv` buffer a KV device buffer, the others buffers of a
   * model block, the working-set warning an `engine warning`; null for another line of these functions.
   */
  const readMetal = (func: string, body: string, raw: string): LlamaLogRecord[] | null => {
    const b = readMetalBuffer(body.trim());
    const over = METAL_OVERCOMMIT_RE.test(body);
    if (!b && !over) return null;
    const out: LlamaLogRecord[] = [];
    if (b && func === 'ggml_metal_add_buffer') {
      if (b.name === 'kv') {
        const r = kvRecord(lineNo, func, 'device-buffer');
        r.device = 'Metal';
        r.sizeBytes = bytesOf(b.size, b.unit);
        out.push(r);
      } else out.push(...readModelLine(func, `Metal ${b.name ?? ''} buffer size = ${b.size} ${b.unit}`, raw));
    } else if (b && !over) out.push(diagnostic(lineNo, METAL_ALLOC_LOG_REASON, raw));
    if (over) out.push(diagnostic(lineNo, 'engine warning', raw));
    return out;
  };

  /** A llama.cpp-led line no reader took that still looks like a reading or a failure: its diagnostic, or null. */
  const unreadLine = (
    func: string | null,
    body: string,
    trimmed: string,
    raw: string,
    level: CommonLogLevel | null,
  ): Diagnostic | null => {
    // Before the error test: `cannot fulfill margin of 1024 MiB` is a plan the fit then carries out.
    if (func !== null && isFitProjection(func, body)) return diagnostic(lineNo, FIT_PROJECTION_REASON, raw);
    const error = engineErrorReason(trimmed, level);
    if (error) return diagnostic(lineNo, error, raw);
    // A timing behind a prefix no pattern strips (a logger's own `[<date> <time>,<ms>] `): a reading all the same.
    if (func === null && TIMING_INSIDE_RE.test(trimmed)) return diagnostic(lineNo, 'unreadable timing line', raw);
    // A server `srv`/`slot` line, or ik_llama's prompt cache line, with a size (the server's saved state, an estimate).
    if (func === null) {
      const reason = serverMemoryReason(trimmed);
      return reason === null ? null : diagnostic(lineNo, reason, raw);
    }
    const b = body.trim();
    if (TIMING_BLOCK_SKIPPED_RE.test(b)) return null;
    if (TIMING_HINT_RE.test(b) || TIMING_LABEL_RE.test(b)) return diagnostic(lineNo, 'unreadable timing line', raw);
    if (KV_HINT_RE.word.test(b) && KV_HINT_RE.size.test(b)) return diagnostic(lineNo, 'unreadable KV cache line', raw);
    return null;
  };

  const push = (text: string, line: number): LlamaLogRecord[] => {
    lineNo = line;
    // A server `timings` object spread over several lines (pretty-printed JSON).
    if (json) {
      const j = json;
      const end = scanJson(j.scan, text, 0);
      j.raw.push(text);
      if (end >= 0) {
        json = null;
        return timingsFromJson(j.text + '\n' + text.slice(0, end), j.line, j.raw.join('\n'));
      }
      j.text += '\n' + text;
      if (j.raw.length >= MAX_JSON_LINES) {
        json = null;
        return [diagnostic(j.line, 'server timings object never closed', j.raw.join('\n'))];
      }
      return [];
    }

    const { line: stripped, level } = stripLogPrefixesAndLevel(text);
    const ollamaMemory = ollamaMemoryLine(stripped.trim());
    if (ollamaMemory && 'unreadable' in ollamaMemory)
      return [...flushModel(), diagnostic(lineNo, ollamaMemory.unreadable, text)];
    const s = ollamaMemory ? ollamaMemory.line : withLlamaLead(stripped);
    const trimmed = s.trim();
    if (trimmed === '') return [];
    const out: LlamaLogRecord[] = [];
    const fm = FUNC_RE.exec(s);
    const func = fm?.[1] ?? null;
    if (model && !(func && MODEL_FUNCS.has(func))) out.push(...flushModel());
    const metadata = func ? null : readPythonMetadata(trimmed, lineNo, text);
    if (metadata) {
      out.push(metadata);
      return out;
    }

    const slot = SLOT_RE.exec(s);
    const ol = slot || func ? null : OLLAMA_RE.exec(trimmed);
    if (ollama && !ol) out.push(...flushOllama());

    // Timing lines.
    let origin: TimingOrigin;
    let body: string;
    const info = SERVER_INFO_RE.exec(s);
    if (slot) {
      body = s.slice(slot[0].length);
      origin = { line: lineNo, raw: text, source: 'slot', slotId: Number(slot[1]), taskId: Number(slot[2]) };
      if (body.trim() === '') {
        // Split form: the timing lines follow on their own lines, without the slot prefix.
        split = { slotId: Number(slot[1]), taskId: Number(slot[2]) };
        return out;
      }
      split = null;
    } else if (info) {
      body = s.slice(info[0].length);
      // The `| tid="…" timestamp=… id_slot=0 id_task=5 …` tail (2024) names the slot and the task.
      const slotId = /\bid_slot=(\d+)/.exec(body)?.[1];
      const taskId = /\bid_task=(-?\d+)/.exec(body)?.[1];
      origin = {
        line: lineNo,
        raw: text,
        source: 'print_timings',
        slotId: slotId === undefined ? null : Number(slotId),
        taskId: taskId === undefined ? null : Number(taskId),
      };
      split = null;
    } else if (func) {
      body = s.slice(fm![0].length);
      origin = { line: lineNo, raw: text, source: func, slotId: null, taskId: null };
      split = null;
    } else {
      body = s.trimStart();
      origin = { line: lineNo, raw: text, source: split ? 'slot' : 'log', slotId: null, taskId: null };
      if (split) [origin.slotId, origin.taskId] = [split.slotId, split.taskId];
    }
    if (TIMING_LABEL_RE.test(body)) {
      out.push(readTiming(body, origin));
      return out;
    }
    split = null;
    // A `slot print_timing:` line whose `id N | task M |` part cannot be read (SLOT_RE did not match).
    if (!slot && /^slot\s+print_timing:/.test(s) && (TIMING_HINT_RE.test(s) || / time\s*=/.test(s))) {
      out.push(diagnostic(lineNo, 'unreadable timing line', text));
      return out;
    }
    if (slot || info) {
      const progress = slot ? readSlotProgress(body.trim(), origin) : null;
      if (progress) out.push(progress);
      else if (!TIMING_BLOCK_SKIPPED_RE.test(body.trim()) && TIMING_HINT_RE.test(body))
        out.push(diagnostic(lineNo, 'unreadable timing line', text));
      return out;
    }

    // Server JSON `timings`, on one line (SSE chunk, compact response) or opening a pretty-printed block.
    if (s.includes('"timings"')) {
      JSON_TIMINGS_RE.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = JSON_TIMINGS_RE.exec(s))) {
        const open = m.index + m[0].length - 1;
        const scan: JsonScan = { depth: 0, inString: false, escape: false };
        const end = scanJson(scan, s, open);
        if (end < 0) {
          json = { line: lineNo, text: s.slice(open), scan, raw: [text] };
          return out;
        }
        out.push(...timingsFromJson(s.slice(open, end), lineNo, text));
        JSON_TIMINGS_RE.lastIndex = end;
      }
      return out;
    }
    const slotContext = readSlotContext(trimmed, lineNo, text);
    if (slotContext) {
      out.push(slotContext);
      return out;
    }
    const jsonLog = readJsonLogLine(trimmed, lineNo, text);
    if (jsonLog) {
      out.push(jsonLog);
      return out;
    }
    const cli = readCliSummary(trimmed, origin);
    if (cli) {
      out.push(...cli);
      return out;
    }
    const speculative = readSpeculativeSummary(trimmed, origin);
    if (speculative) {
      out.push(speculative);
      return out;
    }

    if (ol) {
      out.push(...readOllama(ol[1] ?? '', ol[2] ?? '', text));
      return out;
    }

    const metal = func?.startsWith('ggml_') && func.includes('metal') ? readMetal(func, body, text) : null;
    if (metal) {
      out.push(...metal);
      return out;
    }
    if (func && KV_TRIGGER_RE.test(body)) {
      const kv = readKv(func, body, text);
      if (kv) out.push(kv);
      return out;
    }
    if (func && MODEL_FUNCS.has(func)) {
      out.push(...readModelLine(func, body, text));
      // A model-block line is read into the block (or is chatter) unless it reports a failure.
      const error = engineErrorReason(trimmed, level);
      if (error) out.push(diagnostic(lineNo, error, text));
      return out;
    }
    const unread = unreadLine(func, body, trimmed, text, level);
    if (unread) out.push(unread);
    return out;
  };

  const end = (): LlamaLogRecord[] => {
    const out: LlamaLogRecord[] = [...flushModel(), ...flushOllama()];
    if (json) {
      out.push(diagnostic(json.line, 'server timings object never closed', json.raw.join('\n')));
      json = null;
    }
    return out;
  };

  return capNumberedLines(push, end, options.maxLineChars);
}
