// llama.cpp logs (llama-cli/main, llama-server, llama-bench's stderr, ollama and other embedders)
// → `kind: "timings"`, `kind: "kv"`, `kind: "model"` records.
//
// Stateful line parser (`createLlamaLogParser().push(line)`) so that the app can feed engine stderr
// live. A log is mostly prose (generated text, loader chatter): a line that is not a known record
// is skipped; only a line that looks like one (a timing label, a KV size, a server `timings` object)
// but cannot be read becomes a diagnostic.
//
// Format references (llama.cpp sources, format strings quoted in comments below):
// - timings: `llama_print_timings` (2023–mid 2024, `total time` with and later without a token
//   count), `llama_perf_context_print` / `llama_perf_sampler_print` / `common_perf_print` (late 2024+,
//   `%10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens per second)`, fields widen when a
//   value outgrows them, `inf`/`nan` when a count is 0), llama-server `print_timings` (mid-2024
//   `INFO [ print_timings] … | key=value`), `slot print_timing: id  N | task M |` (2025+) and its
//   split form where the three timing lines follow without the slot prefix, the server's JSON
//   `timings` object (prompt_n, prompt_ms, predicted_per_second… plus cache_n, draft_n…), and
//   ollama's `--verbose` block (Go durations).
// - KV: `llama_model_load: memory_size = … MB, n_mem = …` (March 2023), `kv self size = … MB`,
//   `llama_kv_cache_init: <dev> KV buffer size = … MiB` + `KV self size = …, K (f16): …, V (f16): …`,
//   `llama_kv_cache_unified: kv_size = …, type_k = '…'` and `size = … MiB (N cells, L layers[, S[/T]
//   seqs]), K (t): …, V (t): …`, `llama_kv_cache:` (late 2025), iSWA `creating [non-]SWA KV cache`,
//   ik_llama MLA `c^KV (f16): …, kv^T: not used`, `llama_memory_recurrent: … R (f32): …, S (f32): …`.
// - model/context: `llama_model_load:` (2023), `llm_load_print_meta:` (2023–2024), `print_info:`
//   (2025+; per-layer values print as `[8, 8, 0, …]`), `llama_model_loader: - kv N: key type = value`,
//   `llama_new_context_with_model:` / `llama_context:` (`n_ctx = …`).
// Log prefixes stripped first: journald (`Sep 13 09:19:08 host prog[pid]: `, localised month names),
// docker compose (`[time] service-1   | `), `[pid] `, llama.cpp's common log `0.00.032.820 I `,
// llama-box `[2025-06-14 23:20:30.830830] I `, app tags `llama[1]: `.
// Sizes printed as "MB" by old llama.cpp were computed as bytes/1024/1024 and are read as MiB.
// Checked against captures from Raspberry Pi Zero 2 W and Pi 5, Jetson Orin (ollama, node-llama-cpp,
// llama-box), RK3588-era logs, x86 servers and Apple M-series (see test/fixtures/llama-cpp/*/SOURCE).

import { capNumberedLines, type LineCapOptions } from './line-cap';
import {
  diagnostic,
  type Diagnostic,
  type KvPart,
  type KvRecord,
  type LineParser,
  type ModelRecord,
  type TimingPhase,
  type TimingsRecord,
} from './records';
import {
  bytesOf,
  LOADER_KV_RE,
  MODEL_FUNCS,
  modelKeyValue,
  setGgufField,
  setModelField,
  type ModelBlock,
} from './llama-log-model';
import { JSON_TIMINGS_RE, OLLAMA_RE, parseGoDurationMs, timingsFromJson, type OllamaPending } from './llama-log-server';
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
  // `[pid] ` added by some captures
  /^\[\d+\] /,
  // llama.cpp common log: `0.00.032.820 I ` (minutes grow past two digits)
  /^\d+\.\d+\.\d+\.\d+ [DIWEN] /,
  // llama-box: `[2025-06-14 23:20:30.830830] I `
  /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?\] [DIWEN] /,
  // app tags `llama[1]: `
  /^[\w.-]+\[\d+\]: /,
];

export function stripLogPrefixes(text: string): string {
  let s = text;
  for (let round = 0; round < 4; round++) {
    let changed = false;
    for (const re of PREFIXES) {
      const m = re.exec(s);
      if (m && m[0].length < s.length) {
        s = s.slice(m[0].length);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Timings

const FUNC_RE = /^([a-z_]\w*):\s*/i;
const SLOT_RE = /^slot\s+print_timing:\s+id\s+(\d+)\s+\|\s+task\s+(-?\d+)\s+\|\s*/;
const SERVER_INFO_RE = /^(?:INFO|WARN|ERR|DEBUG)\s+\[\s*print_timings\]\s*/;
const TIMING_LABEL_RE = /^(?:load|sample|sampling|samplers|prompt eval|eval|generation eval|total) time\s*=/;
const NUM = String.raw`[-+]?(?:\d+(?:\.\d+)?|inf|nan)`;
const TIMING_RE = new RegExp(
  String.raw`^(load|sample|sampling|samplers|prompt eval|eval|generation eval|total) time\s*=\s*(${NUM})\s*ms` +
    String.raw`(?:\s*\/\s*(\d+)\s*(?:runs|tokens))?` +
    String.raw`(?:\s*\(\s*(${NUM})\s*ms per token,\s*(${NUM})\s*tokens per second\s*\))?\s*(?:\|.*)?$`,
);

const PHASES: Record<string, TimingPhase> = {
  load: 'load',
  sample: 'sample',
  sampling: 'sample',
  samplers: 'sample',
  'prompt eval': 'prompt',
  eval: 'eval',
  'generation eval': 'eval',
  total: 'total',
};

function finite(text: string | undefined): number | null {
  if (text === undefined) return null;
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

function readTiming(
  body: string,
  line: number,
  raw: string,
  source: string,
  slotId: number | null,
  taskId: number | null,
): TimingsRecord | Diagnostic {
  const m = TIMING_RE.exec(body);
  const ms = m ? finite(m[2]) : null;
  const label = m?.[1] ?? '';
  const phase = PHASES[label];
  if (!m || ms === null || !phase) return diagnostic(line, 'unreadable timing line', raw);
  return {
    kind: 'timings',
    line,
    phase,
    ms,
    tokens: m[3] !== undefined ? Number(m[3]) : null,
    tokensPerSecond: finite(m[5]),
    msPerToken: finite(m[4]),
    label,
    source,
    slotId,
    taskId,
  };
}

// ---------------------------------------------------------------------------------------------
// KV cache

// The KV readers below take the body trimmed at both ends, so no pattern needs a trailing `\s*` next
// to a `.*` (the pair that backtracks quadratically on a run of spaces).
const KV_TRIGGER_RE =
  /\bKV self size\b|\bKV buffer size\b|^kv_size\s*=|^memory_size\s*=|^(?:\[fp8\]\s+)?size\s*=.*\bcells\b|^creating\s.*KV cache/i;
const KV_SELF_RE = /^KV self size\s*=\s*([\d.]+)\s*(MiB|MB|GiB|GB|KiB)(?:\s*,\s*(\S.*))?$/i;
const KV_BUFFER_RE = /^(?:\[fp8\]\s+)?(\S+)\s+KV buffer size\s*=\s*([\d.]+)\s*(MiB|MB|GiB|GB|KiB)$/;
const KV_CONFIG_RE = /^kv_size\s*=\s*(\d+),\s*type_k\s*=\s*'([^']*)',\s*type_v\s*=\s*'([^']*)',\s*n_layer\s*=\s*(\d+)/;
const KV_SIZE_RE =
  /^(?:\[fp8\]\s+)?size\s*=\s*([\d.]+)\s*(MiB|MB|GiB|GB|KiB)\s*\(\s*(\d+)\s*cells,\s*(\d+)\s*layers(?:,\s*(\d+)(?:\/(\d+))?\s*seqs)?\s*\)(?:\s*,\s*(\S.*))?$/;
const KV_MEMORY_SIZE_RE = /^memory_size\s*=\s*([\d.]+)\s*(MiB|MB|GiB|GB)\b/;
const KV_ISWA_RE = /^creating\s+(non-SWA|SWA)\s+KV cache,\s*size\s*=\s*(\d+)\s*cells/;
const KV_PART_RE = /^([^\s(]+)\s*\(([^)]*)\):\s*([\d.]+)\s*(MiB|MB|GiB|GB|KiB)$/;
const KV_PART_UNUSED_RE = /^(\S+):\s*not used$/;

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
  for (const piece of text.split(/,\s*/)) {
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

  const readKv = (func: string, untrimmed: string, raw: string): KvRecord | Diagnostic => {
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
      r.recurrent = func === 'llama_memory_recurrent';
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
      return r;
    }
    if ((m = KV_BUFFER_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'device-buffer');
      r.device = m[1] ?? null;
      r.sizeBytes = bytesOf(m[2], m[3]);
      r.swa = iswa;
      return r;
    }
    if ((m = KV_CONFIG_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'config');
      r.cells = Number(m[1]);
      r.typeK = m[2] ?? null;
      r.typeV = m[3] ?? null;
      r.layers = Number(m[4]);
      return r;
    }
    if ((m = KV_ISWA_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'config');
      r.cells = Number(m[2]);
      iswa = m[1] === 'SWA';
      r.swa = iswa;
      return r;
    }
    if ((m = KV_MEMORY_SIZE_RE.exec(body))) {
      const r = kvRecord(lineNo, func, 'total');
      r.sizeBytes = bytesOf(m[1], m[2]);
      return r;
    }
    return fail();
  };

  const readModelLine = (func: string, body: string): LlamaLogRecord[] => {
    if (func === 'llama_model_loader') {
      const kv = LOADER_KV_RE.exec(body.trim());
      if (!kv) return [];
      model ??= { record: { kind: 'model', line: lineNo, source: func }, mapped: 0 };
      if (setGgufField(model.record, kv[1] ?? '', kv[2] ?? '', kv[3] ?? '')) model.mapped++;
      return [];
    }
    const kv = modelKeyValue(body);
    if (!kv) return [];
    // A block is emitted only if some key of it was mapped (flushModel), so a block of graph sizes
    // alone (`graph nodes = 1030`) yields nothing. Compute buffer sizes are readings (the tuning
    // report's batch advice reads them), and since late 2025 llama.cpp prints them in a block of
    // their own (`sched_reserve:`, after the KV cache lines).
    model ??= { record: { kind: 'model', line: lineNo, source: func, extra: {} }, mapped: 0 };
    model.record.extra ??= {};
    const key = kv[0].replace(/\s+/g, ' ');
    if (setModelField(model.record, kv[0], kv[1])) model.mapped++;
    else {
      model.record.extra[key] = kv[1];
      if (key.endsWith(' compute buffer size')) model.mapped++;
    }
    return [];
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

    const s = stripLogPrefixes(text);
    if (s.trim() === '') return [];
    const out: LlamaLogRecord[] = [];
    const fm = FUNC_RE.exec(s);
    const func = fm ? fm[1] : null;
    if (model && !(func && MODEL_FUNCS.has(func))) out.push(...flushModel());

    const slot = SLOT_RE.exec(s);
    const ol = slot || func ? null : OLLAMA_RE.exec(s.trim());
    if (ollama && !ol) out.push(...flushOllama());

    // Timing lines.
    let body: string;
    let source: string;
    let slotId: number | null = null;
    let taskId: number | null = null;
    const info = SERVER_INFO_RE.exec(s);
    if (slot) {
      body = s.slice(slot[0].length);
      source = 'slot';
      slotId = Number(slot[1]);
      taskId = Number(slot[2]);
      if (body.trim() === '') {
        // Split form: the timing lines follow on their own lines, without the slot prefix.
        split = { slotId, taskId };
        return out;
      }
      split = null;
    } else if (info) {
      body = s.slice(info[0].length);
      source = 'print_timings';
      split = null;
    } else if (func) {
      body = s.slice(fm![0].length);
      source = func;
      split = null;
    } else {
      body = s.trimStart();
      source = split ? 'slot' : 'log';
      if (split) [slotId, taskId] = [split.slotId, split.taskId];
    }
    if (TIMING_LABEL_RE.test(body)) {
      out.push(readTiming(body, lineNo, text, source, slotId, taskId));
      return out;
    }
    split = null;
    if (slot || info) return out;

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

    if (ol) {
      out.push(...readOllama(ol[1] ?? '', ol[2] ?? '', text));
      return out;
    }

    if (func) {
      if (KV_TRIGGER_RE.test(body)) {
        out.push(readKv(func, body, text));
        return out;
      }
      if (MODEL_FUNCS.has(func)) out.push(...readModelLine(func, body));
    }
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
