// Timing lines of every llama.cpp era the audit of December 2026 found unread (before it they gave
// nothing, or a diagnostic for a line that was fine). Each line is written as that version printed
// it (format string and era in the comment; values made up unless a source is named).
import { describe, expect, it } from 'vitest';
import type { TimingsRecord } from '../../../../shared/parsers/records';
import { diagnostics, ofKind, parse, parseClean } from '../../../helpers/parser-test-kit';

const row = (r: TimingsRecord) => [r.line, r.phase, r.label, r.ms, r.tokens, r.msPerToken, r.tokensPerSecond];

describe('llama.cpp timing lines the parser used to lose', () => {
  it('March 2023 main: `predict time = … ms / … ms per token` and the block around it', () => {
    // examples/main of llama.cpp's first weeks (the gpt-2 example's printf block, `%s:  predict time = %8.2f ms / %.2f ms per token`).
    const all = parseClean('llama-log', [
      'main: mem per token = 14434244 bytes',
      'main:     load time =  4123.45 ms',
      'main:   sample time =    38.02 ms',
      'main:  predict time = 61234.56 ms / 445.00 ms per token',
      'main:    total time = 66543.21 ms',
    ]);
    expect(ofKind(all, 'timings').map(row)).toEqual([
      [2, 'load', 'load', 4123.45, null, null, null],
      [3, 'sample', 'sample', 38.02, null, null, null],
      // every llama_eval of the run, prompt batches included: phase eval, label `predict` keeps it apart
      [4, 'eval', 'predict', 61234.56, null, 445, null],
      [5, 'total', 'total', 66543.21, null, null, null],
    ]);
  });

  it('April–June 2023 llama_print_timings: `( x ms per token)` without tokens per second', () => {
    // As published in github.com/HoiV/llama.cpp __readme__.txt (output of that era's main).
    const all = parseClean('llama-log', [
      'llama_print_timings:        load time =   134.84 ms',
      'llama_print_timings:      sample time =    12.25 ms /    32 runs   (    0.38 ms per token)',
      'llama_print_timings: prompt eval time =   925.78 ms /    24 tokens (   38.57 ms per token)',
      'llama_print_timings:        eval time =  4178.32 ms /    31 runs   (  134.78 ms per token)',
      'llama_print_timings:       total time =  5211.06 ms',
    ]);
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
    // without --log-timestamps prints the level letter alone.
    const all = parseClean('llama-log', [
      '\u001b[34m0.01.532.101\u001b[0m \u001b[32mI \u001b[0mllama_perf_context_print:        load time =     845.12 ms',
      '\u001b[35mW llama_perf_context_print: prompt eval time =     112.40 ms /    22 tokens (    5.11 ms per token,   195.73 tokens per second)\u001b[0m',
      'I llama_perf_context_print:        eval time =    3456.78 ms /   127 runs   (   27.22 ms per token,    36.74 tokens per second)',
    ]);
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.source])).toEqual([
      [1, 'load', 'load', 845.12, null, null, null, 'llama_perf_context_print'],
      [2, 'prompt', 'prompt eval', 112.4, 22, 5.11, 195.73, 'llama_perf_context_print'],
      [3, 'eval', 'eval', 3456.78, 127, 27.22, 36.74, 'llama_perf_context_print'],
    ]);
  });

  it("llama-server's JSON log (2024, --log-format json): print_timings with slot and task, both key spellings", () => {
    // server/utils.hpp server_log of spring 2024: `msg` plus the extra fields; ollama's runner of the
    // same months printed the keys sorted and named the ids slot_id / task_id.
    const all = parseClean('llama-log', [
      '{"tid":"140274856615936","timestamp":1715000000,"level":"INFO","function":"print_timings","line":327,"msg":"prompt eval time     =      65.84 ms /    14 tokens (    4.70 ms per token,   212.64 tokens per second)","id_slot":0,"id_task":5,"t_prompt_processing":65.84,"n_prompt_tokens_processed":14,"t_token":4.702857142857143,"n_tokens_second":212.63669501822615}',
      '{"function":"print_timings","level":"INFO","line":276,"msg":"generation eval time =    1220.10 ms /    61 runs   (   20.00 ms per token,    49.99 tokens per second)","n_decoded":61,"n_tokens_second":49.99590197524793,"slot_id":1,"t_token":20.001639344262295,"t_token_generation":1220.1,"task_id":7,"tid":"139950537363456","timestamp":1712345678}',
      '{"tid":"140274856615936","timestamp":1715000000,"level":"INFO","function":"update_slots","line":1640,"msg":"all slots are idle"}',
    ]);
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.source, r.slotId, r.taskId])).toEqual([
      [1, 'prompt', 'prompt eval', 65.84, 14, 4.7, 212.64, 'print_timings', 0, 5],
      [2, 'eval', 'generation eval', 1220.1, 61, 20, 49.99, 'print_timings', 1, 7],
    ]);
  });

  it("llama-cli's chat summary (tools/cli, December 2025+): `[ Prompt: x t/s | Generation: y t/s ]`", () => {
    // The figures of a published run on an Apple M5 (`[ Prompt: 54.9 t/s | Generation: 22.4 t/s ]`).
    const all = parseClean('llama-log', [
      'The meaning of life is yours to shape.',
      '',
      '[ Prompt: 54.9 t/s | Generation: 22.4 t/s ]',
    ]);
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.source])).toEqual([
      [3, 'prompt', 'Prompt', null, null, null, 54.9, 'cli'],
      [3, 'eval', 'Generation', null, null, null, 22.4, 'cli'],
    ]);
  });

  it('slot print_timing progress lines (2026) are read; counts beside the timings are skipped on purpose', () => {
    const all = parseClean('llama-log', [
      '8.23.550.569 I slot print_timing: id  0 | task 0 | prompt processing, n_tokens =  17653, progress = 0.69, t = 327.87 s / 53.84 tokens per second',
      '85.56.563.388 I slot print_timing: id  0 | task 20504 | n_gen =    109, tg =  35.21 t/s, tg_3s =  35.53 t/s',
      '3.08.343.045 I slot print_timing: id  0 | task 42 |    graphs reused =          0',
      '3.08.343.048 I slot print_timing: id  0 | task 42 | draft acceptance = 0.69565 (   64 accepted /    92 generated), mean len =  3.06',
      'common_perf_print: unaccounted time =      41.66 ms /   1.2 %      (total - sampling - prompt eval - eval) / (total)',
    ]);
    expect(ofKind(all, 'timings').map((r) => [...row(r), r.taskId])).toEqual([
      [1, 'prompt', 'prompt processing', 327870, 17653, null, 53.84, 0],
      [2, 'eval', 'generation progress', null, 109, null, 35.21, 20504],
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
