// Server mode of a run started from the app (startRun with `server`, electron/node/api/
// create-app-services.ts): the run is a normal one whose command starts an OpenAI-compatible
// server; once it is launched, this holds the conversation through it (server-profile.ts), keeps
// the client's timings in the run's record, and stops the run — as `kvscope profile --server-url`
// does (electron/node/cli/commands/profile.ts).
import { SERVER_MODE_DEFAULTS, type ServerMode } from '../../../shared/api/schemas';
import type { RunCallbacks, RunController } from '../run/run-controller';
import { commandLineSecrets } from '../session/scrub';
import { registerSecret } from '../util/redact';
import { profileServerRun } from './server-profile';

/** The engine's first output is where a server prints its port: keep at most this much of it. */
const ENGINE_OUTPUT_KEPT_CHARS = 1024 * 1024;

/** Collects what the engine prints (stdout and stderr), for port 0; a listener of the run. */
export function engineOutputCollector(): { listener: Partial<RunCallbacks>; text: () => string } {
  let text = '';
  return {
    listener: {
      onOutput: (_stream, chunk) => {
        if (text.length < ENGINE_OUTPUT_KEPT_CHARS) text += chunk;
      },
    },
    text: () => text,
  };
}

/** The conversation's first prompt, the later turns' messages and the number of turns of `server`. */
export function conversationOf(server: ServerMode): { prompt: string; followUps: string[]; turns: number } {
  const [first, ...rest] = server.prompts;
  return {
    prompt: first ?? SERVER_MODE_DEFAULTS.prompt,
    followUps: rest,
    turns: server.turns ?? Math.max(1, server.prompts.length),
  };
}

/**
 * Waits for the server, holds the conversation, attaches its timings to the run and stops the run.
 * Never throws: a failure becomes an error event of the run (it is stopped all the same).
 */
export async function driveServerMode(
  run: RunController,
  server: ServerMode,
  engineOutput: () => string,
  onProgress?: (line: string) => void,
): Promise<string | null> {
  // The address may carry a password (`http://user:…@host/v1`) or a key in its query
  // (`?api_key=…`): masked from here on, as the engine command's are (run-controller.ts), since
  // the profile, its errors and the session keep the address.
  for (const s of commandLineSecrets(server.url)) registerSecret(s);
  const abort = new AbortController();
  // The user's Stop (or the engine's end) ends the conversation too.
  void run.done.then(() => abort.abort());
  let error: string | null = null;
  try {
    const { profile } = await profileServerRun(run, {
      serverUrl: server.url,
      api: server.api,
      ...conversationOf(server),
      maxTokens: server.maxTokens,
      ignoreEos: server.ignoreEos,
      readyTimeoutMs: server.readyTimeoutMs,
      engineOutput,
      onProgress,
      signal: abort.signal,
    });
    run.attachServerProfile(profile);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    run.addEvent({ tMs: run.lastTMs, kind: 'error', message: `server mode: ${error}` });
  }
  // A failed conversation is a failed run (the header says why), though the server did nothing wrong.
  if (error) await run.stop('server mode failed', `server mode: ${error}`);
  else await run.stop('server conversation done');
  return error;
}
