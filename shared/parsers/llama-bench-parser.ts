// llama-bench output → `kind: "bench"` records (one per test row) and `kind: "bench-build"`.
//
// llama-bench prints its results as `-o md` (default), `-o csv`, `-o json` (an array) or `-o jsonl`;
// the same file may hold several runs in different formats. Columns change between builds
// (b5163 has 33 CSV columns, b7772 adds n_cpu_moe, devices, tensor_buft_overrides, use_direct_io…;
// the markdown table shows `ngl` or `threads`, `fa`, `type_k`… only when they vary or were given),
// so every format is read by column/key name, never by position. Markdown `test` is `pp512`,
// `tg128`, `pp4096+tg128` or `pp512 @ d4096`; csv/json carry n_prompt/n_gen/n_depth instead and the
// name is built the way llama-bench builds it.
// Format reference: llama.cpp tools/llama-bench (README and printers in llama-bench.cpp).
// Checked against: Jetson Nano (b5038/b5043, CUDA, narrow columns), AGX Orin (b4675, `fa` column),
// Raspberry Pi 5 (b7651, CPU, a model name wider than its column), Radxa Dragon Q8B (pp4096+tg128),
// Orin CSV from b7772 with every value quoted, and the upstream README csv/json/jsonl of b5163.
//
// Lines that are none of these (backend init chatter, --progress lines, shell prompts) are skipped. A
// table row, CSV row or JSON object that cannot be read becomes a diagnostic, and so does a line
// reporting a failure (`main: error: failed to load model …`, out of memory: llama-log-errors.ts).

import { emptyDictionary } from '../util/dictionary';
import { jsonSafe } from './json-values';
import { inJsonString } from './json-scan';
import { capNumberedLines, type LineCapOptions } from './line-cap';
import { engineErrorReason } from './llama-log-errors';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  type BenchBuildRecord,
  type BenchRecord,
  type Diagnostic,
  type LineParser,
} from './records';

export type BenchParseRecord = BenchRecord | BenchBuildRecord | Diagnostic;

/** A JSON result list left open is given up after this many lines (then a diagnostic). */
export const MAX_JSON_LINES = 100_000;
/** …or once one result object holds this many characters (a real one is under 2 KiB). */
export const MAX_JSON_CHARS = 1024 * 1024;

/** A markdown table's separator row (`| ---: | :--- |`), on the trimmed line: only `|`, `:`, `-` and blanks. */
const MD_SEPARATOR_RE = /^[|:\s-]+$/;
const BUILD_RE = /^\s*build:\s+([0-9a-fA-F]+)\s+\((\d+)\)\s*$/;
const SIZE_RE = /^([\d.]+)\s*(B|KiB|MiB|GiB|TiB)$/;
const PARAMS_RE = /^([\d.]+)\s*([KMBT])$/;
const TS_RE = /^([\d.]+|inf|nan)(?:\s*±\s*([\d.]+|inf|nan))?$/;
const PROGRESS_RE = /^llama-bench: benchmark \d+\/\d+: /;
/** A program's log line: `function_name: …` (llama.cpp, ggml) or `[tag] …`; prose and tables are neither. */
const ENGINE_LOG_LINE_RE = /^(?:[a-z_][\w.]*:\s|\[[\w.-]+\]\s)/;
/** `pp512`, `tg128`, `pp512+tg128`, `pp512 @ d4096`; llama-bench before 2024 printed `pp 512`, `tg 128`. */
const TEST_RE = /^(?:pp ?(\d+))?(?:\+?tg ?(\d+))?(?:\s*@\s*d(\d+))?$/;

const SIZE_UNITS: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };
const PARAM_SCALE: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

function emptyBench(line: number, format: BenchRecord['format']): BenchRecord {
  return {
    kind: 'bench',
    line,
    format,
    model: null,
    modelFilename: null,
    test: null,
    nPrompt: null,
    nGen: null,
    nDepth: null,
    tokensPerSecond: null,
    stddev: null,
    backend: null,
    threads: null,
    nGpuLayers: null,
    sizeBytes: null,
    paramsCount: null,
    typeK: null,
    typeV: null,
    flashAttn: null,
    nBatch: null,
    nUbatch: null,
    buildCommit: null,
    buildNumber: null,
    extra: emptyDictionary(),
  };
}

function finiteOrNull(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i.test(v.trim())) return Number(v);
  return null;
}

function textOrNull(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(v);
    default:
      return JSON.stringify(v) ?? null;
  }
}

/** The test name llama-bench prints for n_prompt / n_gen / n_depth. */
export function benchTestName(nPrompt: number | null, nGen: number | null, nDepth: number | null): string | null {
  let name: string;
  if (nPrompt && nGen) name = `pp${nPrompt}+tg${nGen}`;
  else if (nPrompt) name = `pp${nPrompt}`;
  else if (nGen) name = `tg${nGen}`;
  else return null;
  return nDepth ? `${name} @ d${nDepth}` : name;
}

/** csv / json / jsonl: one result object keyed by llama-bench's field names. */
function benchFromObject(o: Record<string, unknown>, line: number, format: BenchRecord['format']): BenchRecord {
  const r = emptyBench(line, format);
  const used = new Set<string>();
  const take = (key: string): unknown => {
    used.add(key);
    return o[key];
  };
  r.model = textOrNull(take('model_type'));
  r.modelFilename = textOrNull(take('model_filename'));
  r.nPrompt = finiteOrNull(take('n_prompt'));
  r.nGen = finiteOrNull(take('n_gen'));
  r.nDepth = finiteOrNull(take('n_depth'));
  r.test = benchTestName(r.nPrompt, r.nGen, r.nDepth);
  r.tokensPerSecond = finiteOrNull(take('avg_ts'));
  r.stddev = finiteOrNull(take('stddev_ts'));
  r.backend = textOrNull(take('backends'));
  r.threads = finiteOrNull(take('n_threads'));
  r.nGpuLayers = finiteOrNull(take('n_gpu_layers'));
  r.sizeBytes = finiteOrNull(take('model_size'));
  r.paramsCount = finiteOrNull(take('model_n_params'));
  r.typeK = textOrNull(take('type_k'));
  r.typeV = textOrNull(take('type_v'));
  r.flashAttn = textOrNull(take('flash_attn'));
  r.nBatch = finiteOrNull(take('n_batch'));
  r.nUbatch = finiteOrNull(take('n_ubatch'));
  r.buildCommit = textOrNull(take('build_commit'));
  r.buildNumber = finiteOrNull(take('build_number'));
  for (const [k, v] of Object.entries(o)) if (!used.has(k)) r.extra[k] = jsonSafe(v);
  return r;
}

function looksLikeBenchObject(o: unknown): o is Record<string, unknown> {
  return !!o && typeof o === 'object' && !Array.isArray(o) && ('avg_ts' in o || 'model_type' in o || 'n_prompt' in o);
}

/** One CSV line with `"…"` quoting (llama-bench quotes every value; `""` is an escaped quote). Null if a quote is left open. */
export function splitCsvLine(text: string): string[] | null {
  // Field by field with indexOf and slices (no string built a character at a time).
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let field = '';
      let k = i + 1;
      for (;;) {
        const q = text.indexOf('"', k);
        if (q < 0) return null;
        field += text.slice(k, q);
        if (text[q + 1] === '"') {
          field += '"';
          k = q + 2;
          continue;
        }
        k = q + 1;
        break;
      }
      // Characters after the closing quote up to the comma belong to the field (as before).
      const comma = text.indexOf(',', k);
      const end = comma < 0 ? text.length : comma;
      out.push(field + text.slice(k, end));
      if (comma < 0) return out;
      i = comma + 1;
    } else {
      const comma = text.indexOf(',', i);
      if (comma < 0) {
        out.push(text.slice(i));
        return out;
      }
      out.push(text.slice(i, comma));
      i = comma + 1;
    }
  }
}

function markdownCells(text: string): string[] {
  const t = text.trim().replace(/^\|/, '').replace(/\|$/, '');
  return t.split('|').map((c) => c.trim());
}

/** One markdown table row under `header` (column names as printed). */
function benchFromMarkdown(header: string[], cells: string[], line: number, raw: string): BenchRecord | Diagnostic {
  if (cells.length !== header.length)
    return diagnostic(line, `table row has ${cells.length} cells, header has ${header.length}`, raw);
  const r = emptyBench(line, 'markdown');
  for (let k = 0; k < header.length; k++) {
    const column = header[k] ?? '';
    const name = column.toLowerCase();
    const v = cells[k] ?? '';
    switch (name) {
      case 'model':
        r.model = v;
        break;
      case 'size': {
        const m = SIZE_RE.exec(v);
        r.sizeBytes = m ? Math.round(Number(m[1]) * (SIZE_UNITS[m[2] ?? ''] ?? NaN)) : null;
        if (!m) r.extra.size = v;
        break;
      }
      case 'params': {
        const m = PARAMS_RE.exec(v);
        r.paramsCount = m ? Math.round(Number(m[1]) * (PARAM_SCALE[m[2] ?? ''] ?? NaN)) : null;
        if (!m) r.extra.params = v;
        break;
      }
      case 'backend':
        r.backend = v;
        break;
      case 'ngl':
      case 'n_gpu_layers':
        r.nGpuLayers = finiteOrNull(v);
        break;
      case 'threads':
      case 'n_threads':
        r.threads = finiteOrNull(v);
        break;
      case 'fa':
      case 'flash_attn':
        r.flashAttn = v;
        break;
      case 'type_k':
        r.typeK = v;
        break;
      case 'type_v':
        r.typeV = v;
        break;
      case 'n_batch':
        r.nBatch = finiteOrNull(v);
        break;
      case 'n_ubatch':
        r.nUbatch = finiteOrNull(v);
        break;
      case 'test': {
        r.test = v;
        const m = TEST_RE.exec(v);
        if (m && (m[1] || m[2])) {
          r.nPrompt = m[1] ? Number(m[1]) : 0;
          r.nGen = m[2] ? Number(m[2]) : 0;
          r.nDepth = m[3] ? Number(m[3]) : 0;
          // One name per test across versions (`pp 512` is today's `pp512`), as csv/json rows get.
          r.test = benchTestName(r.nPrompt, r.nGen, r.nDepth) ?? v;
        }
        break;
      }
      case 't/s': {
        const m = TS_RE.exec(v);
        if (!m) return diagnostic(line, `unreadable t/s "${v}"`, raw);
        r.tokensPerSecond = finiteOrNull(m[1]);
        r.stddev = m[2] !== undefined ? finiteOrNull(m[2]) : null;
        break;
      }
      default:
        r.extra[column] = v;
    }
  }
  return r;
}

interface JsonState {
  /** Depth of the container the objects live in: 1 inside a `[` array, 0 for bare objects. */
  base: number;
  depth: number;
  inString: boolean;
  escape: boolean;
  /** The object being read: its text from `{`, and the input lines it spans (for a diagnostic). */
  object: { line: number; text: string; raw: string[] } | null;
  lines: number;
  startLine: number;
}

export function createLlamaBenchParser(options: LineCapOptions = {}): LineParser<BenchParseRecord> {
  /** The number of the line being read (push sets it; the readers in this closure report it). */
  let lineNo = 0;
  let md: string[] | null = null;
  let csv: string[] | null = null;
  let json: JsonState | null = null;

  const fromJsonText = (text: string, line: number, raw: string, format: 'json' | 'jsonl'): BenchParseRecord[] => {
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      return [diagnostic(line, 'unreadable llama-bench JSON object', raw)];
    }
    if (!looksLikeBenchObject(o)) return [diagnostic(line, 'JSON object is not a llama-bench result', raw)];
    return [benchFromObject(o, line, format)];
  };

  /** Feed one line to the JSON scanner; returns finished records. */
  const feedJson = (j: JsonState, text: string, format: 'json' | 'jsonl'): BenchParseRecord[] => {
    const out: BenchParseRecord[] = [];
    if (j.object) j.object.raw.push(text);
    // The object's text is taken by slices of the line (from `from`), never a character at a time.
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inJsonString(j, c)) continue;
      if (c === '{' || c === '[') {
        if (c === '{' && j.depth === j.base && !j.object) {
          j.object = { line: lineNo, text: '', raw: [text] };
          from = i;
        }
        j.depth++;
      } else if (c === '}' || c === ']') {
        j.depth--;
        if (j.object && j.depth === j.base) {
          const objectText = j.object.text + text.slice(from, i + 1);
          out.push(...fromJsonText(objectText, j.object.line, j.object.raw.join('\n'), format));
          j.object = null;
        }
        if (j.depth < j.base || (j.base === 0 && j.depth === 0)) {
          json = null;
          return out;
        }
      }
    }
    if (j.object) j.object.text += text.slice(from) + '\n';
    j.lines++;
    const tooLong = (j.object?.text.length ?? 0) > MAX_JSON_CHARS;
    if (j.lines >= MAX_JSON_LINES || tooLong) {
      json = null;
      out.push(
        diagnostic(j.object?.line ?? j.startLine, 'llama-bench JSON never closed', (j.object?.raw ?? []).join('\n')),
      );
    }
    return out;
  };

  const push = (text: string, line: number): BenchParseRecord[] => {
    lineNo = line;
    if (json) return feedJson(json, text, json.base === 1 ? 'json' : 'jsonl');
    if (isBlankLine(text) || isCommentLine(text)) return [];

    const build = BUILD_RE.exec(text);
    if (build) return [{ kind: 'bench-build', line: lineNo, commit: build[1] ?? '', number: Number(build[2]) }];

    const t = text.trim();
    if (t.startsWith('|')) {
      if (MD_SEPARATOR_RE.test(t) && t.includes('-')) return [];
      const cells = markdownCells(t);
      if (cells.some((c) => c.toLowerCase() === 't/s')) {
        md = cells;
        return [];
      }
      if (!md) return [diagnostic(lineNo, 'table row without a llama-bench header', text)];
      return [benchFromMarkdown(md, cells, lineNo, text)];
    }
    // With --progress (2025+) llama-bench writes `llama-bench: benchmark 2/4: starting` … to stderr
    // between the rows it prints to stdout: in a capture of both streams they do not end the table. Nor do
    // the log lines a backend or a patched build prints on stderr while a test runs (`ggml_metal_init: …`,
    // `[iqk] ACTIVE: …`).
    if (!PROGRESS_RE.test(t) && !ENGINE_LOG_LINE_RE.test(t)) md = null;

    // `-o json` opens with a lone `[`; `-o jsonl` lines are `{"build_commit": …}`. Other lines that
    // merely start with a bracket (`[1] 4299`, `[2025-06-14 …] I …`) are not JSON.
    if (/^\[\s*(?:\{.*)?$/.test(t) || /^\{\s*(?:"|$)/.test(t)) {
      const j: JsonState = {
        base: t.startsWith('[') ? 1 : 0,
        depth: 0,
        inString: false,
        escape: false,
        object: null,
        lines: 0,
        startLine: lineNo,
      };
      json = j;
      return feedJson(j, text, j.base === 1 ? 'json' : 'jsonl');
    }

    if (t.includes(',')) {
      const fields = splitCsvLine(t);
      if (fields && (fields.includes('avg_ts') || fields[0] === 'build_commit')) {
        csv = fields;
        return [];
      }
      // llama-bench quotes every CSV value; an unquoted line with commas after a table is prose
      // (`Device 0: Orin, compute capability 8.7, VMM: yes`) and ends the table.
      if (csv && !t.startsWith('"')) csv = null;
      if (csv) {
        if (!fields || fields.length !== csv.length)
          return [
            diagnostic(
              lineNo,
              `CSV row has ${fields ? fields.length : 'unbalanced'} fields, header has ${csv.length}`,
              text,
            ),
          ];
        const o = emptyDictionary<unknown>();
        csv.forEach((name, k) => (o[name] = fields[k]));
        return [benchFromObject(o, lineNo, 'csv')];
      }
    }
    // `main: error: failed to load model '…'`, an out-of-memory line, `Killed`: why rows are missing.
    const failure = engineErrorReason(t);
    return failure ? [diagnostic(lineNo, failure, text)] : [];
  };

  const end = (): BenchParseRecord[] => {
    const j = json;
    json = null;
    return j && j.object
      ? [diagnostic(j.object.line, 'llama-bench JSON object never closed', j.object.raw.join('\n'))]
      : [];
  };

  return capNumberedLines(push, end, options.maxLineChars);
}
