// Parser throughput: the llama.cpp log parser over a ≥ 50 MB synthetic log and the tegrastats
// parser over 200 000 lines, both fed as 64 KiB byte chunks through the line splitter — the path
// of `kvscope parse` and of a live engine's stderr. Then (issues 8 and 11): the tegrastats parse
// rate in-process on the real corpus lines (target ≥ 200,000 lines/s), `kvscope parse tegrastats`
// with its NDJSON output, and the worst parse time per format for a 2 MiB pathological line
// (target < 1 s each), found among the same generated inputs as test/unit/shared/parsers/linear-time.test.ts. The logs are built from real line shapes (the
// fixtures' llama_perf_*/slot/KV/print_info/server-JSON lines and prose, tegrastats lines of an
// AGX Orin, an Orin Nano and a JetPack 7 board) with numbers varied per line, so no line repeats.
import { createLlamaLogParser } from '../shared/parsers/llama-log-parser';
import { LineSplitter } from '../shared/parsers/line-splitter';
import type { LineParser, ParseRecord } from '../shared/parsers/records';
import { createTegrastatsParser } from '../shared/parsers/tegrastats-parser';
import { Readable } from 'node:stream';
import { main } from '../electron/node/cli/main';
import type { CliIo } from '../electron/node/cli/cli-io';
import { parserFormats } from '../shared/parsers/index';
import { CORPUS_FORMATS, corpusLines, corpusText } from '../test/helpers/parser-corpus';
import type { BenchRow } from './bench-util';

const LLAMA_LOG_MIN_BYTES = 50 * 1024 * 1024;
const TEGRASTATS_LINES = 200_000;
const CHUNK_BYTES = 64 * 1024;
const RUNS = 3;

function llamaLogLines(i: number): string[] {
  const ms = (1000 + (i % 977) * 3.17).toFixed(2);
  const n = 16 + (i % 400);
  const tps = ((n * 1000) / Number(ms)).toFixed(2);
  const tok = (Number(ms) / n || 0).toFixed(2);
  return [
    `Once upon a time, in a small village ${i} near the mountains, there lived an engineer who measured every token twice.`,
    `The KV cache grew by ${i % 64} blocks while the board stayed below its thermal trip point; nobody noticed the swap.`,
    `${(i % 60).toString().padStart(1)}.${(i % 60).toString().padStart(2, '0')}.${(i % 1000).toString().padStart(3, '0')}.${(i % 997).toString().padStart(3, '0')} I slot print_timing: id  0 | task ${i} | prompt eval time =   ${ms} ms / ${n.toString().padStart(5)} tokens (${tok.padStart(8)} ms per token, ${tps.padStart(8)} tokens per second)`,
    `[${40000 + (i % 999)}] slot update_slots: id  0 | task ${i} | prompt done, n_tokens = ${n}, batch.n_tokens = ${n}`,
    `Sep 13 09:19:08 ubuntu ollama[17505]: llama_kv_cache:      CUDA0 KV buffer size = ${(448 + (i % 7)).toFixed(2)} MiB`,
    `llama_kv_cache: size = ${(448 + (i % 7)).toFixed(2)} MiB (  4096 cells,  28 layers,  1/1 seqs), K (f16):  224.00 MiB, V (f16):  224.00 MiB`,
    `print_info: n_head_kv        = ${8 + (i % 3)}`,
    `load_tensors:   CPU_Mapped model buffer size =  ${(1000 + (i % 50)).toFixed(2)} MiB`,
    `llama_perf_context_print:        eval time = ${ms} ms / ${n.toString().padStart(5)} runs   (${tok.padStart(8)} ms per token, ${tps.padStart(8)} tokens per second)`,
    `{"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"timings":{"cache_n":${i % 300},"prompt_n":${n},"prompt_ms":${ms},"prompt_per_token_ms":${tok},"prompt_per_second":${tps},"predicted_n":${n},"predicted_ms":${ms},"predicted_per_token_ms":${tok},"predicted_per_second":${tps}}}`,
    `srv  update_slots: all slots are idle`,
    '',
  ];
}

function tegrastatsLine(i: number): string {
  const c = (k: number) => `${(i * 7 + k * 13) % 100}%@${729 + ((i + k) % 1500)}`;
  const cpus = Array.from({ length: 12 }, (_, k) => (k === 5 && i % 9 === 0 ? 'off' : c(k))).join(',');
  const t = (base: number) => (base + (i % 1000) / 64).toFixed(3);
  switch (i % 3) {
    case 0:
      return `05-09-2026 18:42:${String(i % 60).padStart(2, '0')} RAM ${18000 + (i % 500)}/62841MB (lfb ${400 + (i % 90)}x4MB) SWAP 86/31420MB (cached 0MB) CPU [${cpus}] EMC_FREQ ${i % 7}%@2133 GR3D_FREQ ${i % 100}%@[${(i * 3) % 1300},${(i * 3) % 1300}] NVENC ${i % 90}%@166 NVDEC off NVJPG off VIC ${i % 40}%@115 OFA off NVDLA0 off PVA0_FREQ off APE 174 cpu@${t(50)}C soc2@${t(48)}C soc0@${t(49)}C GPU@-256C tj@${t(52)}C VDD_GPU_SOC ${2400 + (i % 300)}mW/2412mW VDD_CPU_CV ${1600 + (i % 200)}mW/1607mW VIN_SYS_5V0 4707mW/4707mW NC 0mW/0mW NC 0mW/0mW`;
    case 1:
      return `RAM ${2000 + (i % 900)}/7620MB (lfb 1x4MB) SWAP 25/3810MB (cached 0MB) CPU [${cpus.split(',').slice(0, 6).join(',')}] GR3D_FREQ ${i % 100}% cpu@${t(51)}C soc2@${t(51)}C gpu@${t(51)}C tj@${t(51)}C VDD_IN ${4700 + (i % 800)}mW/6179mW VDD_CPU_GPU_CV 1273mW/2369mW VDD_SOC 1234mW/1392mW`;
    default:
      return `08-08-2026 21:00:${String(i % 60).padStart(2, '0')} RAM ${8000 + (i % 900)}/125749MB (lfb 31x4MB) CPU [${cpus}] EMC_FREQ ${i % 50}%@4266 GR3D_FREQ ${i % 100}%@[1574,1574,1574] NVENC0_FREQ @1691 VIC off cpu@${t(58)}C/${t(61)}C tj@${t(66)}C/${t(66)}C VDD_GPU ${30000 + (i % 9000)}mW/8660mW/37939mW VIN ${120000 + (i % 9000)}mW/36487mW/124486mW`;
  }
}

function toChunks(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let off = 0; off < bytes.length; off += CHUNK_BYTES) chunks.push(bytes.subarray(off, off + CHUNK_BYTES));
  return chunks;
}

interface Run {
  seconds: number;
  lines: number;
  records: number;
}

function timeParse(chunks: Uint8Array[], make: () => LineParser<ParseRecord>): Run {
  const splitter = new LineSplitter();
  const parser = make();
  let lines = 0;
  let records = 0;
  const t0 = performance.now();
  for (const chunk of chunks) {
    for (const line of splitter.push(chunk)) {
      lines++;
      records += parser.push(line).length;
    }
  }
  for (const line of splitter.end()) {
    lines++;
    records += parser.push(line).length;
  }
  records += parser.end().length;
  return { seconds: (performance.now() - t0) / 1000, lines, records };
}

function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor(runs.length / 2)] ?? { seconds: NaN, lines: 0, records: 0 };
}

function rows(name: string, bytes: number, runs: Run[]): BenchRow[] {
  const m = median(runs);
  const note = `${(bytes / 1e6).toFixed(1)} MB, ${m.lines.toLocaleString('en-US')} lines → ${m.records.toLocaleString('en-US')} records, median of ${runs.length}, 64 KiB byte chunks through the line splitter`;
  return [
    { name: `${name} lines/s`, value: Math.round(m.lines / m.seconds).toLocaleString('en-US'), note },
    { name: `${name} MB/s`, value: (bytes / 1e6 / m.seconds).toFixed(1) },
  ];
}

const CORPUS_RATE_LINES = 200_000;
/** Runs of the corpus rate (each about a second): the first ones warm the JIT up, the median is taken. */
const CORPUS_RATE_RUNS = 7;
const PATHOLOGICAL_BYTES = 2 * 1024 * 1024;
const PATHOLOGICAL_SCAN_BYTES = 16 * 1024;

/** The tegrastats lines of the corpus (every board), repeated to `count` lines. */
function tegrastatsCorpus(count: number): string[] {
  const real = corpusLines('tegrastats').filter((l) => /\bRAM\s/.test(l));
  return Array.from({ length: count }, (_, i) => real[i % real.length] ?? '');
}

function benchCorpusRate(): BenchRow {
  const lines = tegrastatsCorpus(CORPUS_RATE_LINES);
  const runs = Array.from({ length: CORPUS_RATE_RUNS }, () => {
    const parser = createTegrastatsParser();
    const t0 = performance.now();
    for (const l of lines) parser.push(l);
    parser.end();
    return (performance.now() - t0) / 1000;
  }).sort((a, b) => a - b);
  const s = runs[Math.floor(runs.length / 2)] ?? NaN;
  const distinct = new Set(lines).size;
  return {
    name: 'tegrastats corpus lines/s (in-process)',
    value: Math.round(lines.length / s).toLocaleString('en-US'),
    note: `${lines.length.toLocaleString('en-US')} lines = the ${distinct} real lines of test/fixtures/tegrastats (TX1 … Thor shapes) repeated, pushed line by line, median of ${CORPUS_RATE_RUNS}; target ≥ 200,000`,
  };
}

async function benchParseCommand(): Promise<BenchRow> {
  const text = tegrastatsCorpus(CORPUS_RATE_LINES).join('\n') + '\n';
  const bytes = new TextEncoder().encode(text);
  const chunks = Array.from({ length: Math.ceil(bytes.length / CHUNK_BYTES) }, (_, k) =>
    bytes.subarray(k * CHUNK_BYTES, (k + 1) * CHUNK_BYTES),
  );
  let outChars = 0;
  const io: CliIo = {
    out: (t) => void (outChars += t.length),
    err: () => undefined,
    stdin: Readable.from(chunks),
    signal: new AbortController().signal,
  };
  const t0 = performance.now();
  await main(['parse', 'tegrastats', '-'], io);
  const s = (performance.now() - t0) / 1000;
  return {
    name: 'kvscope parse tegrastats lines/s (NDJSON)',
    value: Math.round(CORPUS_RATE_LINES / s).toLocaleString('en-US'),
    note: `main(['parse','tegrastats','-']) in-process on the corpus lines from stdin in 64 KiB chunks, ${(outChars / 1e6).toFixed(0)} MB of NDJSON written to a counter (no terminal)`,
  };
}

/** Inputs of one format that make parsers work hardest: real lines with one token or character run to `bytes`. */
function pathologicalInputs(format: string): Array<{ label: string; make: (bytes: number) => string }> {
  const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / Math.max(unit.length, 1))).slice(0, n);
  const out: Array<{ label: string; make: (bytes: number) => string }> = [];
  for (const line of corpusLines(format, 12)) {
    out.push({ label: 'tokens repeated', make: (n) => fill(line + ' ', n) });
    out.push({ label: 'spaces widened', make: (n) => line.slice(0, 40) + ' '.repeat(n) + 'x' });
    out.push({ label: 'no newline', make: (n) => fill(corpusText(format).replace(/\r?\n/g, ' ') + ' ', n) });
    for (const c of ['[', '(', '{', '"', '|', ':', ',', '#', '=', '0'])
      out.push({ label: `${c} run`, make: (n) => line.slice(0, 40) + fill(c, n) });
    for (const tok of line.trim().split(/\s+/).slice(0, 16))
      out.push({ label: `"${tok.slice(0, 10)}" repeated`, make: (n) => fill(tok + ' ', n) });
  }
  return out;
}

function timeOne(format: string, text: string, maxLineChars?: number): number {
  const parser = parserFormats[format]?.create({ maxLineChars, pageSizeBytes: 4096 });
  if (!parser) return NaN;
  const t0 = performance.now();
  parser.push(text);
  parser.end();
  return performance.now() - t0;
}

function benchPathological(): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const format of CORPUS_FORMATS) {
    const inputs = pathologicalInputs(format);
    let worst = inputs[0];
    let worstMs = -1;
    for (const input of inputs) {
      const ms = timeOne(format, input.make(PATHOLOGICAL_SCAN_BYTES), Number.MAX_SAFE_INTEGER);
      if (ms > worstMs) [worst, worstMs] = [input, ms];
    }
    if (!worst) continue;
    const line = worst.make(PATHOLOGICAL_BYTES);
    const uncapped = Math.min(...[0, 1, 2].map(() => timeOne(format, line, Number.MAX_SAFE_INTEGER)));
    const capped = Math.min(...[0, 1, 2].map(() => timeOne(format, line)));
    rows.push({
      name: `${format}: worst 2 MiB line, ms`,
      value: uncapped.toFixed(1),
      note: `${worst.label} (slowest of ${inputs.length} generated inputs); with the 64 KiB line cap: ${capped.toFixed(1)} ms; target < 1000`,
    });
  }
  return rows;
}

export async function benchParsers(): Promise<BenchRow[]> {
  // First, on a small heap: the rows below keep 120 MB of input alive, and every major GC the
  // corpus rate's own garbage triggers would mark it all (~15 % of that rate, 2-core VM).
  const corpusRate = benchCorpusRate();
  const llamaParts: string[] = [];
  let size = 0;
  for (let i = 0; size < LLAMA_LOG_MIN_BYTES; i++) {
    const block = llamaLogLines(i).join('\n') + '\n';
    llamaParts.push(block);
    size += block.length; // ASCII: characters = bytes
  }
  const llamaChunks = toChunks(llamaParts.join(''));
  llamaParts.length = 0;
  const llamaBytes = llamaChunks.reduce((n, c) => n + c.length, 0);
  const llamaRuns = Array.from({ length: RUNS }, () => timeParse(llamaChunks, createLlamaLogParser));

  const tegra = Array.from({ length: TEGRASTATS_LINES }, (_, i) => tegrastatsLine(i)).join('\n') + '\n';
  const tegraChunks = toChunks(tegra);
  const tegraBytes = tegraChunks.reduce((n, c) => n + c.length, 0);
  const tegraRuns = Array.from({ length: RUNS }, () => timeParse(tegraChunks, createTegrastatsParser));

  return [
    ...rows('llama-log', llamaBytes, llamaRuns),
    ...rows('tegrastats', tegraBytes, tegraRuns),
    corpusRate,
    await benchParseCommand(),
    ...benchPathological(),
  ];
}
