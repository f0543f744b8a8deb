// A child process for the crash test: appends samples to a session as fast as a busy sampler
// would, through the store's own batching (timer or batch size), and prints "committed N" after
// every commit — so the parent knows what must survive a SIGKILL.
// Usage: node --import tsx test/helpers/session-writer.ts <session file>
import { RunRequestSchema } from '../../shared/api/schemas';
import { createSession } from '../../electron/node/session/session-store';

const path = process.argv[2] ?? '';
const store = createSession(path, {
  appVersion: 'crash-test',
  onCommit: (totals) => process.stdout.write(`committed ${totals.samples}\n`),
});
const request = RunRequestSchema.parse({ target: { kind: 'local' }, engine: { kind: 'demo', demo: {} } });
const run = store.addRun({ id: 'crash-run', label: 'crash', request, state: 'running' });
store.appendEvents(run, [{ tMs: 0, kind: 'start', message: 'writer started' }]);

// Sample i: tMs = 10 i, value i — the parent checks the stored ones are exactly 0, 1, 2, … in order.
let i = 0;
const tick = () => {
  const batch = [];
  for (let k = 0; k < 7; k++, i++)
    batch.push({ tMs: i * 10, source: 'procfs', values: { i, rssBytes: 1_000_000 + i * 4096 } });
  store.appendSamples(run, batch);
  setImmediate(tick);
};
tick();
