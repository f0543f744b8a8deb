// The demo engine: a synthetic reference workload with known memory physics (docs/DESIGN.md).
// It is not a model. It holds a weights buffer and reads it once per token (memory-bound like
// decode), makes exactly `bytesPerToken` of memory resident per token — at once for the whole
// context (reserved), per block of tokens (growth, paged), or up to a window (window) — prints
// one token per line and ends with llama.cpp-style timing lines. Because its true bytes per token
// are known, profiling it measures the profiler's own accuracy.
//
// This file is bundled into ONE self-contained CommonJS file (demo-engine-bundle.ts) that runs
// on a board's `node` (as old as Node 12), so it imports nothing but Node's own `fs`.
import { writeSync } from 'fs';

export interface DemoEngineConfig {
  bytesPerToken: number;
  tokens: number;
  tps: number;
  mode: 'growth' | 'reserved' | 'window';
  ctx: number;
  block: number;
  window?: number;
  weightsBytes: number;
  leakBytesPerToken: number;
  promptTokens: number;
  /** Pause between loading weights and creating the KV cache, so a sampler sees both states. */
  loadGapMs: number;
  /** Lines for the llama.cpp-style model/KV info printed at start (stderr). */
  infoLines: string[];
}

export interface DemoEngineIo {
  out(text: string): void;
  err(text: string): void;
  now(): number;
  sleep(ms: number): void;
}

// Token lines are built once: per-token JS allocations would grow V8's young generation and
// show up as a few percent of extra "KV" slope in the very measurement the demo calibrates.
const WORD_LINES = [
  'the',
  'board',
  'runs',
  'a',
  'tiny',
  'model',
  'and',
  'the',
  'cache',
  'grows',
  'one',
  'row',
  'per',
  'token',
  'until',
  'memory',
  'ends',
].map((w) => w + '\n');

/** Node's synchronous sleep: Atomics.wait on a private SharedArrayBuffer (sub-ms precise). */
export function nodeIo(): DemoEngineIo {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  return {
    // Plain write(2): no stream objects per token, and synchronous like llama.cpp's fflush.
    out: (t) => void writeAll(1, t),
    err: (t) => void writeAll(2, t),
    now: () => {
      const [s, ns] = process.hrtime();
      return s * 1e3 + ns / 1e6;
    },
    sleep: (ms) => {
      if (ms > 0) Atomics.wait(cell, 0, 0, ms);
    },
  };
}

function writeAll(fd: number, text: string) {
  try {
    writeSync(fd, text);
  } catch (error) {
    // The reader went away (run stopped): end quietly, as an engine killed by SIGPIPE would.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(141);
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    writeSync(fd, text);
  }
}

/**
 * Make the JS heap's own memory settle before the cache starts, so it does not move during
 * decode and pass for KV bytes:
 * - V8's young generation becomes resident page by page as allocation first walks through it,
 *   and grows under allocation: left alone, that happens slowly during decode (the few bytes
 *   each token allocates) and adds ~200 B/token of fake slope (measured). Short-lived garbage
 *   churned through at load time makes it resident and full-size up front.
 * - That garbage must die young (a small ring, never a growing list): promoted to old space it
 *   would be freed by the full GC that the next big arena allocation triggers, mid-decode
 *   (seen: −3 MiB at the third 64 MiB segment, a −2 % slope error). A forced full GC here
 *   is no better: V8 then hands pages back over the following seconds (measured −2 %).
 */
function warmUpHeap() {
  const ring: unknown[] = new Array(64);
  for (let i = 0; i < 300_000; i++) ring[i & 63] = [i, i >> 6, i & 63];
  return ring.length;
}

/** Size of one arena segment: large enough that malloc maps it (lazy pages), small enough to waste little. */
const SEGMENT_BYTES = 64 * 1024 * 1024;

/** Touch every page of buf[start, end): makes it resident (anonymous RSS). */
function touch(buf: Buffer, start: number, end: number, value: number) {
  if (end > start) buf.fill(value, start, end);
}

function pad(n: number, width: number, digits = 2) {
  const s = n.toFixed(digits);
  return s.length >= width ? s : ' '.repeat(width - s.length) + s;
}

export function runDemoEngine(
  cfg: DemoEngineConfig,
  io: DemoEngineIo,
  shouldStop: () => boolean = () => false,
): number {
  const t0 = io.now();
  for (const line of cfg.infoLines) io.err(line + '\n');

  // Weights: anonymous, resident, read once per token.
  const weights = Buffer.allocUnsafe(Math.max(64, Math.floor(cfg.weightsBytes)));
  touch(weights, 0, weights.length, 1);
  const weightWords = new Int32Array(weights.buffer, weights.byteOffset, Math.floor(weights.length / 4));
  warmUpHeap();
  io.sleep(cfg.loadGapMs);
  const tLoaded = io.now();

  // KV arena. allocUnsafe of a large size is malloc → mmap: address space without resident
  // pages until touched, which is exactly what lets each mode decide when memory becomes RSS.
  const bpt = cfg.bytesPerToken;
  const totalTokens = cfg.promptTokens + cfg.tokens;
  const capacityTokens =
    cfg.mode === 'reserved'
      ? cfg.ctx
      : cfg.mode === 'window'
        ? Math.ceil(Math.min(cfg.window ?? cfg.ctx, totalTokens) / cfg.block) * cfg.block
        : Math.ceil(totalTokens / cfg.block) * cfg.block;
  // The arena is a list of segments allocated as the cache reaches them (a single Buffer is
  // capped at 4 GiB, and a long growth run needs more address space than that).
  const segTokens = Math.max(cfg.block, Math.floor(SEGMENT_BYTES / bpt / cfg.block) * cfg.block);
  const segments: Buffer[] = [];
  const segment = (i: number) => (segments[i] ??= Buffer.allocUnsafe(segTokens * bpt));
  /** Touch cells [from, to): block-aligned ranges, possibly spanning segments. */
  const touchCells = (from: number, to: number, value: number) => {
    for (let c = from; c < to;) {
      const si = Math.floor(c / segTokens);
      const end = Math.min(to, (si + 1) * segTokens);
      touch(segment(si), (c - si * segTokens) * bpt, (end - si * segTokens) * bpt, value);
      c = end;
    }
  };
  let residentTokens = 0;
  if (cfg.mode === 'reserved') {
    // llama.cpp allocates and clears n_ctx cells when the context is created.
    touchCells(0, capacityTokens, 0);
    residentTokens = capacityTokens;
    io.err(`llama_kv_cache: reserved ${capacityTokens} cells, ${capacityTokens * bpt} bytes\n`);
  }
  // Context creation, then prompt processing: a gap a sampler can see between the two.
  io.sleep(cfg.loadGapMs);
  const leaks: Buffer[] = [];
  let checksum = 0;

  /** Make cell `pos` resident, block by block (paged allocators hand out block × bpt at once). */
  const ensureResident = (pos: number) => {
    const cell = cfg.mode === 'window' ? pos % capacityTokens : pos;
    if (cell < residentTokens) return cell;
    const upTo = Math.min(capacityTokens, Math.ceil((cell + 1) / cfg.block) * cfg.block);
    touchCells(residentTokens, upTo, 0);
    residentTokens = upTo;
    return cell;
  };
  const writeRow = (pos: number) => {
    const cell = ensureResident(pos);
    // The row's content: one byte is enough to keep it honest work.
    const si = Math.floor(cell / segTokens);
    segment(si)[(cell - si * segTokens) * bpt] = pos & 0xff;
    if (cfg.leakBytesPerToken > 0) {
      const leak = Buffer.allocUnsafeSlow(cfg.leakBytesPerToken);
      leak.fill(pos & 0xff);
      leaks.push(leak);
    }
  };
  const readWeights = () => {
    // One read per 64-byte cache line: bandwidth-bound, like decode.
    let s = 0;
    for (let i = 0; i < weightWords.length; i += 16) s = (s + (weightWords[i] ?? 0)) | 0;
    checksum = (checksum + s) | 0;
  };

  // Prefill: the prompt's rows, at ~8× the decode rate.
  const tPromptStart = io.now();
  for (let p = 0; p < cfg.promptTokens; p++) writeRow(p);
  if (cfg.promptTokens > 0) readWeights();
  io.sleep((cfg.promptTokens / (cfg.tps * 8)) * 1000);
  const tPromptEnd = io.now();

  const interval = 1000 / cfg.tps;
  let generated = 0;
  let next = io.now();
  let sampleMs = 0;
  for (; generated < cfg.tokens && !shouldStop(); generated++) {
    const ts = io.now();
    writeRow(cfg.promptTokens + generated);
    readWeights();
    const line = WORD_LINES[(generated * 7 + (checksum & 3)) % WORD_LINES.length] ?? '';
    sampleMs += io.now() - ts;
    io.out(line);
    next += interval;
    const wait = next - io.now();
    if (wait > 0) io.sleep(wait);
    else if (wait < -250) next = io.now(); // fell behind: do not burst to catch up
  }
  const tEnd = io.now();
  printTimings(io, {
    loadMs: tLoaded - t0,
    promptMs: tPromptEnd - tPromptStart,
    promptTokens: cfg.promptTokens,
    evalMs: tEnd - tPromptEnd,
    evalTokens: generated,
    sampleMs,
    totalMs: tEnd - t0,
  });
  return generated;
}

export function printTimings(
  io: DemoEngineIo,
  t: {
    loadMs: number;
    promptMs: number;
    promptTokens: number;
    evalMs: number;
    evalTokens: number;
    sampleMs: number;
    totalMs: number;
  },
) {
  const per = (ms: number, n: number) => (n > 0 ? ms / n : 0);
  const tps = (ms: number, n: number) => (ms > 0 ? (1000 * n) / ms : Infinity);
  const fmtTps = (v: number) => (Number.isFinite(v) ? pad(v, 8) : '     inf');
  io.err(
    `llama_perf_sampler_print:    sampling time = ${pad(t.sampleMs, 10)} ms / ${pad(t.evalTokens, 5, 0)} runs   (${pad(per(t.sampleMs, t.evalTokens), 8)} ms per token, ${fmtTps(tps(t.sampleMs, t.evalTokens))} tokens per second)\n` +
      `llama_perf_context_print:        load time = ${pad(t.loadMs, 10)} ms\n` +
      `llama_perf_context_print: prompt eval time = ${pad(t.promptMs, 10)} ms / ${pad(t.promptTokens, 5, 0)} tokens (${pad(per(t.promptMs, t.promptTokens), 8)} ms per token, ${fmtTps(tps(t.promptMs, t.promptTokens))} tokens per second)\n` +
      `llama_perf_context_print:        eval time = ${pad(t.evalMs, 10)} ms / ${pad(t.evalTokens, 5, 0)} runs   (${pad(per(t.evalMs, t.evalTokens), 8)} ms per token, ${fmtTps(tps(t.evalMs, t.evalTokens))} tokens per second)\n` +
      `llama_perf_context_print:       total time = ${pad(t.totalMs, 10)} ms / ${pad(t.promptTokens + t.evalTokens, 5, 0)} tokens\n`,
  );
}
