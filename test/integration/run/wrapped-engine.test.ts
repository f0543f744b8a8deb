// The engine is the process group the run started, whatever starts it (issue 10, item 1): the
// demo engine run bare, then through `sh -c`, `bash script.sh`, `env`, `nohup`, `timeout` and
// `taskset`, each profiled by the real CLI (launcher, sampler, spool, analysis). Every run must
// sample at every interval to the end and measure the same decode slope as the bare run.
//
// Expected values, by hand: 16 layers × 8 KV heads × head_dim 64, f16 K and V:
// 2 × 16 × 8 × 64 × 2 B = 32,768 B per token of cache the engine touches as it decodes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoOptionsSchema } from '../../../shared/api/schemas';
import { shellJoin, shellQuote } from '../../../shared/util/shell';
import { demoEngineConfig } from '../../../electron/node/demo-engine/demo-config';
import { demoEngineBundle } from '../../../electron/node/demo-engine/demo-engine-bundle';
import { runCli } from '../../helpers/cli';

const BYTES_PER_TOKEN = 32768;
const TOKENS = 3000;
const TPS = 750;
const INTERVAL_MS = 50;

let dir: string;
let engine: string;

interface Summary {
  throughput: { tokens: number };
  kv: { decodeSlopeBytesPerToken: number | null; measuredBytesPerToken: number | null; mode: string };
  samples: number;
  lostSamples: number;
  engine: { exitCode: number | null };
  events: Array<{ kind: string; message: string; data?: { pid?: number } }>;
}

async function profile(command: string): Promise<Summary> {
  const r = await runCli(['profile', 'local', '--engine', command, '--interval-ms', String(INTERVAL_MS), '--json']);
  if (r.code !== 0) throw new Error(`kvscope profile failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Summary;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kvscope-wrapped-'));
  const file = join(dir, 'demo-engine.cjs');
  writeFileSync(file, await demoEngineBundle(), { mode: 0o700 });
  const config = demoEngineConfig(
    DemoOptionsSchema.parse({ tokens: TOKENS, tps: TPS, mode: 'growth', block: 16, weightsMb: 8 }),
  );
  engine = shellJoin([process.execPath, file, JSON.stringify(config)]);
  // A launcher script as boards have them: set-up, then the engine as a child (no exec).
  writeFileSync(join(dir, 'run.sh'), `#!/bin/bash\nset -e\ncd "$(dirname "$0")"\n${engine}\necho done >&2\n`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('an engine started through a wrapper is measured as well as the bare engine', () => {
  let bare: Summary;
  // Each run: ~4 s of decode at 750 tokens/s, plus node's start.
  it('bare: the growth slope within 2 % of theory', { timeout: 60_000 }, async () => {
    bare = await profile(engine);
    expect(bare.engine.exitCode).toBe(0);
    expect(bare.throughput.tokens).toBe(TOKENS);
    expect(Math.abs((bare.kv.decodeSlopeBytesPerToken ?? 0) / BYTES_PER_TOKEN - 1)).toBeLessThan(0.02);
  });

  const wrappers: Array<{ name: string; command: () => string }> = [
    // A compound command: the shell forks the engine and waits (it cannot exec it).
    {
      name: "sh -c '…; engine; …'",
      command: () => `sh -c ${shellQuote(`echo starting >&2; ${engine}; echo done >&2`)}`,
    },
    { name: 'bash script.sh', command: () => `bash ${shellQuote(join(dir, 'run.sh'))}` },
    { name: 'env', command: () => `env KVSCOPE_WRAPPED=1 ${engine}` },
    { name: 'nohup', command: () => `nohup ${engine}` },
    { name: 'timeout', command: () => `timeout 120 ${engine}` },
    { name: 'taskset', command: () => `taskset -c 0 ${engine}` },
  ];
  for (const w of wrappers) {
    it(`${w.name}: samples every interval, slope within 2 % of the bare run's`, { timeout: 60_000 }, async () => {
      const s = await profile(w.command());
      expect(s.engine.exitCode).toBe(0);
      expect(s.throughput.tokens).toBe(TOKENS);
      expect(s.lostSamples).toBe(0);
      // TOKENS / TPS = 4 s of decode alone at one sample per 50 ms = 80 samples; the bare run
      // had its own count: a wrapper must not lose the curve (before: 1 sample, then nothing).
      expect(s.samples).toBeGreaterThanOrEqual((TOKENS / TPS) * (1000 / INTERVAL_MS));
      expect(s.samples).toBeGreaterThanOrEqual(bare.samples * 0.8);
      const slope = s.kv.decodeSlopeBytesPerToken ?? 0;
      const bareSlope = bare.kv.decodeSlopeBytesPerToken ?? NaN;
      expect(Math.abs(slope / bareSlope - 1)).toBeLessThan(0.02);
      expect(s.kv.mode).toBe('growth');
    });
  }

  it(
    "a wrapper that forks says which process was measured: the engine, not the wrapper's shell",
    { timeout: 60_000 },
    async () => {
      const r = await runCli([
        'profile',
        'local',
        '--engine',
        `sh -c ${shellQuote(`sleep 0.3; ${engine}; sleep 0.3`)}`,
        '--interval-ms',
        String(INTERVAL_MS),
        '--json',
      ]);
      if (r.code !== 0) throw new Error(`kvscope profile failed (${r.code}): ${r.stderr}`);
      const s = JSON.parse(r.stdout) as Summary;
      const measured = s.events.filter((e) => e.kind === 'info' && /^measuring process \d+/.test(e.message));
      // First the shell (the only member), then the engine once it is the largest.
      expect(measured.length).toBeGreaterThanOrEqual(1);
      expect(measured.at(-1)?.message).toMatch(/the largest of \d+ in the engine's process group \(was \d+\)/);
      expect(Math.abs((s.kv.decodeSlopeBytesPerToken ?? 0) / BYTES_PER_TOKEN - 1)).toBeLessThan(0.02);
    },
  );
});
