// Server mode of `kvscope profile`: the engine command starts an OpenAI-compatible server on the
// target (a normal run: sampled, logged, stopped like any other), and the client here waits for
// its port, drives a streamed conversation through it, and then stops the run.
//
// The server URL is as seen from the target (`--server-url http://127.0.0.1:8080/v1`). On an SSH
// target the client reaches it through `target.forwardPort(host, port)`; a local target is
// direct. Port 0 (`http://127.0.0.1:0/v1`) means "the port the server prints": the client waits
// for the engine's output to say where it listens (llama-server: `server is listening on
// http://127.0.0.1:8080`, ollama: `Listening on 127.0.0.1:11434`, uvicorn/vLLM: `running on
// http://0.0.0.0:8000`).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ServerProfile } from '../../../shared/analysis/stream-timing';
import { SERVER_MODE_DEFAULTS } from '../../../shared/api/schemas';
import type { RunController } from '../run/run-controller';
import { runSession, type OpenAiApi, type StreamResult } from './openai-client';

export interface ServerProfileOptions {
  /** Base URL as seen from the target, ending in /v1; port 0 = read it from the engine's output. */
  serverUrl: string;
  api: OpenAiApi;
  prompt: string;
  turns: number;
  maxTokens: number;
  followUp?: string;
  /** The user's messages of turns 2, 3, … (openai-client.ts SessionOptions.followUps). */
  followUps?: readonly string[];
  model?: string;
  ignoreEos?: boolean;
  /** How long the server may take to load its model and answer. */
  readyTimeoutMs: number;
  /** Everything the engine printed so far (stdout and stderr), for port 0. */
  engineOutput(): string;
  onProgress?(line: string): void;
  signal?: AbortSignal;
}

export class ServerProfileError extends Error {
  override name = 'ServerProfileError';
}

// Defaults, each with its reason.
/** How long the server may take to load its model (shared/api/schemas.ts SERVER_MODE_DEFAULTS says why). */
export const DEFAULT_SERVER_READY_TIMEOUT_MS = SERVER_MODE_DEFAULTS.readyTimeoutMs;
/** Poll the server this often while it loads (a connection attempt costs ~nothing on loopback/SSH). */
const READY_POLL_MS = 100;

const LISTENING_RE =
  /(?:listening|running|serving|started)\s+(?:on|at)\s+(?:https?:\/\/)?(?:\[[^\]]+\]|[^\s:/]+):(\d{1,5})/i;

/** The port an engine says it listens on, from its output, or null. */
export function listeningPortFrom(output: string): number | null {
  const m = LISTENING_RE.exec(output);
  if (!m) return null;
  const port = Number(m[1]);
  return port > 0 && port < 65536 ? port : null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runEnded(run: RunController): boolean {
  return run.status.state === 'done' || run.status.state === 'failed';
}

function serverGone(run: RunController): ServerProfileError {
  const said = run.stderrTail.length ? `: ${run.stderrTail.slice(-3).join(' | ').slice(0, 500)}` : '';
  return new ServerProfileError(
    `the server ended before it answered (${run.status.error ?? `exit ${run.exitCode ?? run.exitSignal}`})${said}`,
  );
}

/** GET <base>/models: any answer below 500 means the server is up (503 = still loading, as llama-server says). */
function probe(url: URL): Promise<number | null> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, { method: 'GET', timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

export async function profileServerRun(
  run: RunController,
  options: ServerProfileOptions,
): Promise<{ profile: ServerProfile; results: StreamResult[] }> {
  const given = new URL(options.serverUrl);
  const deadline = Date.now() + options.readyTimeoutMs;
  let port = Number(given.port || (given.protocol === 'https:' ? 443 : 80));
  if (port === 0) {
    options.onProgress?.('server: waiting for the engine to say which port it listens on\n');
    for (;;) {
      const found = listeningPortFrom(options.engineOutput());
      if (found !== null) {
        port = found;
        break;
      }
      if (runEnded(run)) throw serverGone(run);
      if (options.signal?.aborted) throw new ServerProfileError('interrupted');
      if (Date.now() > deadline)
        throw new ServerProfileError(
          `the engine did not print the port it listens on within ${options.readyTimeoutMs / 1000} s`,
        );
      await sleep(READY_POLL_MS);
    }
  }
  // As seen from the target: a wildcard address is reached on loopback.
  const targetHost = ['0.0.0.0', '::', '[::]'].includes(given.hostname)
    ? '127.0.0.1'
    : given.hostname.replace(/^\[|\]$/g, '');
  let forward: { localPort: number; close(): Promise<void> } | null = null;
  const local = new URL(given.toString());
  local.port = String(port);
  if (run.target.kind !== 'local') {
    if (!run.target.forwardPort)
      throw new ServerProfileError(
        `target ${run.target.label} cannot forward ports: the server is not reachable from here`,
      );
    forward = await run.target.forwardPort(targetHost, port);
    local.hostname = '127.0.0.1';
    local.port = String(forward.localPort);
  } else if (targetHost !== given.hostname) local.hostname = targetHost;
  const baseUrl = local.toString().replace(/\/$/, '');
  try {
    options.onProgress?.(`server: waiting for ${given.protocol}//${targetHost}:${port} to answer\n`);
    const models = new URL(`${baseUrl}/models`);
    for (;;) {
      const status = await probe(models);
      if (status !== null && status < 500) break;
      if (runEnded(run)) throw serverGone(run);
      if (options.signal?.aborted) throw new ServerProfileError('interrupted');
      if (Date.now() > deadline)
        throw new ServerProfileError(
          `the server at ${targetHost}:${port} did not answer within ${options.readyTimeoutMs / 1000} s`,
        );
      await sleep(READY_POLL_MS);
    }
    const { results, profile } = await runSession({
      baseUrl,
      api: options.api,
      prompt: options.prompt,
      turns: options.turns,
      followUp: options.followUp,
      followUps: options.followUps,
      maxTokens: options.maxTokens,
      model: options.model,
      ignoreEos: options.ignoreEos,
      signal: options.signal,
      // The run counts the streamed tokens live, as it counts a CLI engine's stdout: the token
      // count, tokens/s and RSS against tokens fill while the conversation goes on.
      onToken: () => run.addStreamedTokens(1),
      onTurn: (r) =>
        options.onProgress?.(
          `server: turn ${r.turn}: ${r.status === 200 ? `${r.chunkTimesMs.length} tokens in ${(r.endMs - r.requestStartMs).toFixed(0)} ms` : (r.error ?? `HTTP ${r.status}`)}\n`,
        ),
    });
    const failed = results.find((r) => r.status !== 200);
    if (failed && results.length === 1)
      throw new ServerProfileError(`the server refused the request: ${failed.error ?? `HTTP ${failed.status}`}`);
    // Report the URL the user gave (with the real port), not the forward's.
    const shown = new URL(given.toString());
    shown.port = String(port);
    return { profile: { ...profile, url: shown.toString().replace(/\/$/, '') }, results };
  } finally {
    await forward?.close().catch(() => {});
  }
}
