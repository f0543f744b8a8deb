// The words of the set-up recommendations: the number each changes, before → after, and the flag
// or command that makes the change, from numbers given here (shared/analysis/recommendations-setup.ts
// computes them; its own test checks those).
import { describe, expect, it } from 'vitest';
import type { Recommendation } from '../../../../shared/analysis/recommendations';
import { wordRecommendation } from '../../../../shared/report/finding-text';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

const cases: Array<
  [string, Recommendation, { before: string; after: string; fix: string | undefined; title: RegExp }]
> = [
  [
    'swa',
    {
      kind: 'swa',
      prevents: null,
      effectFraction: 0.2,
      windowTokens: 1024,
      swaCellsBefore: 4096,
      swaCellsAfter: 1536,
      kvBytesBefore: 384 * MIB,
      kvBytesAfter: 184 * MIB,
      ofBytes: 1000 * MIB,
    },
    { before: '384 MiB', after: '184 MiB', fix: 'drop --swa-full', title: /at their window of 1,024 tokens$/ },
  ],
  [
    'parallel',
    {
      kind: 'parallel',
      prevents: null,
      effectFraction: 0.1875,
      seqs: 4,
      ctxPerSeq: 1024,
      kvBytesBefore: 256 * MIB,
      kvBytesAfter: 64 * MIB,
      ofBytes: GIB,
    },
    { before: '256 MiB', after: '64.0 MiB', fix: '-np 1 -c 1024', title: /instead of 4 parallel/ },
  ],
  [
    'compute-buffer',
    {
      kind: 'compute-buffer',
      prevents: null,
      effectFraction: 0.237,
      source: 'log',
      buffers: ['CPU'],
      ubatch: 512,
      suggestedUbatch: 128,
      bytesBefore: 316 * MIB,
      bytesAfter: 79 * MIB,
      ofBytes: 1000 * MIB,
    },
    { before: '316 MiB', after: '79.0 MiB', fix: '-ub 128 -b 128', title: /from 512 to 128 tokens/ },
  ],
  [
    'thp',
    {
      kind: 'thp',
      prevents: null,
      effectFraction: 1 / 256,
      enabled: 'always',
      hugePageBytes: 2 * MIB,
      pageBytes: 4096,
      ofBytes: 512 * MIB,
    },
    {
      before: '2.00 MiB',
      after: '4.00 KiB',
      fix: 'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled',
      title: /madvise/,
    },
  ],
  [
    'swap-setup',
    { kind: 'swap-setup', prevents: null, effectFraction: 0.5, memTotalBytes: 4 * GIB, zramBytes: 2 * GIB },
    {
      before: '0 B',
      after: '2.00 GiB zram',
      fix: 'zram-tools or systemd-zram-generator (zram-size = min(ram / 2, 4096))',
      title: /zram/,
    },
  ],
  [
    'governor',
    {
      kind: 'governor',
      prevents: null,
      effectFraction: 0.5,
      governors: ['ondemand'],
      meanClockShare: 2 / 3,
      decodeTokensPerSecond: 10,
    },
    {
      before: '10.0 tok/s',
      after: '15.0 tok/s',
      fix: 'cpupower frequency-set -g performance (for the benchmark; restore afterwards)',
      title: /performance CPU governor/,
    },
  ],
];

describe('set-up recommendations in words', () => {
  it.each(cases)('%s: the number it changes and the fix', (_kind, rec, want) => {
    const text = wordRecommendation(rec, 'llama');
    expect(text.title).toMatch(want.title);
    expect([text.change.before, text.change.after]).toEqual([want.before, want.after]);
    expect(text.fix).toBe(want.fix);
    // Counts are words, never "N tokens cells".
    expect(text.evidence).not.toMatch(/tokens(?:-token| cells)/);
    expect(text.title).not.toMatch(/tokens-token/);
  });

  it('the window and the parallel sequences in cells', () => {
    expect(wordRecommendation(cases[0]![1], 'llama').evidence).toMatch(
      /^The engine's sliding-window cache held 4,096 cells; windowed it needs 1,536 /,
    );
    expect(wordRecommendation(cases[1]![1], 'llama').evidence).toMatch(/^The cache holds 4 sequences × 1,024 cells /);
  });

  it('a compute-buffer estimate says it is one', () => {
    const [, rec] = cases[2]!;
    if (rec.kind !== 'compute-buffer') throw new Error('case order');
    const text = wordRecommendation({ ...rec, source: 'estimate', buffers: ['logits', 'attention scores'] }, 'llama');
    expect(text.change.label).toBe('Compute buffers (estimated)');
    expect(text.evidence).toMatch(/^The engine did not log its compute buffers: estimated/);
  });
});

describe('the KV type recommendation in words', () => {
  const rec: Recommendation = {
    kind: 'kv-type',
    prevents: null,
    effectFraction: 32768 / 17408 - 1,
    fromType: 'f16',
    toType: 'q8_0',
    bytesPerTokenBefore: 32768,
    bytesPerTokenAfter: 17408,
    maxContextBefore: 1000,
    maxContextAfter: 1882,
    budgetBytes: 64 * 1024 * 1024,
    alternative: { toType: 'q4_0', bytesPerToken: 9216, maxContext: 3555 },
  };

  it('gives the contexts the budget holds in each type', () => {
    const text = wordRecommendation(rec, 'llama');
    expect(text.change).toEqual({
      label: 'Max context at the 64.0 MiB budget',
      before: '1,000 tokens',
      after: '1,882 tokens',
    });
    expect(text.evidence).toMatch(/q4_0 would cost 9\.00 KiB\/token \(max context 3,555 tokens\)/);
  });

  it('gives the cost per token when the budget holds no context in any type (not "0 → 0")', () => {
    const none = {
      ...rec,
      maxContextBefore: 0,
      maxContextAfter: 0,
      alternative: { ...rec.alternative!, maxContext: 0 },
    };
    const text = wordRecommendation(none, 'llama');
    expect(text.change).toEqual({ label: 'KV cache per token', before: '32.0 KiB', after: '17.0 KiB' });
    expect(text.evidence).toMatch(/q4_0 would cost 9\.00 KiB\/token, with a larger quality cost\.$/);
  });
});
