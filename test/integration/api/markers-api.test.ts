// Markers through the app's API (the dashboard's Marker button and M key call addMarker): every
// marker pressed is one event of the run and of its session, also several within one sample
// interval (they share its time); a run that has ended takes none, since its session no longer
// records events (session-recorder.ts) and the marker would vanish with the app.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiMethods, type EventPayload } from '../../../shared/api/contract';
import { appServicesInTempHome } from '../../helpers/app-services';
import { waitFor } from '../../helpers/sshd';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('markers through the API', () => {
  it('keeps every marker of a running run in the run and its session, and refuses one after the end', async () => {
    const { services, home } = appServicesInTempHome('kvscope-markers-api-');
    dirs.push(home);
    const markerEvents: string[] = [];
    services.subscribe((event, payload) => {
      const { event: e } = payload as EventPayload<'runEvent'>;
      if (event === 'runEvent' && e.kind === 'marker') markerEvents.push(e.message ?? '');
    });
    try {
      // 100,000 tokens at 200 tok/s: running until stopped.
      const { runId } = await services.handlers.startRun(
        apiMethods.startRun.input.parse({
          target: { kind: 'local' },
          engine: { kind: 'demo', demo: { tokens: 100_000, tps: 200, weightsMb: 8 } },
          intervalMs: 1000,
        }),
      );
      const running = async () => (await services.handlers.getRun({ runId })).status.state === 'running';
      await waitFor(running, 'the run running', 30_000);
      // Three presses at once (one sample interval), then one with a label, then that label again.
      const added = await Promise.all([1, 2, 3].map(() => services.handlers.addMarker({ runId })));
      added.push(await services.handlers.addMarker({ runId, label: 'warm', tMs: 5 }));
      added.push(await services.handlers.addMarker({ runId, label: 'warm', tMs: 5 }));
      expect(added.map((e) => e.message)).toEqual(['marker 1', 'marker 2', 'marker 3', 'warm', 'warm (5)']);
      expect(new Set(added.slice(0, 3).map((e) => e.tMs)).size).toBe(1);
      expect(markerEvents).toEqual(added.map((e) => e.message));

      await services.handlers.stopRun({ runId });
      await waitFor(async () => (await services.handlers.getRun({ runId })).status.state === 'done', 'the end', 30_000);
      await expect(services.handlers.addMarker({ runId })).rejects.toThrow(
        'the run has ended: a marker marks a moment of a running run',
      );
      const run = await services.handlers.getRun({ runId });
      expect(run.events.filter((e) => e.kind === 'marker')).toEqual(added);
    } finally {
      await services.dispose();
    }
    const { sessions } = await services.handlers.listSessions({});
    const { data } = await services.handlers.openSession({ id: sessions[0]!.id });
    expect(data.runs[0]?.events.filter((e) => e.kind === 'marker').map((e) => e.message)).toEqual([
      'marker 1',
      'marker 2',
      'marker 3',
      'warm',
      'warm (5)',
    ]);
  }, 90_000);
});
