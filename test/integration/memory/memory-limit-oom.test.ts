// `profile --memory-limit` with the kernel's own OOM killer (cgroup v1 memory controller on this
// VM, as root: docs/DEVELOPING.md "The test machine"). For three demo-engine shapes in growth
// mode, a run killed by the kernel in a memory-limited cgroup, and an identical run stopped at
// about half of the way (demo --tokens): the second run's OOM horizon, projected from the charge
// the kernel acts on (shared/analysis/run-analysis.ts), must name the token of the first run's
// death within 5 %. The killed run reports the kill (an `oom` event, SIGKILL, one stderr line),
// its session holds every sample up to the kill, and the run's cgroup is gone afterwards.
//
// Bytes per token (2 × layers × kv_heads × head_dim × bytes per element; q8_0 = 34 B per 32
// elements, q4_0 = 18 B per 32):
//   16L × 8H × 64  f16:  2 × 16 × 8 × 64 × 2         = 32,768 B/token
//   32L × 8H × 128 q8_0: 2 × 32 × 8 × 128 × 34 / 32  = 69,632 B/token
//   28L × 4H × 128 q4_0: 2 × 28 × 4 × 128 × 18 / 32  = 16,128 B/token
// The limits (200–300 MiB) put the kill a few thousand tokens in, a few seconds at these rates.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { runCli } from '../../helpers/cli';

const V1_MEMORY = '/sys/fs/cgroup/memory/memory.limit_in_bytes';
const MiB = 1024 * 1024;
const INTERVAL_MS = 50;

interface Summary {
  engine: { oomKilled: boolean; exitCode: number | null; signal?: string | null };
  samples: number;
  lostSamples: number;
  events: Array<{ tMs: number; kind: string; message?: string; data?: Record<string, unknown> }>;
  budgetBytes: number | null;
  budgetSource: string | null;
  oomHorizonTokens: number | null;
  throughput: { tokens: number };
  kv: { theoryBytesPerToken: number | null; horizonBasis?: { source: string } | null };
  collectors?: Record<string, { status: string; samples: number }>;
}

const SHAPES = [
  {
    name: '16L×8H×64 f16',
    args: ['--layers', '16', '--kv-heads', '8', '--head-dim', '64', '--kv-type', 'f16'],
    bpt: 32_768,
    limitMiB: 200,
    tps: 1500,
  },
  {
    name: '32L×8H×128 q8_0',
    args: ['--layers', '32', '--kv-heads', '8', '--head-dim', '128', '--kv-type', 'q8_0'],
    bpt: 69_632,
    limitMiB: 300,
    tps: 1000,
  },
  {
    name: '28L×4H×128 q4_0',
    args: ['--layers', '28', '--kv-heads', '4', '--head-dim', '128', '--kv-type', 'q4_0'],
    bpt: 16_128,
    limitMiB: 200,
    tps: 2500,
  },
];

let dir = '';
beforeAll(() => {
  if (!existsSync(V1_MEMORY) || process.getuid?.() !== 0)
    throw new Error(
      'this test needs root and the cgroup v1 memory controller (docs/DEVELOPING.md, "The test machine")',
    );
  dir = mkdtempSync(join(tmpdir(), 'kvscope-memlimit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function profileArgs(shape: (typeof SHAPES)[number], tokens: number, out: string): string[] {
  return [
    'profile',
    'local',
    '--demo',
    '--mode',
    'growth',
    ...shape.args,
    '--tokens',
    String(tokens),
    '--tps',
    String(shape.tps),
    '--weights-mb',
    '8',
    '--interval-ms',
    String(INTERVAL_MS),
    '--memory-limit',
    `${shape.limitMiB}MiB`,
    '--no-pressure',
    '--out',
    out,
    '--json',
  ];
}

/** The cgroup the launcher made, from its `cgroup` event (shown as an info event). */
function cgroupPath(s: Summary): string {
  const info = s.events.find((e) => e.kind === 'info' && e.message?.startsWith('cgroup '));
  const fields = JSON.parse(info?.message?.slice('cgroup '.length) ?? '{}') as { path?: string; version?: string };
  expect(fields.version).toBe('1');
  return fields.path ?? '';
}

const errors: string[] = [];
afterAll(() => {
  // The measured prediction errors, for the record (docs and the lead's report).
  if (errors.length) console.log(`OOM horizon vs real kill:\n${errors.join('\n')}`);
});

describe('--memory-limit: the kernel kills where the horizon said', () => {
  for (const shape of SHAPES) {
    it(`${shape.name} under ${shape.limitMiB} MiB`, { timeout: 120_000 }, async () => {
      const limitBytes = shape.limitMiB * MiB;

      // 1. Killed by the kernel.
      const killedOut = join(dir, `${shape.bpt}-killed.kvscope`);
      const k = await runCli(profileArgs(shape, 1_000_000, killedOut));
      expect(k.code, k.stderr).toBe(1);
      const killed = JSON.parse(k.stdout) as Summary;
      expect(killed.kv.theoryBytesPerToken).toBe(shape.bpt);
      expect(killed.engine.oomKilled).toBe(true);
      expect(killed.engine.signal).toBe('SIGKILL');
      expect(killed.events.find((e) => e.kind === 'exit')?.data?.code).toBe(137);
      const oom = killed.events.find((e) => e.kind === 'oom');
      expect(oom?.message).toMatch(/Memory cgroup out of memory: Killed process \d+|oom_kill [1-9]/);
      expect(killed.budgetSource).toBe('memory-limit');
      expect(killed.budgetBytes).toBe(limitBytes);
      const deathTokens = killed.throughput.tokens;
      expect(deathTokens).toBeGreaterThan(1000);
      // One line on stderr says so.
      const last = k.stderr.trimEnd().split('\n').at(-1) ?? '';
      expect(last).toMatch(
        new RegExp(
          `^kvscope profile: the engine was killed by the kernel's OOM killer after ${deathTokens.toLocaleString('en-US')} tokens`,
        ),
      );
      // The session holds every memory sample the run saw, up to the kill.
      const stored = readSession(killedOut).runs[0];
      const procfs = stored?.samples.filter((s) => s.source === 'procfs') ?? [];
      expect(procfs).toHaveLength(killed.samples);
      expect(killed.lostSamples).toBe(0);
      const exitMs = killed.events.find((e) => e.kind === 'exit')?.tMs ?? 0;
      const lastSampleMs = Math.max(...procfs.filter((s) => s.values.rssBytes !== undefined).map((s) => s.tMs));
      expect(exitMs - lastSampleMs).toBeLessThan(4 * INTERVAL_MS + 100);
      expect(stored?.samples.filter((s) => s.source === 'cgroup')).toHaveLength(
        killed.collectors?.cgroup?.samples ?? -1,
      );
      expect(existsSync(cgroupPath(killed))).toBe(false);

      // 2. The same engine stopped at about half of the way predicts it.
      const halfOut = join(dir, `${shape.bpt}-half.kvscope`);
      const h = await runCli(profileArgs(shape, Math.round(deathTokens / 2), halfOut));
      expect(h.code, h.stderr).toBe(0);
      const half = JSON.parse(h.stdout) as Summary;
      expect(half.engine.oomKilled).toBe(false);
      expect(half.budgetSource).toBe('memory-limit');
      expect(half.kv.horizonBasis?.source).toBe('cgroup');
      const predicted = half.oomHorizonTokens as number;
      const error = predicted / deathTokens - 1;
      errors.push(
        `  ${shape.name} in ${shape.limitMiB} MiB: predicted ${predicted}, killed at ${deathTokens} (${(error * 100).toFixed(2)} %)`,
      );
      expect(Math.abs(error)).toBeLessThan(0.05);
      expect(existsSync(cgroupPath(half))).toBe(false);
    });
  }
});
