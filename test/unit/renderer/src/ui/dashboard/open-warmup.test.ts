// The idle-time warm-up of a session's way into the dashboard (open-warmup.ts) must run that very
// way — the packed pass, the memory chart's LTTB, the throttle rule, a paint per track — or it
// warms nothing; and it must stay in a store of its own: no API call, nothing in the app's store.
import { describe, expect, it } from 'vitest';
import type { KvScopeApi } from '../../../../../../shared/api/contract';
import { forEachPackedSample } from '../../../../../../shared/api/packed-samples';
import { createMemoryRing } from '../../../../../../renderer/src/live/ring-buffer';
import { MAX_POINTS_PER_SERIES } from '../../../../../../renderer/src/live/live-config';
import { createAppStore } from '../../../../../../renderer/src/state/store';
import { warmSessionOpenPath, warmupSamples } from '../../../../../../renderer/src/ui/dashboard/open-warmup';
import type { CanvasLike, Context2D } from '../../../../../../renderer/src/ui/dashboard/track-painter';

/** An API whose every method and event subscription is recorded and refused. */
function refusingApi() {
  const calls: string[] = [];
  const api = new Proxy(
    {},
    {
      get: (_target, name) => (): never => {
        calls.push(String(name));
        throw new Error(`the warm-up called the API: ${String(name)}`);
      },
    },
  ) as KvScopeApi;
  return { api, calls };
}

/** A canvas whose 2D context counts the line segments drawn. */
function countingCanvas() {
  let segments = 0;
  const ctx = new Proxy(
    { lineWidth: 1, globalAlpha: 1, font: '', textAlign: 'left', fillStyle: '', strokeStyle: '' },
    {
      get: (target, name) =>
        name in target
          ? target[name as keyof typeof target]
          : name === 'lineTo'
            ? () => void (segments += 1)
            : () => undefined,
      set: () => true,
    },
  ) as unknown as Context2D;
  const canvas: CanvasLike = { width: 0, height: 0, getContext: () => ctx };
  return { canvas, segments: () => segments };
}

describe('session-open warm-up', () => {
  it('makes an hour at 1 Hz: a token count and a procfs tick each second', () => {
    const packed = warmupSamples(3600);
    const perSource = new Map<string, number>();
    forEachPackedSample(packed, (shape) => {
      const source = packed.shapes[shape]?.source ?? '?';
      perSource.set(source, (perSource.get(source) ?? 0) + 1);
    });
    expect(Object.fromEntries(perSource)).toEqual({ engine: 3600, procfs: 3600 });
    // A swap reading missing now and then: the null cells the real snapshots carry.
    expect(packed.cells.some((c) => c === null)).toBe(true);
  });

  it('runs the whole path: every sample fed, LTTB down to the chart, the hot stretches found, every track painted', () => {
    const { api, calls } = refusingApi();
    const { canvas, segments } = countingCanvas();
    const result = warmSessionOpenPath(api, canvas);
    expect(result.samples).toBe(3600);
    expect(result.chartPoints).toBe(MAX_POINTS_PER_SERIES);
    // Hot (96 °C over a 95 °C trip) and clocked down for 199 s of every 10 minutes: six stretches.
    expect(result.throttleIntervals).toBe(6);
    // Memory, tokens/s, temperature, clock, power and CPU load tracks.
    expect(result.tracksPainted).toBeGreaterThanOrEqual(5);
    expect(segments()).toBeGreaterThan(1000);
    expect(calls).toEqual([]);
  });

  it('leaves the app store as it was', () => {
    const { api } = refusingApi();
    const app = createAppStore({ api, ring: createMemoryRing(100) });
    const before = app.getState();
    warmSessionOpenPath(api, null);
    const after = app.getState();
    expect(after.run).toBe(before.run);
    expect(after.chart).toBe(before.chart);
    expect(after.seriesStore.keys()).toEqual([]);
  });
});
