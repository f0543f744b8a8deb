// Secrets of an engine command run as typed, but what the API sends the window (and browser
// mode's WebSocket broadcasts to every page) never holds them: events, statuses, the engine's
// live output, the run as getRun returns it.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiMethods } from '../../../shared/api/contract';
import { appServicesInTempHome } from '../../helpers/app-services';
import { waitFor } from '../../helpers/sshd';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const SECRETS = ['hf_Zq91apisecret', 'sk-Zq92apisecret'];
const leaked = (text: string) => SECRETS.filter((s) => text.includes(s));

describe('secrets through the API', () => {
  it('the engine echoes its token on stdout and stderr: no event the API sends holds it', async () => {
    const { services, home } = appServicesInTempHome('kvscope-secrets-api-');
    dirs.push(home);
    const sent: string[] = [];
    services.subscribe((event, payload) => sent.push(`${event} ${JSON.stringify(payload)}`));
    const engine = `HF_TOKEN=${SECRETS[0]} sh -c 'echo "token $HF_TOKEN, key $2"; echo "401 for $HF_TOKEN" >&2; sleep 0.6' sh --api-key ${SECRETS[1]}`;
    try {
      const { runId } = await services.handlers.startRun(
        apiMethods.startRun.input.parse({
          target: { kind: 'local' },
          engine: { kind: 'command', command: engine },
          intervalMs: 100,
        }),
      );
      await waitFor(
        async () => ['done', 'failed'].includes((await services.handlers.getRun({ runId })).status.state),
        'the end of the run',
        30_000,
      );
      const output = sent.filter((s) => s.startsWith('runOutput '));
      expect(output.join('\n')).toContain('token ***, key ***');
      expect(leaked(sent.join('\n'))).toEqual([]);
      expect(leaked(JSON.stringify(await services.handlers.getRun({ runId })))).toEqual([]);
    } finally {
      await services.dispose();
    }
  });

  it('a secret across the 80th character of the command: the run label holds no start of it', async () => {
    const { services, home } = appServicesInTempHome('kvscope-secrets-label-');
    dirs.push(home);
    const head = "sh -c 'sleep 0.3' sh --model /models/a-rather-long-model-name.gguf --api-key ";
    const secret = 'sk-Zq90label0123456789';
    expect(head.length).toBeLessThan(80);
    expect(head.length + secret.length).toBeGreaterThan(80);
    const sent: string[] = [];
    services.subscribe((event, payload) => sent.push(`${event} ${JSON.stringify(payload)}`));
    try {
      const { runId } = await services.handlers.startRun(
        apiMethods.startRun.input.parse({
          target: { kind: 'local' },
          engine: { kind: 'command', command: head + secret },
          intervalMs: 100,
        }),
      );
      await waitFor(
        async () => ['done', 'failed'].includes((await services.handlers.getRun({ runId })).status.state),
        'the end of the run',
        30_000,
      );
      const run = await services.handlers.getRun({ runId });
      expect(run.status.label).toBe(`${head}***`);
      expect([sent, JSON.stringify(run)].join('\n')).not.toContain(secret.slice(0, 7));
    } finally {
      await services.dispose();
    }
    const { sessions } = await services.handlers.listSessions({});
    expect(JSON.stringify(sessions)).not.toContain(secret.slice(0, 7));
  });
});
