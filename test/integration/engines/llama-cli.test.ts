// A real llama.cpp engine (node-llama-cpp on CPU, test/engines/llama/llama-cli.mjs) running the
// real model stories260K.gguf, profiled end to end through the kvscope CLI: locally and on the
// loopback SSH target (a real sshd).
//
// Expected values, by hand (../shared/models/README.md): the GGUF header says 5 layers, 4 KV
// heads, embedding 64 over 8 heads = head_dim 8; f16 K and V rows:
//   640 B/token = 2 (K and V) × 5 × 4 × 8 × 2 B;
//   -c 2048 → llama.cpp reserves 2048 cells (already a multiple of its 256-cell padding)
//   → 2048 × 640 = 1,310,720 B, which llama.cpp prints as "1.25 MiB" (1.25 × 1,048,576).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Sample } from '../../../shared/api/schemas';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reconcileTokenEvents,
  tokenEventsFromSamples,
  tokensPerSecondOverTime,
} from '../../../shared/analysis/throughput';
import { profileArgs, runCli, runCliJson } from '../../helpers/cli';
import { useTrustedSshd } from '../../helpers/ssh-suite';
import {
  assertLlamaEngineInstalled,
  llamaCliCommand,
  modelPath,
  modelRelative,
  STORIES_KV_BYTES_PER_TOKEN,
} from '../../helpers/llama-engine';

const KV_2048 = 2048 * 640; // 1,310,720 B
const TOKENS = 64;

interface Timing {
  phase: string;
  tokens: number | null;
  ms: number | null;
}

/** What every profile of `llama-cli.mjs -c 2048 -n 64` must say, wherever it ran. */
function expectRealLlamaRun(s: {
  engine: { exitCode: number | null; oomKilled: boolean };
  kv: { mode: string; theoryBytesPerToken: number | null; theoryReservedBytes?: number | null };
  engineReported?: { kvBytes: number | null; timings: unknown[] };
  throughput: {
    tokens: number;
    decodeTokensPerSecond: number | null;
    prefillTokensPerSecond: number | null;
    weightBytes?: number | null;
  };
}) {
  expect(s.engine.exitCode).toBe(0);
  expect(s.engine.oomKilled).toBe(false);
  expect(STORIES_KV_BYTES_PER_TOKEN).toBe(640);
  // The KV size llama.cpp itself logged equals the theory from the GGUF header.
  expect(s.engineReported?.kvBytes).toBe(KV_2048);
  expect(s.kv.theoryBytesPerToken).toBe(640);
  expect(s.kv.theoryReservedBytes).toBe(KV_2048);
  expect(s.kv.mode).toBe('reserved');
  // One stdout line per token.
  expect(s.throughput.tokens).toBe(TOKENS);
  // llama.cpp's own timing lines: the prompt, then one decode run per token after the first
  // (the first token is sampled from the prompt's logits): 64 − 1 = 63 runs.
  const timings = (s.engineReported?.timings ?? []) as Timing[];
  const phases = timings.map((t) => t.phase);
  expect(phases).toEqual(expect.arrayContaining(['load', 'prompt', 'eval', 'total']));
  expect(timings.find((t) => t.phase === 'eval')?.tokens).toBe(TOKENS - 1);
  expect(timings.find((t) => t.phase === 'prompt')?.tokens).toBeGreaterThan(0);
  expect(s.throughput.prefillTokensPerSecond).toBeGreaterThan(0);
  expect(s.throughput.decodeTokensPerSecond).toBeGreaterThan(0);
  // The roofline's weights per token: llama.cpp's `print_info: file size = 1.12 MiB (32.00 BPW)`,
  // 1.12 × 1,048,576 = 1,174,405 B (the GGUF is 1,185,376 B with its header), not the anonymous
  // baseline (the node runtime: ~14 MB here, none of it weights).
  expect(s.throughput.weightBytes).toBe(1_174_405);
}

describe('a real llama.cpp engine on stories260K', () => {
  let tmp: string;
  beforeAll(() => {
    assertLlamaEngineInstalled();
    tmp = mkdtempSync(join(tmpdir(), 'kvscope-llama-cli-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('local: the KV size llama.cpp logs equals the GGUF theory, reserved mode, timings parsed', async () => {
    const s = await runCliJson(
      profileArgs(
        'local',
        llamaCliCommand({ tokens: TOKENS }),
        '--gguf',
        modelRelative,
        '--ctx',
        '2048',
        '--interval-ms',
        '50',
        '--json',
      ),
    );
    expectRealLlamaRun(s);
    expect(s.engine.command).toContain('-c 2048');
    expect(
      s.events.some(
        (e: { kind: string; data?: { kvBytes?: number } }) => e.kind === 'info' && e.data?.kvBytes === KV_2048,
      ),
    ).toBe(true);
  });

  it("without --ctx, the context comes from the command's own -c; without --gguf there is no theory but the engine-reported size", async () => {
    const s = await runCliJson(
      profileArgs('local', llamaCliCommand({ tokens: 16, ctx: 1000 }), '--interval-ms', '50', '--json'),
    );
    // -c 1000 → llama.cpp pads to 1024 cells (next multiple of 256) → 1024 × 640 = 655,360 B
    // = 0.625 MiB, printed with two decimals ("0.62 MiB"): equal within 0.01 MiB.
    expect(Math.abs(s.engineReported.kvBytes - 655360)).toBeLessThanOrEqual(0.01 * 1048576);
    expect(s.kv.theoryBytesPerToken).toBeNull();
    expect(s.kv.mode).toBe('reserved');
  });

  it("tokens written without newlines, as llama-cli does: the engine's count, its decode speed, a rate point per second, reserved", async () => {
    // 1,500 tokens at 2048 cells, as the run (issue 10): llama.cpp counted
    // `eval 1499 tokens`, a line counter saw 9.
    const tokens = 1500;
    const out = join(tmp, 'raw.kvscope');
    const writeTimes = join(tmp, 'write-times.json');
    const s = (await runCliJson(
      profileArgs(
        'local',
        llamaCliCommand({ tokens, ctx: 2048, extra: ['--raw', '--write-times', writeTimes] }),
        '--interval-ms',
        '100',
        '--out',
        out,
        '--json',
      ),
    )) as {
      throughput: { tokens: number; decodeTokensPerSecond: number; deliveredTokensPerSecond: number };
      kv: { mode: string };
      engineReported: { timings: Array<Timing & { tokensPerSecond: number | null }> };
      events: Array<{ data?: { engineTokens?: number; liveTokens?: number } }>;
    };
    const timings = s.engineReported.timings;
    const evalTiming = timings.find((t) => t.phase === 'eval');
    // The engine's own lines: one eval run per token after the first.
    expect(evalTiming?.tokens).toBe(tokens - 1);
    expect(Math.abs(s.throughput.tokens - (evalTiming?.tokens ?? NaN))).toBeLessThanOrEqual(1);
    expect(Math.abs(s.throughput.decodeTokensPerSecond / (evalTiming?.tokensPerSecond ?? NaN) - 1)).toBeLessThan(0.05);
    // The rate KVScope measured from the outside, by the arrival time of each flushed write, against
    // the engine's own clock around those writes (its eval timing counts the decode compute only;
    // this tiny model spends most of each token in node-llama-cpp's JavaScript, so the two differ).
    const own = JSON.parse(readFileSync(writeTimes, 'utf8')) as {
      tokens: number;
      firstWriteMs: number;
      lastWriteMs: number;
    };
    const ownDeliveredTps = (own.tokens - 1) / ((own.lastWriteMs - own.firstWriteMs) / 1000);
    expect(Math.abs(s.throughput.deliveredTokensPerSecond / ownDeliveredTps - 1)).toBeLessThan(0.05);
    expect(s.kv.mode).toBe('reserved');
    // The live count differed (writes closer than 10 ms merge): the run says so and by how much.
    const said = s.events.find((e) => e.data?.engineTokens === tokens);
    expect(said?.data?.liveTokens).toBeGreaterThan(0);
    expect(said?.data?.liveTokens).toBeLessThan(tokens);

    // Tokens/s over time from the stored samples: a point for every second of decode, none zero
    // (a line reader saw nothing until the end: every point but the last was 0).
    const session = new Database(out, { readonly: true });
    const rows = session
      .prepare("select t_ms as tMs, vals from samples where source = 'engine' order by id")
      .all() as Array<{ tMs: number; vals: string }>;
    session.close();
    const samples: Sample[] = rows.map((row) => ({
      tMs: row.tMs,
      source: 'engine',
      values: JSON.parse(row.vals) as Sample['values'],
    }));
    const events = reconcileTokenEvents(tokenEventsFromSamples(samples), tokens);
    const arrivals = events.filter((e) => e.tokens >= 1);
    const decodeS = ((arrivals.at(-1)?.tMs ?? 0) - (arrivals[0]?.tMs ?? 0)) / 1000;
    expect(decodeS).toBeGreaterThan(1);
    const rates = tokensPerSecondOverTime(events, { windowMs: 1000, stepMs: 1000 });
    expect(rates.length).toBe(Math.floor(decodeS));
    for (const p of rates) expect(p.tokensPerSecond).toBeGreaterThan(0);
    expect(events.at(-1)?.tokens).toBe(tokens);
  });

  it('refuses a KV type llama.cpp would refuse for this model, before starting it', async () => {
    // head_dim 8 is not a multiple of q8_0's 32-value blocks.
    const r = await runCli(
      profileArgs(
        'local',
        llamaCliCommand({ tokens: 8, ctx: 512 }),
        '--gguf',
        modelRelative,
        '--kv-type',
        'q8_0',
        '--json',
      ),
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/q8_0 with block size 32 does not divide/);
  });
});

describe('a real llama.cpp engine on the loopback SSH target', () => {
  const ssh = useTrustedSshd({ before: assertLlamaEngineInstalled });

  it('kvscope profile user@host:port: GGUF header read over the link, KV size equals theory, reserved, timings parsed', async () => {
    // The SSH login lands in the user's home, so the model path on the "board" is absolute.
    const s = await runCliJson(
      profileArgs(
        ssh.cliTarget(),
        llamaCliCommand({ tokens: TOKENS }),
        '--gguf',
        modelPath,
        '--ctx',
        '2048',
        '--interval-ms',
        '50',
        '--json',
      ),
    );
    expect(s.target.kind).toBe('ssh');
    // The board's probe facts, gathered while the run was live (the target closes with the run).
    expect(s.target.kernel).toBe(release());
    expectRealLlamaRun(s);
  });
});
