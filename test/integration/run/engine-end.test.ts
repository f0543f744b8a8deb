// How a run's end reads in the app (RunController's status, what the dashboard's header shows):
// an engine ended by a signal KVScope did not send (another process's kill -9, a board's OOM
// daemon) is a failed run that names the signal, as `kvscope profile` says (cli-progress.ts
// runFailure); an engine KVScope stopped is a finished run. Real processes on this machine.
import { describe, expect, it } from 'vitest';
import { RunRequestSchema } from '../../../shared/api/schemas';
import { RUN_DEFAULTS, RunController } from '../../../electron/node/run/run-controller';
import { LocalTarget } from '../../../electron/node/transport/local-target';
import { waitFor } from '../../helpers/sshd';

function localRun(command: string): RunController {
  return new RunController(
    new LocalTarget(),
    RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'command', command }, intervalMs: 100 }),
    `20261202020000-${Math.floor(Math.random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0')}`,
    { onSamples: () => {}, onEvent: () => {}, onStatus: () => {}, onOutput: () => {}, onAnalysis: () => {} },
    RUN_DEFAULTS,
  );
}

describe('the end of a run', () => {
  it(
    'an engine killed by a signal nobody in KVScope sent: failed, naming the signal',
    { timeout: 60_000 },
    async () => {
      const run = localRun(`sh -c 'echo tok; echo about to die >&2; sleep 0.3; kill -9 $$'`);
      await run.start();
      await run.done;
      expect(run.status.state).toBe('failed');
      expect(run.status.error).toBe(
        'engine ended by SIGKILL, a signal KVScope did not send (the kernel log names no OOM kill): about to die',
      );
      const exit = run.events.find((e) => e.kind === 'exit');
      expect(exit?.data).toEqual({ code: 137, signal: 'SIGKILL' });
    },
  );

  it('an engine KVScope stopped: finished, though its signal ended it', { timeout: 60_000 }, async () => {
    const run = localRun(`sh -c 'echo tok; sleep 30'`);
    await run.start();
    await waitFor(() => run.status.state === 'running', 'the run running', 30_000);
    await run.stop();
    await run.done;
    expect(run.status.state).toBe('done');
    expect(run.status.error).toBeUndefined();
    expect(run.events.find((e) => e.kind === 'exit')?.data).toEqual({ code: 143, signal: 'SIGTERM' });
  });
});
