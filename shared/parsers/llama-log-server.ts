// What llama.cpp's server and ollama print about timings: the server's JSON `timings` objects
// (verbose logs, possibly spread over lines) and `ollama run --verbose` summaries. Part of the
// llama.cpp log parser (llama-log-parser.ts), which feeds it. Pure.
import { emptyDictionary } from '../util/dictionary';
import { jsonSafe } from './json-values';
import { diagnostic, type Diagnostic, type ModelRecord, type TimingPhase, type TimingsRecord } from './records';

export const JSON_TIMINGS_RE = /"timings"\s*:\s*\{/g;
const STANDARD_JSON_KEYS = new Set([
  'prompt_n',
  'prompt_ms',
  'prompt_per_token_ms',
  'prompt_per_second',
  'predicted_n',
  'predicted_ms',
  'predicted_per_token_ms',
  'predicted_per_second',
]);

function jsonNumber(o: Record<string, unknown>, key: string): number | null {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** `raw`: the input line(s) the object came from, for a diagnostic. */
export function timingsFromJson(objectText: string, line: number, raw: string): Array<TimingsRecord | Diagnostic> {
  let o: unknown;
  try {
    o = JSON.parse(objectText);
  } catch {
    return [diagnostic(line, 'unreadable server timings object', raw)];
  }
  if (!o || typeof o !== 'object' || Array.isArray(o))
    return [diagnostic(line, 'server timings is not an object', raw)];
  const t = o as Record<string, unknown>;
  const extra = emptyDictionary<unknown>();
  for (const [k, v] of Object.entries(t)) if (!STANDARD_JSON_KEYS.has(k)) extra[k] = jsonSafe(v);
  const out: TimingsRecord[] = [];
  const make = (phase: TimingPhase, prefix: 'prompt' | 'predicted'): void => {
    const ms = jsonNumber(t, `${prefix}_ms`);
    if (ms === null) return;
    out.push({
      kind: 'timings',
      line,
      phase,
      ms,
      tokens: jsonNumber(t, `${prefix}_n`),
      tokensPerSecond: jsonNumber(t, `${prefix}_per_second`),
      msPerToken: jsonNumber(t, `${prefix}_per_token_ms`),
      label: prefix,
      source: 'server-json',
      slotId: null,
      taskId: null,
      extra,
    });
  };
  make('prompt', 'prompt');
  make('eval', 'predicted');
  if (out.length === 0) return [diagnostic(line, 'server timings without prompt_ms or predicted_ms', raw)];
  return out;
}

// ---------------------------------------------------------------------------------------------
// ollama --verbose

/** On the trimmed line. */
export const OLLAMA_RE =
  /^(total duration|load duration|prompt eval count|prompt eval duration|prompt eval rate|eval count|eval duration|eval rate):\s+(\S.*)$/;
const GO_DURATION_UNITS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ns: 1e-6,
};

/** Go duration units, longest first where one is a prefix of another (`ms` before `m`). */
const GO_UNITS_BY_LENGTH = ['ms', 'us', 'µs', 'μs', 'ns', 'h', 'm', 's'];

/** Go's time.Duration String(): `31.273112939s`, `235.137439ms`, `1m2.5s`, `1h0m0s`. One pass, no regex. */
export function parseGoDurationMs(text: string): number | null {
  if (text === '') return null;
  let total = 0;
  let k = 0;
  while (k < text.length) {
    const from = k;
    while (k < text.length && ((text[k] ?? '') === '.' || ((text[k] ?? '') >= '0' && (text[k] ?? '') <= '9'))) k++;
    if (k === from) return null;
    const v = Number(text.slice(from, k));
    const unit = GO_UNITS_BY_LENGTH.find((u) => text.startsWith(u, k));
    if (unit === undefined || !Number.isFinite(v)) return null;
    total += v * (GO_DURATION_UNITS[unit] ?? NaN);
    k += unit.length;
  }
  // Go prints nanoseconds at most: round away the binary noise of the unit scaling.
  return Number.isFinite(total) ? Math.round(total * 1e6) / 1e6 : null;
}

export interface OllamaPending {
  phase: 'prompt' | 'eval';
  line: number;
  tokens: number | null;
  ms: number | null;
}

// ---------------------------------------------------------------------------------------------
// ollama's own memory lines (its Go engine, 2025+; logfmt: `time=… level=INFO source=device.go:256
// msg="kv cache" device=CUDA0 size="450.0 MiB"`), printed instead of llama.cpp's when ollama runs a
// model on its new engine: model weights, kv cache and compute graph per device, total memory, and
// `msg="offloaded 27/27 layers to GPU"`. The engine's first releases (ml/backend/ggml/ggml.go, spring
// to summer 2025) named the device otherwise: `msg="model weights" buffer=CUDA0 size="11.5 GiB"`, and
// `msg="compute graph" backend=CUDA0 buffer_type=CUDA0 size="0 B"` (before that with no size at all:
// `backend=CPU buffer_type=CPU`, the graph not yet reserved, which is no reading).

const OLLAMA_MEMORY_MSG_RE = /\bmsg="(model weights|kv cache|compute graph|total memory)"/;
const OLLAMA_SIZE_RE = /\bsize="([\d.]+) (B|KiB|MiB|GiB|TiB)"/;
const OLLAMA_OFFLOAD_RE = /\bmsg="(offloaded \d+\/\d+ layers to GPU)"/;
/**
 * ollama's plan before it loads (`msg="offload to cuda" layers.offload=44 … memory.required.kv="19.5
 * GiB"` in 2024, `msg=offload library=cuda …` in 2025): estimates, not what was allocated (the runner's own lines say that). Counted as
 * a diagnostic that says so, not silently skipped.
 */
const OLLAMA_PLAN_RE = /\bmsg=(?:"offload to [^"]*"|offload\s)/;
export const OLLAMA_PLAN_REASON = "ollama's offload plan (estimates before loading, not what was allocated): not read";
export const OLLAMA_UNREADABLE_REASON = 'unreadable ollama memory line';

/** The logfmt keys that name a memory line's device, unquoted (`device=CUDA0`). */
const OLLAMA_DEVICE_RES = {
  device: /\sdevice=([^\s"=]+)/,
  buffer: /\sbuffer=([^\s"=]+)/,
  backend: /\sbackend=([^\s"=]+)/,
} as const;

function ollamaField(trimmed: string, key: keyof typeof OLLAMA_DEVICE_RES): string | undefined {
  return OLLAMA_DEVICE_RES[key].exec(trimmed)?.[1];
}

/**
 * An ollama memory line rewritten as the llama.cpp line that says the same (`ollama: CUDA0 KV buffer
 * size = 450.0 MiB`, `ollama: CUDA0 model weights = 4.1 GiB`, `ollama: offloaded 27/27 layers to GPU`)
 * so that the KV and model readers take it; `{ unreadable: reason }` for a memory line whose size
 * cannot be read and for the offload plan; null for any other line (and for a compute graph line that has no size yet).
 */
export function ollamaMemoryLine(trimmed: string): { line: string } | { unreadable: string } | null {
  if (!trimmed.includes('msg=')) return null;
  if (OLLAMA_PLAN_RE.test(trimmed)) return { unreadable: OLLAMA_PLAN_REASON };
  if (!trimmed.includes('msg="')) return null;
  const off = OLLAMA_OFFLOAD_RE.exec(trimmed);
  if (off) return { line: `ollama: ${off[1] ?? ''}` };
  const what = OLLAMA_MEMORY_MSG_RE.exec(trimmed)?.[1];
  if (what === undefined) return null;
  const m = OLLAMA_SIZE_RE.exec(trimmed);
  if (!m) return what === 'compute graph' && !/\ssize=/.test(trimmed) ? null : { unreadable: OLLAMA_UNREADABLE_REASON };
  const [size, unit] = [m[1] ?? '', m[2] ?? ''];
  const device =
    ollamaField(trimmed, 'device') ??
    (what === 'model weights' ? ollamaField(trimmed, 'buffer') : undefined) ??
    (what === 'compute graph' ? ollamaField(trimmed, 'backend') : undefined);
  if (what === 'kv cache') return { line: `ollama: ${device ?? 'all'} KV buffer size = ${size} ${unit}` };
  return { line: `ollama: ${device ? `${device} ` : ''}${what} = ${size} ${unit}` };
}

// ---------------------------------------------------------------------------------------------
// llama-server's context per slot: `slot         init: id  0 | task -1 | new slot n_ctx_slot = 8192`
// (late 2024 – mid 2025), `slot   load_model: id  0 | task -1 | new slot, n_ctx = 32768` (late 2025+),
// 2024's text log `INFO [ init] new slot | tid="…" timestamp=… id_slot=0 n_ctx_slot=32768`, and the same
// log before the server's renames of spring 2024 (`[initialize]`, `slot_id=`), which ollama's runner kept
// through 2024 at its DEBUG level: `DEBUG [initialize] new slot | n_ctx_slot=2048 slot_id=0 tid="…" …`; before
// those (late 2023 – early 2024), under `Available slots:`, `LOG_TEE(" -> Slot %i - max context: %i\n", …)`.
// One line per slot (`-np 4` prints four).

const SLOT_CTX_RE = /^slot\s+\w+:\s+id\s+(\d+)\s+\|\s+task\s+-?\d+\s+\|\s+new slot,?\s+n_ctx(?:_slot)?\s*=\s*(\d+)$/;
const INFO_SLOT_CTX_RE = /^(?:INFO|DEBUG|VERB)\s+\[\s*(?:init|initialize)\]\s+new slot\s+\|/;

const EARLY_SLOT_CTX_RE = /^-> Slot (\d+) - max context: (\d+)$/;

/** A slot's context as a model record (`nCtxPerSeq`, the slot id in `extra.slot`); a diagnostic when unreadable; null for another line. */
export function readSlotContext(trimmed: string, line: number, raw: string): ModelRecord | Diagnostic | null {
  if (trimmed.startsWith('-> Slot ')) {
    const e = EARLY_SLOT_CTX_RE.exec(trimmed);
    if (!e) return diagnostic(line, 'unreadable slot context line', raw);
    return { kind: 'model', line, source: 'slot', nCtxPerSeq: Number(e[2]), extra: { slot: e[1] ?? '' } };
  }
  if (!trimmed.includes('new slot')) return null;
  let id: string | undefined;
  let nCtx: string | undefined;
  const m = SLOT_CTX_RE.exec(trimmed);
  if (m) [id, nCtx] = [m[1], m[2]];
  else if (INFO_SLOT_CTX_RE.test(trimmed)) {
    id = /\b(?:id_slot|slot_id)=(\d+)/.exec(trimmed)?.[1];
    nCtx = /\bn_ctx_slot=(\d+)/.exec(trimmed)?.[1];
  } else if (!/^slot\s+\w+:\s+id\s/.test(trimmed)) return null;
  if (id === undefined || nCtx === undefined) return diagnostic(line, 'unreadable slot context line', raw);
  return { kind: 'model', line, source: 'slot', nCtxPerSeq: Number(nCtx), extra: { slot: id } };
}

// ---------------------------------------------------------------------------------------------
// llama-server's copies of slot state kept in host memory (tools/server, 2025+): context checkpoints,
// `SLT_*(slot, "created context checkpoint %d of %d (pos_min = %d, pos_max = %d[, n_tokens = %d], size =
// %.3f MiB)")` and its `erasing old` / `restored` / `erased invalidated` fellows; the prompt cache,
// `SRV_*(" - cache state: %zu prompts, %.3f MiB (limits: …)")`, `"   - prompt %p: %7d tokens, checkpoints:
// %2zu, %9.3f MiB"`, `" - saving prompt with length %d, total state size = %.3f MiB"`. ik_llama.cpp prints
// the prompt cache lines with no `srv` lead (LLAMA_LOG_INFO). No record holds them yet: each is a counted
// diagnostic, not silence.

export const SERVER_STATE_REASON =
  "llama-server's saved state in host memory (context checkpoint, prompt cache): not read";
/** Any other `srv`/`slot` line with a size (`[spec] estimated memory usage of MTP context is … MiB`, 2026). */
export const SERVER_MEMORY_REASON = 'llama-server memory figure (no reader for it): not read';
const SERVER_LEAD_RE = /^(?:srv|slot)\s+\w+:\s/;
const SERVER_STATE_RE =
  /\bcontext checkpoint\b|\bcache state:\s*\d+ prompts\b|(?:^|:\s)\s*-\s+prompt\s+(?:0x)?[\da-f]+:|\btotal state size\b/;
const SERVER_SIZE_RE = /\d\s*(?:MiB|GiB|KiB|MB|GB)\b/;

/** The reason for a server line that carries a size no reader took (on the prefix-stripped, trimmed line); null for another line. */
export function serverMemoryReason(trimmed: string): string | null {
  if (!SERVER_SIZE_RE.test(trimmed)) return null;
  if (SERVER_STATE_RE.test(trimmed)) return SERVER_STATE_REASON;
  return SERVER_LEAD_RE.test(trimmed) ? SERVER_MEMORY_REASON : null;
}
