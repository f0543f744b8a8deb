// `kvscope profile --sweep` with the real llama.cpp engine: llama.cpp allocates and zero-fills
// the whole KV cache when it creates the context, so RSS follows -c, not the tokens generated
// (../shared/models/README.md). One run per context size measures the KV curve.
//
// Expected values, by hand:
// - theory: 2 × 5 layers × 4 KV heads × 8 head_dim × 2 B (f16) = 640 B per context cell;
// - what llama.cpp itself logs for each size (`llama_kv_cache: size = …`): cells × 640 B —
//   4096 → 2,621,440 B ("2.50 MiB"), 16384 → 10,485,760 ("10.00 MiB"), 32768 → 20,971,520,
//   65536 → 41,943,040 ("40.00 MiB"), 131072 → 83,886,080 ("80.00 MiB"); 512 → 327,680 B printed as
//   "0.31 MiB" (two decimals);
// - the measured RSS slope includes llama.cpp's per-cell bookkeeping next to the K/V rows
//   (src/llama-kv-cells.h: pos int32 4 B + ext {x, y, tok int32, bool} 16 B + shift int32 4 B +
//   seq std::bitset<256> 32 B = 56 B), so the memory a context token really costs is
//   640 + 56 = 696 B, 8.75 % above the K/V theory: inside the 15 % the issue asks for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionLibrary } from '../../../electron/node/session/session-library';
import { readSession } from '../../../electron/node/session/session-store';
import { profileArgs, runCli, runCliJson } from '../../helpers/cli';
import { assertLlamaEngineInstalled, llamaCliCommand, modelPath } from '../../helpers/llama-engine';
import { useTrustedSshd } from '../../helpers/ssh-suite';
import { defined } from '../../helpers/defined';

// Seven sizes up to 131,072, not five up to 65,536. The fit is a Theil-Sen median weighted by the
// distance between sizes, and a run's heap now and then holds ~4 MiB more than another's at the
// same context, all along its plateau (seen at 512, 16,384 and 49,152 on a loaded 2-core VM).
// Up to 65,536 that offset is 64 B a cell, 10 % of the theory, on top of the 8.75 % of
// bookkeeping: one CI run measured 753 B a cell over five sizes, and a run beside other load
// 757 B over seven. Up to 131,072 it is half that, and seven points share the weight: in a
// simulation of the measured spread (0.3 MiB, a 4.2 MiB offset in one run of six) the chance of a
// slope outside 15 % is 0.5 %, against 11 % with the five sizes up to 65,536.
const SIZES = [512, 4096, 16384, 32768, 65536, 98304, 131072];
const MIB = 1024 * 1024;

interface Point {
  ctx: number;
  cells: number | null;
  ok: boolean;
  oomKilled: boolean;
  exitCode: number | null;
  engineKvBytes: number | null;
  peakRssBytes: number | null;
  peakAnonRssBytes: number | null;
  theoryReservedBytes: number | null;
}

describe('context sweep of a real llama.cpp engine on the loopback SSH target', () => {
  const ssh = useTrustedSshd({ before: assertLlamaEngineInstalled });
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-sweep-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('512 … 131,072 (7 sizes): measured bytes/token within 15 % of the 640 B theory, mode reserved, engine log = theory', async () => {
    const s = await runCliJson([
      'profile',
      ...ssh.cliTarget(),
      // 400 tokens (≈ 0.4–1.5 s of decode): a few dozen 20 ms samples land while the context
      // exists, so each run's peak is its steady level rather than a one-sample transient
      // (with 64 tokens, 1–3 samples, the slope ranged 657–742 B over nine sweeps on a busy
      // 2-core VM; with 400 tokens 662–713 B over ten).
      '--engine',
      llamaCliCommand({ tokens: 400, quietNode: true }),
      // The SSH login lands in the user's home: the model path on the "board" is absolute.
      '--gguf',
      modelPath,
      '--sweep',
      SIZES.join(','),
      '--budget',
      '256MiB',
      '--interval-ms',
      '20',
      '--out',
      join(dir, 'sweep.kvscope'),
      '--json',
    ]);
    expect(s.target.kind).toBe('ssh');
    const sweep = s.sweep;
    const points = sweep.points as Point[];
    expect(points.map((p) => p.ctx)).toEqual(SIZES);
    for (const p of points) {
      expect(p.ok).toBe(true);
      expect(p.exitCode).toBe(0);
      // All sizes are multiples of llama.cpp's 256-cell padding: cells = ctx.
      expect(p.cells).toBe(p.ctx);
      expect(p.theoryReservedBytes).toBe(p.ctx * 640);
      // llama.cpp prints MiB with two decimals.
      expect(Math.abs((p.engineKvBytes as number) - p.ctx * 640)).toBeLessThanOrEqual(0.01 * MIB);
    }
    expect(points.find((p) => p.ctx === 65536)?.engineKvBytes).toBe(41943040);
    expect(points.find((p) => p.ctx === 131072)?.engineKvBytes).toBe(83886080);
    expect(points.find((p) => p.ctx === 4096)?.engineKvBytes).toBe(2621440);

    expect(sweep.theoryBytesPerToken).toBe(640);
    expect(sweep.mode).toBe('reserved');
    expect(sweep.rssMetric).toBe('peakAnonRssBytes');
    expect(Math.abs(sweep.measuredBytesPerToken / 640 - 1)).toBeLessThan(0.15);
    expect(Math.abs(sweep.overheadFactor - 1)).toBeLessThan(0.15);
    // The engine's own KV lines draw the theory's line exactly (the 512 point's rounding aside).
    expect(Math.abs(sweep.engineReportedBytesPerToken / 640 - 1)).toBeLessThan(0.01);
    // RSS really follows the context: 128K cells hold ≈ 80 MiB more than 512 cells (130,560 × 640 B = 79.7 MiB).
    const a512 = defined(points[0], 'the 512 point').peakAnonRssBytes as number;
    const a128k = defined(points.at(-1), 'the 128K point').peakAnonRssBytes as number;
    expect(a128k - a512).toBeGreaterThan(0.85 * 130560 * 640);

    // The largest context within 256 MiB, from the fit of peak RSS: a multiple of llama.cpp's
    // 256-cell padding, beyond the 131,072 that ran (peak RSS there is far below 256 MiB), and
    // below what the budget would hold with no baseline at all (256 MiB ÷ 640 B = 419,430).
    expect(sweep.maxContextForBudget % 256).toBe(0);
    expect(defined(points.at(-1), 'the 128K point').peakRssBytes as number).toBeLessThan(256 * MIB);
    expect(sweep.maxContextForBudget).toBeGreaterThan(131072);
    expect(sweep.maxContextForBudget).toBeLessThan(419430);

    // The Sessions list shows the sweep's number as its max safe context, the one its table shows,
    // not the last run's own estimate (one run of an engine that reserves its context cannot
    // measure what a context cell costs: that estimate differs, checked here so this can fail).
    const [row] = new SessionLibrary(dir).list();
    expect(row?.runs).toBe(SIZES.length);
    expect(row?.headline?.maxSafeContextTokens).toBe(sweep.maxContextForBudget);
    const lastRun = defined(readSession(join(dir, 'sweep.kvscope')).runs.at(-1), 'the last run');
    expect(lastRun.analysis.maxSafeContextTokens).not.toBe(sweep.maxContextForBudget);

    // The rest of the summary contract describes the last run (131,072).
    expect(s.engine.exitCode).toBe(0);
    expect(s.engineReported.kvBytes).toBe(83886080);
    expect(s.kv.theoryBytesPerToken).toBe(640);
    expect(typeof s.samples).toBe('number');
    expect(Array.isArray(s.events)).toBe(true);
  }, 120_000); // seven engine runs: ~35 s on a loaded CI machine

  it('--sweep without {ctx} in the engine command is refused with a one-line reason', async () => {
    const r = await runCli(
      profileArgs('local', llamaCliCommand({ tokens: 8, ctx: 512 }), '--sweep', '512,1024', '--json'),
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--sweep needs \{ctx\}/);
  });
});
