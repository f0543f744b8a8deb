// Deleting a session the app recorded, through the app's API (the Sessions view's Delete calls
// deleteSession): its run leaves listRuns too. The page shows the newest run of listRuns after a
// reload (resumeLatestRun), so a deleted session's run used to come back on the dashboard, with
// all its numbers, until the app was restarted.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiMethods } from '../../../shared/api/contract';
import { appServicesInTempHome } from '../../helpers/app-services';
import { waitFor } from '../../helpers/sshd';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('deleteSession', () => {
  it("drops the deleted session's run from listRuns, and keeps the other runs", async () => {
    const { services, home } = appServicesInTempHome('kvscope-delete-session-api-');
    dirs.push(home);
    const { handlers } = services;
    try {
      const demoRun = async () => {
        const { runId } = await handlers.startRun(
          apiMethods.startRun.input.parse({
            target: { kind: 'local' },
            engine: { kind: 'demo', demo: { tokens: 20, tps: 200, weightsMb: 4 } },
            intervalMs: 200,
          }),
        );
        await waitFor(async () => (await handlers.getRun({ runId })).status.state === 'done', 'the end', 30_000);
        return runId;
      };
      const kept = await demoRun();
      const deleted = await demoRun();
      // Until both sessions are closed (a session being recorded is not deleted).
      const recorded = async () => {
        const { sessions } = await handlers.listSessions({});
        return sessions.filter((s) => s.state !== 'recording');
      };
      await waitFor(async () => (await recorded()).length === 2, 'both sessions closed', 30_000);
      expect((await handlers.listRuns({})).map((r) => r.runId)).toEqual([kept, deleted]);

      expect(await handlers.deleteSession({ id: deleted })).toEqual({ ok: true });
      expect((await handlers.listSessions({})).sessions.map((s) => s.id)).toEqual([kept]);
      expect((await handlers.listRuns({})).map((r) => r.runId)).toEqual([kept]);
    } finally {
      await services.dispose();
    }
  }, 90_000);
});
