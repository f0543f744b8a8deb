// Which API events become desktop notifications (electron/main/index.ts shows them with Notification).
import { describe, expect, it } from 'vitest';
import { alertNotifier } from '../../../../electron/main/alert-notifications';

describe('alertNotifier', () => {
  it('shows alerts and OOM kills of a run, and nothing else', () => {
    const shown: Array<[string, string]> = [];
    const sink = alertNotifier((title, body) => shown.push([title, body]));
    sink('runEvent', { runId: 'r1', event: { tMs: 1, kind: 'alert', message: 'RSS 80.0 MiB is 80 % of the budget' } });
    sink('runEvent', { runId: 'r1', event: { tMs: 2, kind: 'info', message: 'engine reports a KV cache' } });
    sink('runEvent', { runId: 'r1', event: { tMs: 3, kind: 'marker', message: 'fan off' } });
    sink('runEvent', { runId: 'r1', event: { tMs: 4, kind: 'oom', message: 'Killed process 42 (llama-cli)' } });
    sink('runStatus', { runId: 'r1', state: 'failed', label: 'x', error: 'alert' });
    expect(shown).toEqual([
      ['KVScope alert', 'RSS 80.0 MiB is 80 % of the budget'],
      ['KVScope: engine killed by the OOM killer', 'Killed process 42 (llama-cli)'],
    ]);
  });
});
