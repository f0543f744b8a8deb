// Timing lines of every llama.cpp era the audit of December 2026 found unread (before it they gave
// nothing, or a diagnostic for a line that was fine). The lines are real captures, kept verbatim in
// test/fixtures/llama-cpp/format-strings-2023-2026 (its SOURCE names where each came from, except
// for a file it marks as made up); the expected values are read off those lines by hand.
import { describe, expect, it } from 'vitest';
import type { TimingsRecord } from '../../../../shared/parsers/records';
import { diagnostics, ofKind, parse, parseFixtureClean } from '../../../helpers/parser-test-kit';

/** A file of test/fixtures/llama-cpp/format-strings-2023-2026 (see its SOURCE), parsed; no diagnostics expected. */
const clean = (name: string) => parseFixtureClean('llama-log', `llama-cpp/format-strings-2023-2026/${name}`);

const row = (r: TimingsRecord) => [r.line, r.phase, r.label, r.ms, r.tokens, r.msPerToken, r.tokensPerSecond];

describe('llama.cpp timing lines the parser used to lose', () => {
  it('March 2023 main: `predict time = … ms / … ms per token` and the block around it', () => {
    // examples/main of llama.cpp's first weeks (the gpt-2 example's printf block), as a user pasted
    // it on 14 March 2023 (github.com/ggml-org/llama.cpp issue 134).
    const all = clean('main-2023-03-predict-time.txt');
    expect(ofKind(all, 'timings').map(row)).toEqual([
      [2, 'load', 'load', 1400.1, null, null, null],
      [3, 'sample', 'sample', 21.3, null, null, null],
      // every llama_eval of the run, prompt batches included: phase eval, label `predict` keeps it apart
      [4, 'eval', 'predict', 79072.03, null, 154.74, null],
      [5, 'total', 'total', 88429.08, null, null, null],
    ]);
  });

  it('April–June 2023 llama_print_timings: `( x ms per token)` without tokens per second', () => {
    // As published in github.com/HoiV/llama.cpp __readme__.txt (output of that era's main).
    const all = clean('llama-print-timings-2023-04-no-rate.txt');
    expect(ofKind(all, 'timings').map(row)).toEqual([
      [1, 'load', 'load', 134.84, null, null, null],
      [2, 'sample', 'sample', 12.25, 32, 0.38, null],
      [3, 'prompt', 'prompt eval', 925.78, 24, 38.57, null],
      [4, 'eval', 'eval', 4178.32, 31, 134.78, null],
      [5, 'total', 'total', 5211.06, null, null, null],
    ]);
  });

  it('colours and the bare level letter of the common log (common/log.cpp, late 2024+)', () => {
    // --log-colors: blue timestamp, green `I `; a warning line is magenta to its end. --log-prefix
    // without --log-timestamps prints the level letter alone. The one file here NOT a real capture:
    // written from common/log.cpp with made-up figures, as no published capture was found (see SOURCE).
    const all = clean('common-log-colours-2025.txt');
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.source])).toEqual([
      [1, 'load', 'load', 845.12, null, null, null, 'llama_perf_context_print'],
      [2, 'prompt', 'prompt eval', 112.4, 22, 5.11, 195.73, 'llama_perf_context_print'],
      [3, 'eval', 'eval', 3456.78, 127, 27.22, 36.74, 'llama_perf_context_print'],
    ]);
  });

  it("llama-server's JSON log (2024, --log-format json): print_timings with slot and task, both key spellings", () => {
    // Lines 1–4 a llama-server of May 2024 (github.com/ggml-org/llama.cpp issue 7637): `msg` plus the
    // extra fields, ids id_slot / id_task. Lines 5–6 ollama's runner of April 2024
    // (github.com/ollama/ollama issue 3949): keys sorted, ids slot_id / task_id.
    const all = clean('server-json-log-2024.txt');
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.source, r.slotId, r.taskId])).toEqual([
      [1, 'prompt', 'prompt eval', 2684.39, 27, 99.42, 10.06, 'print_timings', 0, 19],
      [2, 'eval', 'generation eval', 3559.27, 25, 142.37, 7.02, 'print_timings', 0, 19],
      [3, 'total', 'total', 6243.66, null, null, null, 'print_timings', 0, 19],
      [5, 'eval', 'generation eval', 31807.07, 64, 496.99, 2.01, 'print_timings', 0, 850],
      [6, 'total', 'total', 35997.82, null, null, null, 'print_timings', 0, 850],
    ]);
  });

  it("llama-cli's chat summary (tools/cli, December 2025+): `[ Prompt: x t/s | Generation: y t/s ]`", () => {
    // A published llama-cli run (b8110) on an Apple M5: the answer's last line, then the summary.
    const all = clean('llama-cli-chat-summary-2025-12.txt');
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.source])).toEqual([
      [3, 'prompt', 'Prompt', null, null, null, 54.9, 'cli'],
      [3, 'eval', 'Generation', null, null, null, 22.4, 'cli'],
    ]);
  });

  it('slot print_timing progress lines (2026) are read; counts beside the timings are skipped on purpose', () => {
    // Lines of published logs: llama.cpp issue 25320, club-3090 issues 1261 and 1124, llama.cpp pull 17382.
    const all = clean('slot-progress-2026.txt');
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.taskId])).toEqual([
      [1, 'prompt', 'prompt processing', 327870, 17653, null, 53.84, 0],
      [2, 'eval', 'generation progress', null, 109, null, 35.21, 20504],
    ]);
  });

  it('printf under a comma locale: `40380,08 ms` (SYCL build on an Arc A770, de_DE, 2026)', () => {
    // The end of a llama-cli run pasted in a README (XAIGPUARC, German user, Intel Arc A770 SYCL): every float of
    // common_perf_print came with a decimal comma, and each timing line was an 'unreadable timing line'.
    const all = parse(
      'llama-log',
      [
        'common_perf_print:    sampling time =     167,13 ms',
        'common_perf_print:        load time =    6812,74 ms',
        'common_perf_print: prompt eval time =     116,10 ms /     9 tokens (   12,90 ms per token,    77,52 tokens per second)',
        'common_perf_print:        eval time =   40380,08 ms /   511 runs   (   79,02 ms per token,    12,65 tokens per second)',
        'common_perf_print:       total time =   40676,85 ms /   520 tokens',
        'common_perf_print: unaccounted time =      13,54 ms /   0,0 %      (total - sampling - prompt eval - eval) / (total)',
      ].join('\n'),
    );
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'timings').map(row)).toEqual([
      [1, 'sample', 'sampling', 167.13, null, null, null],
      [2, 'load', 'load', 6812.74, null, null, null],
      [3, 'prompt', 'prompt eval', 116.1, 9, 12.9, 77.52],
      [4, 'eval', 'eval', 40380.08, 511, 79.02, 12.65],
      [5, 'total', 'total', 40676.85, 520, null, null],
    ]);
  });

  it("the speculative examples' `encoded … / decoded … tokens in … seconds, speed: … t/s`", () => {
    // llama-speculative with an LFM2-350M draft and an LFM2-1.2B target (notes in Chinese, 2026): these two lines
    // were dropped without a word, and the target's own eval line says `0.00 ms / 1 runs`.
    const all = parse(
      'llama-log',
      [
        'encoded   15 tokens in    0.140 seconds, speed:  107.248 t/s',
        'decoded  202 tokens in    2.533 seconds, speed:   79.745 t/s',
        'common_perf_print:        eval time =       0.00 ms /     1 runs   (    0.00 ms per token,      inf tokens per second)',
      ].join('\n'),
    );
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'timings').map(row)).toEqual([
      [1, 'prompt', 'encoded', 140, 15, null, 107.248],
      [2, 'eval', 'decoded', 2533, 202, null, 79.745],
      [3, 'eval', 'eval', 0, 1, 0, null],
    ]);
  });

  it('a line shaped like a timing that no pattern reads is a diagnostic, not silence', () => {
    const all = parse(
      'llama-log',
      [
        'llama_perf_context_print:      decode time =     512.00 ms /    64 tokens (    8.00 ms per token,   125.00 tokens per second)',
        'slot print_timing: id  0 | task 3 | n_gen =    many, tg =  fast t/s',
        '[ Prompt: 12,5 t/s | Generation: 4,1 t/s ]',
        '{"function":"print_timings","level":"INFO","msg":"prompt eval time = soon"}',
        'The model printed 30 tokens per second, it said.',
      ].join('\n'),
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [1, 'unreadable timing line'],
      [2, 'unreadable timing line'],
      [3, 'unreadable timing line'],
      [4, 'unreadable timing line'],
    ]);
    expect(ofKind(all, 'timings')).toEqual([]);
  });
});
