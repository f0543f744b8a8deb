// Engines and the KV analysis with a real llama.cpp engine (node-llama-cpp on CPU, the real
// stories260K.gguf; test/engines/llama must be installed: `npm ci --prefix test/engines/llama
// --omit=optional`):
// - a context sweep 512 … 65,536: measured RSS per context token against the 640 B K/V theory
//   (and the 696 B that llama.cpp really holds per cell: + 56 B of cell bookkeeping);
// - server mode: TTFT and decode tokens/s seen by the client against the server's own timings;
// - leak detection on the demo engine with and without a deliberate 8 KiB/token leak.
import { RunRequestSchema } from '../shared/api/schemas';
import { RunService } from '../electron/node/run/run-service';
import { runSweep } from '../electron/node/run/sweep';
import { profileServerRun } from '../electron/node/engines/server-profile';
import {
  assertLlamaEngineInstalled,
  llamaCliCommand,
  modelPath,
  openaiServerCommand,
  storyPrompt,
} from '../test/helpers/llama-engine';
import type { BenchRow } from './bench-util';

const SWEEP_SIZES = [512, 4096, 16384, 32768, 65536];
const pct = (v: number) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)} %`;

async function benchSweep(): Promise<BenchRow[]> {
  const service = new RunService(() => {});
  const started = performance.now();
  const result = await runSweep({
    runner: service,
    sizes: SWEEP_SIZES,
    request: RunRequestSchema.parse({
      target: { kind: 'local' },
      engine: { kind: 'command', command: llamaCliCommand({ tokens: 400, quietNode: true }), gguf: modelPath },
      intervalMs: 20,
    }),
  });
  await service.dispose();
  const a = result.analysis;
  const wallS = (performance.now() - started) / 1000;
  const measured = a.measuredBytesPerToken ?? NaN;
  return [
    {
      name: 'sweep: RSS per context token',
      value: `${measured.toFixed(0)} B`,
      note: `theory 640 B (${pct(measured / 640 - 1)}); with llama.cpp's 56 B/cell bookkeeping 696 B (${pct(measured / 696 - 1)}); ${a.fittedPoints} runs ${SWEEP_SIZES[0]}…${SWEEP_SIZES[SWEEP_SIZES.length - 1]}, r² ${a.fitR2?.toFixed(4)}, mode ${a.mode}, ${wallS.toFixed(1)} s`,
    },
    {
      name: 'sweep: engine-reported KV per cell',
      value: `${a.engineReportedBytesPerToken?.toFixed(1)} B`,
      note: 'slope of llama.cpp\'s own "llama_kv_cache: size = …" over the same runs (theory 640 B)',
    },
  ];
}

async function benchServer(): Promise<BenchRow[]> {
  let output = '';
  const service = new RunService((event, payload) => {
    if (event === 'runOutput') output += (payload as { text: string }).text;
  });
  const run = await service.start(
    RunRequestSchema.parse({
      target: { kind: 'local' },
      engine: { kind: 'command', command: openaiServerCommand({ ctx: 4096 }), tokenRegex: '(?!)' },
    }),
  );
  let profile;
  try {
    ({ profile } = await profileServerRun(run, {
      serverUrl: 'http://127.0.0.1:0/v1',
      api: 'chat',
      prompt: storyPrompt(16),
      turns: 3,
      maxTokens: 256,
      ignoreEos: true,
      readyTimeoutMs: 60_000,
      engineOutput: () => output,
    }));
  } finally {
    await run.stop('bench done');
    await service.dispose();
  }
  const rows: BenchRow[] = [];
  for (const t of profile.turns) {
    const st = t.serverTimings ?? {};
    rows.push({
      name: `server turn ${t.turn}: TTFT`,
      value: `${t.ttftMs?.toFixed(1)} ms`,
      note: `server prompt_ms ${st.prompt_ms?.toFixed(1)} (${pct((t.vsServer.ttftRatio ?? NaN) - 1)}); ${st.prompt_n} prompt tokens evaluated, ${st.cache_n} from cache; prefill ${t.prefillTokensPerSecond?.toFixed(0)} tok/s`,
    });
    rows.push({
      name: `server turn ${t.turn}: decode`,
      value: `${t.decodeTokensPerSecond?.toFixed(1)} tok/s`,
      note: `server predicted_per_second ${st.predicted_per_second?.toFixed(1)} (${pct((t.vsServer.decodeRatio ?? NaN) - 1)}); steady ${t.steadyDecodeTokensPerSecond?.toFixed(1)} tok/s, stalls ${t.stallMs?.toFixed(0)} ms; context depth ${t.contextDepth}`,
    });
  }
  return rows;
}

async function benchLeak(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const leak of [8192, 0]) {
    const service = new RunService(() => {});
    const run = await service.start(
      RunRequestSchema.parse({
        target: { kind: 'local' },
        engine: {
          kind: 'demo',
          demo: { mode: 'growth', tokens: 1500, tps: 750, weightsMb: 8, leakBytesPerToken: leak },
        },
        intervalMs: 50,
      }),
    );
    await run.done;
    await service.dispose();
    const l = run.analysis?.leak;
    rows.push({
      name: `leak: demo growth, --leak ${leak}`,
      value: l ? (l.leaking ? 'leak' : 'no leak') : '–',
      note: l
        ? `${l.bytesPerToken?.toFixed(0)} B/token beyond the KV cache (true: ${leak}), threshold ${l.thresholdBytesPerToken}, confidence ${l.confidence}`
        : 'no verdict',
    });
  }
  return rows;
}

export async function benchEngines(): Promise<BenchRow[]> {
  assertLlamaEngineInstalled();
  return [...(await benchSweep()), ...(await benchServer()), ...(await benchLeak())];
}
