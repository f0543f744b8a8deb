// Server mode: `kvscope profile --engine "<server command>" --server-url …` against a real
// OpenAI-compatible server with the real llama.cpp engine behind it (test/engines/llama/
// openai-server.mjs on stories260K.gguf). The client timestamps every streamed token; its TTFT
// and decode speed must agree with what the server measured about itself (llama-server-style
// `timings`) — the same quantities seen from both ends of the connection.
//
// Expected values, by hand: the context is -c 4096 → 4096 cells × 640 B = 2,621,440 B of KV
// ("2.50 MiB" in llama.cpp's log). Each turn asks for 256 tokens with ignore_eos, so the server
// reports predicted_n = 256 and the client receives 256 content chunks.
//
// Why 256 tokens: the client's clock sees a chunk when its process gets to read it. On a busy
// 2-core machine (load average 7–8 while other suites ran) the last chunk of a 96-token turn
// arrived up to 27 ms after the server wrote it — 8 % of a 330 ms decode; over 256 tokens
// (0.6–2 s of decode) the same delays stayed under 2 %.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { profileArgs, runCli, runCliFailing, runCliJson } from '../../helpers/cli';
import { makeTempDir, startSshd, writeKnownHosts, type Sshd, sshCliTarget } from '../../helpers/sshd';
import {
  assertLlamaEngineInstalled,
  modelRelative,
  openaiServerCommand,
  storyPrompt,
} from '../../helpers/llama-engine';
import type { ServerProfile, ServerTimings } from '../../../shared/analysis/stream-timing';
import { defined } from '../../helpers/defined';
import { readSession } from '../../../electron/node/session/session-store';

const TOKENS = 256;
const TURNS = 3;
// ≈ 32 × 22 ≈ 700 prompt tokens: prefill takes hundreds of ms, so the ms of HTTP, the SSH
// forward and scheduling between the server's clock and the client's stay under 5 % of TTFT even
// on a busy 2-core machine (at 350 tokens the forwarded run once measured 10 %). The context
// (4096) holds it with the three turns.
const PROMPT = storyPrompt(32);

/** The conversation both tests hold with the server: port 0 (the one it prints), TURNS × TOKENS. */
const conversationArgs = (promptFile: string) => [
  '--server-url',
  'http://127.0.0.1:0/v1',
  '--prompt-file',
  promptFile,
  '--turns',
  String(TURNS),
  '--tokens',
  String(TOKENS),
  '--ignore-eos',
  '--json',
];

/** One of the server's own timings, which a llama-server turn always sends: its absence fails the test. */
function timing(st: ServerTimings | null, key: string): number {
  const v = st?.[key];
  if (v === undefined) throw new Error(`expected the server's timings to hold ${key}`);
  return v;
}

/** What both ends of the connection must agree on, turn by turn. */
function expectConsistentWithServer(p: ServerProfile) {
  expect(p.turns.length).toBe(TURNS);
  let depth = 0;
  for (const t of p.turns) {
    const st = t.serverTimings;
    expect(t.status).toBe(200);
    expect(timing(st, 'predicted_n')).toBe(TOKENS);
    // Per-token timestamps: one per token, in order, the first at TTFT.
    expect(t.tokens).toBe(TOKENS);
    expect(t.tokenTimesMs.length).toBe(TOKENS);
    for (let i = 1; i < t.tokenTimesMs.length; i++)
      expect(t.tokenTimesMs[i]).toBeGreaterThanOrEqual(defined(t.tokenTimesMs[i - 1]));
    expect(t.tokenTimesMs[0]).toBe(t.ttftMs);
    // TTFT seen by the client contains the server's prompt processing, and not much more.
    expect(t.ttftMs as number).toBeGreaterThanOrEqual(timing(st, 'prompt_ms'));
    // Decode speed: client (tokens after the first ÷ first→last arrival) vs server (predicted_per_second).
    expect(Math.abs((t.decodeTokensPerSecond as number) / timing(st, 'predicted_per_second') - 1)).toBeLessThan(0.05);
    expect(t.vsServer.decodeRatio).toBeCloseTo(
      (t.decodeTokensPerSecond as number) / timing(st, 'predicted_per_second'),
      10,
    );
    expect(t.steadyDecodeTokensPerSecond).toBeGreaterThan(0);
    // The conversation is sent back each turn: the context grows by at least the tokens generated.
    expect(t.contextDepth as number).toBeGreaterThanOrEqual(depth + (t.turn > 1 ? TOKENS : 0));
    depth = t.contextDepth as number;
    // Prefill speed: the prompt tokens the server evaluated over TTFT.
    expect(t.prefillTokensPerSecond).toBeCloseTo((timing(st, 'prompt_n') * 1000) / (t.ttftMs as number), 6);
  }
  // The first turn has the long prompt: TTFT within 5 % of the server's prompt_ms.
  const first = defined(p.turns[0], 'turn 1');
  expect(first.promptTokensEvaluated as number).toBeGreaterThan(200);
  expect(Math.abs((first.ttftMs as number) / timing(first.serverTimings, 'prompt_ms') - 1)).toBeLessThan(0.05);
  // Later turns reuse the server's cache for what they share with the previous request.
  expect(timing(defined(p.turns[1], 'turn 2').serverTimings, 'cache_n')).toBeGreaterThanOrEqual(
    first.contextDepth as number,
  );
  expect(p.byDepth.length).toBe(TURNS);
}

describe('server mode against a real OpenAI-compatible llama.cpp server', () => {
  let dir: string;
  beforeAll(async () => {
    assertLlamaEngineInstalled();
    dir = await makeTempDir('kvscope-server-');
  });

  it('local, --server-url …:0: waits for the port the server prints, 3 turns, client timings = server timings within 5 %', async () => {
    const promptFile = join(dir, 'prompt.txt');
    await writeFile(promptFile, PROMPT);
    const out = join(dir, 'local-server.kvscope');
    const s = await runCliJson(
      profileArgs(
        'local',
        openaiServerCommand({ ctx: 4096 }),
        '--gguf',
        modelRelative,
        '--out',
        out,
        ...conversationArgs(promptFile),
      ),
    );
    expectConsistentWithServer(s.server);
    expect(s.server.api).toBe('chat');
    expect(s.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(s.server.url).not.toBe('http://127.0.0.1:0/v1');
    // The summary's throughput is the client's first turn.
    expect(s.throughput.ttftMs).toBe(s.server.turns[0].ttftMs);
    expect(s.throughput.decodeTokensPerSecond).toBe(s.server.turns[0].decodeTokensPerSecond);
    expect(s.throughput.tokens).toBe(TURNS * TOKENS);
    // The server ran as a normal profiled run: sampled, its llama.cpp log read, stopped by kvscope.
    expect(s.engineReported.kvBytes).toBe(2621440);
    expect(s.samples).toBeGreaterThan(3);
    expect(s.engineReported.timings.filter((t: { phase: string }) => t.phase === 'prompt').length).toBe(TURNS);
    const kinds = s.events.map((e: { kind: string }) => e.kind);
    expect(kinds.indexOf('stop')).toBeGreaterThan(-1);
    expect(kinds.indexOf('exit')).toBeGreaterThan(kinds.indexOf('stop'));
    expect(s.engine.oomKilled).toBe(false);
    // The streamed tokens were counted live, as a CLI engine's stdout is: engine samples along
    // the conversation up to every token, and the engine's own count (its timing lines) agrees.
    const run = defined(readSession(out).runs[0], 'the run');
    const counts = run.samples.filter((x) => x.source === 'engine' && x.values.started === undefined);
    expect(counts.length).toBeGreaterThan(TURNS);
    expect(counts.at(-1)?.values.tokens).toBe(TURNS * TOKENS);
    for (let i = 1; i < counts.length; i++) {
      expect(defined(counts[i]).tMs).toBeGreaterThanOrEqual(defined(counts[i - 1]).tMs);
      expect(defined(counts[i]).values.tokens).toBeGreaterThan(defined(counts[i - 1]).values.tokens as number);
    }
    expect(s.events.filter((e: { message: string }) => e.message.includes('were seen live'))).toEqual([]);
    // The memory samples carry the count reached when they were taken: RSS against tokens is drawn.
    expect(run.samples.some((x) => x.source === 'procfs' && (x.values.tokens ?? 0) > 0)).toBe(true);
  });

  it('the completions API streams too', async () => {
    const s = await runCliJson(
      profileArgs(
        'local',
        openaiServerCommand({ ctx: 1024 }),
        '--server-url',
        'http://127.0.0.1:0/v1',
        '--api',
        'completions',
        '--prompt',
        'Once upon a time',
        '--tokens',
        '32',
        '--ignore-eos',
        '--json',
      ),
    );
    expect(s.server.api).toBe('completions');
    expect(s.server.turns[0].tokens).toBe(32);
    expect(s.server.turns[0].serverTimings.predicted_n).toBe(32);
  });

  it('a server that exits before answering is reported with its last words', async () => {
    const crash = 'echo "model file not found" >&2; exit 1';
    const stderr = await runCliFailing(profileArgs('local', crash, '--server-url', 'http://127.0.0.1:0/v1', '--json'));
    expect(stderr).toMatch(/server mode: the server ended before it answered.*model file not found/);
  });
});

describe('server mode on the loopback SSH target (through an SSH port forward)', () => {
  let sshd: Sshd;
  let dir: string;
  let knownHosts: string;
  beforeAll(async () => {
    assertLlamaEngineInstalled();
    sshd = await startSshd();
    dir = await makeTempDir('kvscope-server-ssh-');
    knownHosts = join(dir, 'known_hosts');
    await writeKnownHosts(knownHosts, [sshd.knownHostsLine]);
  });
  afterAll(async () => {
    await sshd?.stop();
  });

  it('the server on the board is reached through target.forwardPort; client timings = server timings within 5 %', async () => {
    const promptFile = join(dir, 'prompt.txt');
    await writeFile(promptFile, PROMPT);
    const r = await runCli(
      profileArgs(sshCliTarget(sshd, knownHosts), openaiServerCommand({ ctx: 4096 }), ...conversationArgs(promptFile)),
    );
    if (r.code !== 0) throw new Error(`kvscope profile (server mode over SSH) failed (${r.code}): ${r.stderr}`);
    // Read below: stderr says which port the server printed.
    const s = JSON.parse(r.stdout);
    expect(s.target.kind).toBe('ssh');
    expectConsistentWithServer(s.server);
    // The URL reported is the server's own as seen on the board (the port it printed), not the
    // local end of the forward.
    const printed = r.stderr.match(/waiting for http:\/\/127\.0\.0\.1:(\d+) to answer/);
    expect(printed).not.toBeNull();
    expect(s.server.url).toBe(`http://127.0.0.1:${printed?.[1]}/v1`);
    expect(s.engineReported.kvBytes).toBe(2621440);
  });
});
