// Server mode started through the app's API (startRun with `server`, as the run form sends it),
// against the real OpenAI-compatible llama.cpp server of the tests (test/engines/llama/
// openai-server.mjs on stories260K.gguf): the app waits for the port the server prints, holds a
// conversation of one turn per prompt, keeps the client's timings in the run's session, then
// stops the server.
//
// What shows that turn 2 said the second prompt: the server's own count of the prompt tokens it
// evaluated for that turn (its cache holds turn 1). The second prompt is a long story paragraph
// (≈ 10 × 22 tokens); without it, turn 2 would say the short default follow-up ("Go on with the
// story.", a few tokens) and the server would evaluate little more than turn 1's 16-token answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMethods, type EventPayload } from '../../../shared/api/contract';
import { createAppServices } from '../../../electron/node/api/create-app-services';
import { assertLlamaEngineInstalled, modelPath, openaiServerCommand, storyPrompt } from '../../helpers/llama-engine';

const TOKENS_PER_TURN = 16;
let home: string;
beforeAll(() => {
  assertLlamaEngineInstalled();
  home = mkdtempSync(join(tmpdir(), 'kvscope-app-server-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The app's services on a sessions folder of their own, and each run's last status as it ends. */
function appServices(sessions: string) {
  const services = createAppServices({
    shell: 'web',
    sessionsDir: join(home, sessions),
    env: { ...process.env, KVSCOPE_HOME: home },
  });
  const ended = new Map<string, EventPayload<'runStatus'>>();
  services.subscribe((event, payload) => {
    const status = payload as EventPayload<'runStatus'>;
    if (event === 'runStatus' && (status.state === 'done' || status.state === 'failed'))
      ended.set(status.runId, status);
  });
  return { services, ended };
}

describe('server mode through the API', () => {
  it('one turn per prompt, the second prompt sent on turn 2, timings in the session, the server stopped', async () => {
    const { services, ended } = appServices('sessions');
    const { runId } = await services.handlers.startRun(
      apiMethods.startRun.input.parse({
        target: { kind: 'local' },
        engine: { kind: 'command', command: openaiServerCommand({ ctx: 1024 }), gguf: modelPath },
        intervalMs: 100,
        server: {
          url: 'http://127.0.0.1:0/v1',
          prompts: ['Once upon a time', storyPrompt(10)],
          maxTokens: TOKENS_PER_TURN,
          ignoreEos: true,
        },
      }),
    );
    while (!ended.has(runId)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ended.get(runId)?.state).toBe('done');
    const { events } = await services.handlers.getRun({ runId });
    expect(events.find((e) => e.kind === 'stop')?.message).toBe('server conversation done');
    expect(events.filter((e) => e.kind === 'error')).toEqual([]);
    // How the server was driven is in the run's events (the window's event log, the session).
    const turns = events.filter((e) => /^server: turn \d+: 16 tokens in \d+ ms$/.test(e.message ?? ''));
    expect(turns.map((e) => e.message?.slice(0, 14))).toEqual(['server: turn 1', 'server: turn 2']);

    await services.dispose();
    const { sessions } = await services.handlers.listSessions({});
    const { data } = await services.handlers.openSession({ id: sessions[0]!.id });
    const server = data.runs[0]?.outcome?.server;
    expect(server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server?.turns.map((t) => [t.turn, t.status, t.tokens])).toEqual([
      [1, 200, TOKENS_PER_TURN],
      [2, 200, TOKENS_PER_TURN],
    ]);
    expect(server?.turns[1]?.promptTokensEvaluated).toBeGreaterThan(150);
  }, 120_000);

  it('a conversation that fails ends the run as failed, the reason as its error (it was badged FINISHED)', async () => {
    const { services, ended } = appServices('sessions-failed');
    // A command that never serves: no port is printed within the wait (QA: `sleep 30`, wait 5 s).
    const { runId } = await services.handlers.startRun(
      apiMethods.startRun.input.parse({
        target: { kind: 'local' },
        engine: { kind: 'command', command: 'sleep 30' },
        intervalMs: 100,
        server: { url: 'http://127.0.0.1:0/v1', readyTimeoutMs: 1000 },
      }),
    );
    while (!ended.has(runId)) await new Promise((resolve) => setTimeout(resolve, 100));
    const status = ended.get(runId);
    expect(status?.state).toBe('failed');
    expect(status?.error).toBe('server mode: the engine did not print the port it listens on within 1 s');
    const { events } = await services.handlers.getRun({ runId });
    expect(events.find((e) => e.kind === 'stop')?.message).toBe('server mode failed');
    await services.dispose();
    const { sessions } = await services.handlers.listSessions({});
    expect(sessions.map((x) => x.state)).toEqual(['failed']);
  }, 60_000);
});
