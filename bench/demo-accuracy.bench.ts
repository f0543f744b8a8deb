// The profiler's own accuracy: profile the demo engine (whose true bytes/token are known) in
// each mode, block size and shape, and report the error of the measured slope / reservation.
import { RunRequestSchema, type DemoOptionsInput } from '../shared/api/schemas';
import { RunService } from '../electron/node/run/run-service';
import type { BenchRow } from './bench-util';

const cases: Array<{ name: string; demo: DemoOptionsInput }> = [
  { name: 'growth 16L×8H×64 f16, block 1', demo: { mode: 'growth', block: 1 } },
  { name: 'growth 16L×8H×64 f16, block 16', demo: { mode: 'growth', block: 16 } },
  { name: 'growth 16L×8H×64 f16, block 64', demo: { mode: 'growth', block: 64 } },
  {
    name: 'growth 32L×8H×128 q8_0, block 16',
    demo: { mode: 'growth', block: 16, layers: 32, kvHeads: 8, headDim: 128, kvType: 'q8_0' },
  },
  {
    name: 'growth 28L×4H×128 q4_0, block 16',
    demo: { mode: 'growth', block: 16, layers: 28, kvHeads: 4, headDim: 128, kvType: 'q4_0' },
  },
  { name: 'reserved 16L×8H×64 f16, ctx 4096', demo: { mode: 'reserved', ctx: 4096 } },
  { name: 'window 16L×8H×64 f16, W 1000', demo: { mode: 'window', window: 1000 } },
];

export async function benchDemoAccuracy(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const c of cases) {
    const service = new RunService(() => {});
    const run = await service.start(
      RunRequestSchema.parse({
        target: { kind: 'local' },
        engine: { kind: 'demo', demo: { tokens: 3000, tps: 300, weightsMb: 16, ...c.demo } },
        intervalMs: 100,
      }),
    );
    await run.done;
    await service.dispose();
    const kv = run.analysis!.kv;
    const theory = kv.theoryBytesPerToken!;
    const err =
      kv.mode === 'reserved' && kv.reservedJumpBytes && kv.theoryReservedBytes
        ? kv.reservedJumpBytes / kv.theoryReservedBytes - 1
        : (kv.measuredBytesPerToken ?? NaN) / theory - 1;
    rows.push({
      name: c.name,
      value: `${(err * 100).toFixed(2)} %`,
      note: `${kv.mode === 'reserved' ? 'reservation jump' : 'slope'} vs theory ${theory} B/token; detected mode ${kv.mode}; ${run.samples.filter((s) => s.source === 'procfs').length} samples`,
    });
  }
  return rows;
}
