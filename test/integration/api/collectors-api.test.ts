// Collector settings through the app's API (the run form's Collectors section sends them): a
// setting the CLI would refuse (`profile --pmap-interval-ms 100`) is refused before anything runs,
// in the same words, whatever client sent it.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiMethods } from '../../../shared/api/contract';
import { appServicesInTempHome } from '../../helpers/app-services';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('collector settings through the API', () => {
  it.each([
    [{ pmap: { intervalMs: 100 } }, 'pmap interval 100 ms is outside 1000..300000 ms'],
    [{ procfs: { intervalMs: 500 } }, "procfs samples at the run's --interval-ms; it has no interval of its own"],
    [{ nosuch: { enabled: false } }, /^unknown collector "nosuch" \(known: procfs, /],
  ])('refuses %j before starting anything', async (collectors, message) => {
    const { services, home } = appServicesInTempHome('kvscope-collectors-api-');
    dirs.push(home);
    try {
      const request = apiMethods.startRun.input.parse({
        target: { kind: 'local' },
        engine: { kind: 'demo', demo: { tokens: 10 } },
        collectors,
      });
      await expect(services.handlers.startRun(request)).rejects.toThrow(message);
      expect((await services.handlers.listSessions({})).sessions).toEqual([]);
    } finally {
      await services.dispose();
    }
  });
});
