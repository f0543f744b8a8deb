import { describe, expect, it } from 'vitest';
import { benchTestName, createLlamaBenchParser, splitCsvLine } from '../../../../shared/parsers/llama-bench-parser';
import type { BenchRecord } from '../../../../shared/parsers/records';
import { diagnostics, GiB, MiB, ofKind, parse, parseFixture } from '../../../helpers/parser-test-kit';
import { expectSurvivesNoise } from '../../../helpers/parser-noise';
import { PROTOTYPE_KEYS } from '../../../helpers/prototype-keys';

const row = (r: BenchRecord) => [
  r.line,
  r.format,
  r.model,
  r.test,
  r.tokensPerSecond,
  r.stddev,
  r.backend,
  r.threads,
  r.nGpuLayers,
];

describe('llama-bench: real captures', () => {
  it('markdown from a Jetson Nano, an AGX Orin (fa column), a Pi 5 (model wider than its column) and a Radxa Dragon', () => {
    const all = parseFixture(
      'llama-bench',
      'llama-bench/markdown-jetson-nano-agx-orin-pi5/05_llama_bench_markdown_jetson_nano_agx_orin_arm_cpu.txt',
    );
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'bench');
    expect(rs.map(row)).toEqual([
      [12, 'markdown', 'gemma3 1B Q4_K - Medium', 'pp512', 116.49, 0.07, 'CUDA', null, 99],
      [13, 'markdown', 'gemma3 1B Q4_K - Medium', 'tg128', 5.93, 0.01, 'CUDA', null, 99],
      [20, 'markdown', 'gemma3 1B Q4_K - Medium', 'pp512', 115.75, 0.08, 'CUDA', null, 27],
      [21, 'markdown', 'gemma3 1B Q4_K - Medium', 'tg128', 5.84, 0.01, 'CUDA', null, 27],
      [36, 'markdown', 'qwen2 32B Q4_K - Medium', 'pp512', 128.64, 0.03, 'CUDA', null, 99],
      [37, 'markdown', 'qwen2 32B Q4_K - Medium', 'tg128', 5.37, 0.01, 'CUDA', null, 99],
      [49, 'markdown', 'qwen3moe 30B.A3B all F32 (guessed)', 'pp512', 10.91, 0.01, 'CPU', 4, null],
      [50, 'markdown', 'qwen3moe 30B.A3B all F32 (guessed)', 'pp4096', 8.62, 0.0, 'CPU', 4, null],
      [51, 'markdown', 'qwen3moe 30B.A3B all F32 (guessed)', 'tg128', 7.99, 0.03, 'CPU', 4, null],
      [58, 'markdown', 'llama 1B Q4_K - Medium', 'pp512', 194.49, 0.74, 'CPU', 8, null],
      [59, 'markdown', 'llama 1B Q4_K - Medium', 'pp4096', 132.65, 0.14, 'CPU', 8, null],
      [60, 'markdown', 'llama 1B Q4_K - Medium', 'tg128', 38.81, 0.4, 'CPU', 8, null],
      [61, 'markdown', 'llama 1B Q4_K - Medium', 'pp4096+tg128', 116.17, 0.01, 'CPU', 8, null],
    ]);
    expect([rs[0]?.sizeBytes, rs[0]?.paramsCount, rs[0]?.nPrompt, rs[0]?.nGen]).toEqual([
      Math.round(762.49 * MiB),
      999_890_000,
      512,
      0,
    ]);
    expect([rs[4]?.sizeBytes, rs[4]?.paramsCount, rs[4]?.flashAttn]).toEqual([
      Math.round(18.48 * GiB),
      32_760_000_000,
      '1',
    ]);
    expect([rs[12]?.nPrompt, rs[12]?.nGen, rs[12]?.sizeBytes, rs[12]?.paramsCount]).toEqual([
      4096,
      128,
      Math.round(636.18 * MiB),
      1_100_000_000,
    ]);
    expect(ofKind(all, 'bench-build')).toEqual([
      { kind: 'bench-build', line: 15, commit: 'c262bedd', number: 5043 },
      { kind: 'bench-build', line: 23, commit: '193c3e03', number: 5038 },
      { kind: 'bench-build', line: 39, commit: '55ac8c77', number: 4675 },
      { kind: 'bench-build', line: 46, commit: 'ccbc84a53', number: 7651 },
    ]);
  });

  it("a Jetson TX2's 2023 markdown: tests named `pp 512` and `tg 128` read as pp512 and tg128 with their lengths", () => {
    const all = parseFixture(
      'llama-bench',
      'llama-bench/markdown-jetson-tx2-2023-pp-space/llama-bench-tx2-cuda-pr4560.txt',
    );
    const rs = ofKind(all, 'bench');
    expect(
      rs.map((r) => [r.line, r.test, r.nPrompt, r.nGen, r.nDepth, r.tokensPerSecond, r.stddev, r.nGpuLayers]),
    ).toEqual([
      [8, 'pp512', 512, 0, 0, 2.97, 0.05, 10],
      [9, 'tg128', 0, 128, 0, 0.65, 0.0, 10],
      [10, 'pp512', 512, 0, 0, 3.49, 0.03, 20],
      [11, 'tg128', 0, 128, 0, 0.83, 0.0, 20],
      [12, 'pp512', 512, 0, 0, 4.38, 0.04, 30],
      [13, 'tg128', 0, 128, 0, 1.14, 0.0, 30],
    ]);
    expect([rs[0]?.model, rs[0]?.backend, rs[0]?.sizeBytes, rs[0]?.paramsCount]).toEqual([
      'llama 7B Q4_K - Medium',
      'CUDA',
      Math.round(4.43 * GiB),
      7_720_000_000,
    ]);
  });

  it('csv of b7772 (Orin, every value quoted, new columns) and of b5163, json array, jsonl — columns read by name', () => {
    const all = parseFixture('llama-bench', 'llama-bench/csv-json-jsonl-b5163-b7772/06_llama_bench_csv_json_jsonl.txt');
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'bench');
    expect(rs.map(row)).toEqual([
      [10, 'csv', 'llama 8B F16', 'pp512', 177.866833, 0.018056, 'CUDA', 4, 99],
      [11, 'csv', 'llama 8B F16', 'tg128', 3.40085, 0.000393, 'CUDA', 4, 99],
      [21, 'csv', 'qwen2 7B Q4_K - Medium', 'pp512', 7285.676949, 100.064434, 'CUDA', 8, 99],
      [22, 'csv', 'qwen2 7B Q4_K - Medium', 'tg128', 119.915244, 0.430617, 'CUDA', 8, 99],
      [25, 'json', 'qwen2 7B Q4_K - Medium', 'pp512', 7100.002165, 140.34152, 'CUDA', 8, 99],
      [62, 'json', 'qwen2 7B Q4_K - Medium', 'tg128', 118.881588, 1.041811, 'CUDA', 8, 99],
      [101, 'jsonl', 'qwen2 7B Q4_K - Medium', 'pp512', 7263.609157, 90.940578, 'CUDA', 8, 99],
      [102, 'jsonl', 'qwen2 7B Q4_K - Medium', 'tg128', 119.844681, 0.699739, 'CUDA', 8, 99],
    ]);
    const orin = rs[0];
    expect([
      orin?.modelFilename,
      orin?.sizeBytes,
      orin?.paramsCount,
      orin?.typeK,
      orin?.typeV,
      orin?.flashAttn,
      orin?.nBatch,
      orin?.nUbatch,
      orin?.buildCommit,
      orin?.buildNumber,
    ]).toEqual([
      '/models/meta-llama-3.1-8b-instruct.f16.gguf',
      16061055232,
      8030261312,
      'f16',
      'f16',
      '1',
      2048,
      512,
      '287a33017',
      7772,
    ]);
    expect(orin?.extra).toMatchObject({
      gpu_info: 'Orin',
      n_cpu_moe: '0',
      devices: 'auto',
      use_direct_io: '0',
      test_time: '2026-04-15T23:13:05Z',
    });
    expect('n_cpu_moe' in (rs[2]?.extra ?? {})).toBe(false);
    expect([rs[4]?.flashAttn, rs[4]?.extra.use_mmap, rs[4]?.extra.samples_ts]).toEqual([
      'false',
      true,
      [6863.1, 7147.55, 7136.37, 7115.79, 7237.21],
    ]);
    expect(rs[7]?.extra.samples_ns).toEqual([1066331700, 1064864900, 1079042600, 1063328400, 1066824400]);
  });
});

describe('llama-bench: output written from tools/llama-bench (printers and README)', () => {
  it('markdown with depth tests and KV-type columns; a new table header replaces the old one', () => {
    const all = parseFixture('llama-bench', 'llama-bench/printers-and-readme/markdown_depth_kv_types.txt');
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'bench');
    expect(
      rs.map((r) => [
        r.line,
        r.test,
        r.nPrompt,
        r.nGen,
        r.nDepth,
        r.typeK,
        r.typeV,
        r.flashAttn,
        r.threads,
        r.tokensPerSecond,
        r.stddev,
        r.sizeBytes,
        r.paramsCount,
      ]),
    ).toEqual([
      [3, 'pp512 @ d4096', 512, 0, 4096, 'q8_0', 'q8_0', '1', 4, 55.1, 0.5, Math.round(1.22 * GiB), 1_240_000_000],
      [4, 'tg128 @ d4096', 0, 128, 4096, 'q8_0', 'q8_0', '1', 4, 9.8, 0.02, Math.round(1.22 * GiB), 1_240_000_000],
      // 2023 table: the test name had a space (read as today's name) and t/s had no deviation.
      [9, 'tg128', 0, 128, 0, null, null, null, null, 11.77, null, null, null],
    ]);
    expect(rs[2]?.nGpuLayers).toBe(99);
    expect(ofKind(all, 'bench-build')).toEqual([{ kind: 'bench-build', line: 6, commit: '1a2b3c4d', number: 6000 }]);
  });

  it('names tests as llama-bench does', () => {
    expect(benchTestName(512, 0, 0)).toBe('pp512');
    expect(benchTestName(0, 128, 0)).toBe('tg128');
    expect(benchTestName(4096, 128, 0)).toBe('pp4096+tg128');
    expect(benchTestName(0, 128, 8192)).toBe('tg128 @ d8192');
    expect(benchTestName(0, 0, 0)).toBeNull();
    expect(splitCsvLine('"a","b ""c""",,"d,e"')).toEqual(['a', 'b "c"', '', 'd,e']);
    expect(splitCsvLine('"open')).toBeNull();
  });

  it('an unquoted line with commas after a CSV table is prose that ends the table, not a broken row', () => {
    const text = [
      'build_commit,build_number,model_type,n_prompt,n_gen,avg_ts,stddev_ts',
      '"abc","1","m","0","64","10.5","0.1"',
      'Device 0: Orin, compute capability 8.7, VMM: yes',
      '"abc","1","m","0","64","10.5","0.1"',
    ].join('\n');
    const all = parse('llama-bench', text);
    expect(ofKind(all, 'bench').map((r) => [r.line, r.test, r.tokensPerSecond])).toEqual([[2, 'tg64', 10.5]]);
    expect(diagnostics(all)).toEqual([]);
  });
});

describe('llama-bench: stdout and stderr in one capture', () => {
  it("a backend's stderr lines between the header and a row do not end the table (test/fixtures/llama-bench/stderr-between-rows-iqk-b10107/SOURCE)", () => {
    const all = parseFixture('llama-bench', 'llama-bench/stderr-between-rows-iqk-b10107/llama-bench-iqk-cpu.txt');
    expect(diagnostics(all)).toEqual([]);
    expect(
      ofKind(all, 'bench').map((r) => [r.line, r.model, r.test, r.tokensPerSecond, r.stddev, r.backend, r.threads]),
    ).toEqual([[14, 'gemma4 26B.A4B Q4_K - Medium', 'tg128', 27.52, 0.05, 'CPU', 96]]);
    // Prose still ends a table: a row after it has no header.
    const prose = parse(
      'llama-bench',
      [
        '| model | size | params | backend | threads | test | t/s |',
        '| --- | ---: | ---: | --- | ---: | ---: | ---: |',
        'The next table is another machine:',
        '| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CPU | 4 | tg128 | 5.01 ± 0.02 |',
      ].join('\n'),
    );
    expect(diagnostics(prose).map((d) => d.reason)).toEqual(['table row without a llama-bench header']);
  });

  it('--progress lines between the rows do not end the table; a model that failed to load is a diagnostic', () => {
    // An MI50 (ROCm) capture of build 7775: three models failed to load, the others ran with --progress.
    const all = parseFixture('llama-bench', 'llama-bench/progress-rocm-mi50-b7775/llama-bench-progress-2to1.txt');
    const rows = ofKind(all, 'bench').map((r) => [
      r.line,
      r.model,
      r.test,
      r.tokensPerSecond,
      r.nPrompt,
      r.nGen,
      r.nDepth,
    ]);
    expect(rows).toEqual([
      [20, 'qwen3vlmoe 30B.A3B Q4_1', 'pp2048', 1758.66, 2048, 0, 0],
      [24, 'qwen3vlmoe 30B.A3B Q4_1', 'tg128', 125.52, 0, 128, 0],
      [34, 'qwen3vlmoe 30B.A3B Q4_1', 'pp512', 1504.58, 512, 0, 0],
      [38, 'qwen3vlmoe 30B.A3B Q4_1', 'tg128', 124.43, 0, 128, 0],
      [55, 'kimi-linear 48B.A3B MXFP4 MoE', 'pp512 @ d8192', 155.96, 512, 0, 8192],
      [60, 'kimi-linear 48B.A3B MXFP4 MoE', 'tg128 @ d8192', 45.13, 0, 128, 8192],
    ]);
    // The three `main: error: failed to load model` lines say why those tables are empty.
    expect(diagnostics(all).map((d) => `${d.line}: ${d.reason}`)).toEqual([
      '4: engine error',
      '10: engine error',
      '44: engine error',
    ]);
    expect(ofKind(all, 'bench-build').map((b) => [b.line, b.number])).toEqual([
      [26, 7775],
      [40, 7775],
      [62, 7775],
    ]);
  });
});

const BENCH_KINDS = ['bench', 'bench-build', 'diagnostic'];

describe('llama-bench: robustness', () => {
  it('a number too large for a double in a jsonl line (found by the fuzz) is kept as its text, not Infinity', () => {
    // The jsonl line of b5163 (test/fixtures/llama-bench/csv-json-jsonl-b5163-b7772), its samples_ns damaged.
    const line =
      '{"model_type": "qwen2 7B Q4_K - Medium", "n_prompt": 512, "n_gen": 0, "avg_ns": 1e309, "avg_ts": 7263.609157, "samples_ns": [ 71551000, 7e222800 ]}';
    const [r] = ofKind(parse('llama-bench', line), 'bench');
    expect(r?.extra).toMatchObject({ avg_ns: 'Infinity', samples_ns: [71551000, 'Infinity'] });
    expect(r?.tokensPerSecond).toBe(7263.609157);
  });

  it('never throws on table/CSV/JSON-shaped noise', () => {
    expectSurvivesNoise(createLlamaBenchParser, 'llama-bench', { perLine: 10, lines: 15, runs: 500 }, BENCH_KINDS);
  });
});

describe('llama-bench: columns named like Object.prototype members (shared/util/dictionary.ts)', () => {
  it.each(PROTOTYPE_KEYS)('a %s column is kept in extra (JSONL, CSV), its value as data', (key) => {
    // JSON.parse makes "__proto__" an own key; put into a plain {} it set extra's prototype.
    const jsonl = `{"model_type":"x","n_prompt":512,"n_gen":0,"avg_ts":10,${JSON.stringify(key)}:{"a":1}}`;
    const csv = `model_type,n_prompt,n_gen,avg_ts,${key}\n"x","512","0","10","v"\n`;
    const rows = [...ofKind(parse('llama-bench', jsonl), 'bench'), ...ofKind(parse('llama-bench', csv), 'bench')];
    expect(rows.map((r) => [r.format, r.tokensPerSecond, Object.entries(r.extra)])).toEqual([
      ['jsonl', 10, [[key, { a: 1 }]]],
      ['csv', 10, [[key, 'v']]],
    ]);
  });
});
