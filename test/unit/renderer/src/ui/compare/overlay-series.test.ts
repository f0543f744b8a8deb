// The comparison's curves and delta table from hand-built sessions (test/helpers/session-fixtures.ts).
import { describe, expect, it } from 'vitest';
import {
  deltaTable,
  distinctNames,
  overlayCurves,
  overlayPoints,
} from '../../../../../../renderer/src/ui/compare/overlay-series';
import { finishedRun, session } from '../../../../../helpers/session-fixtures';

describe('overlayPoints', () => {
  it('puts RSS against the token count carried forward, or against seconds', () => {
    const run = finishedRun();
    // The fixture's procfs samples: tokens 0, 0, 1000, 2000 (the engine's count carried forward).
    expect(overlayPoints(run, 'tokens')).toEqual([
      { x: 0, y: 209715200 },
      { x: 0, y: 838860800 },
      { x: 1000, y: 870000000 },
      { x: 2000, y: 912261120 },
    ]);
    expect(overlayPoints(run, 'time').map((p) => p.x)).toEqual([0.1, 0.5, 60, 130]);
  });

  it('leaves out the zero a sampler reads after the process has gone', () => {
    const run = finishedRun();
    run.samples.push({ tMs: 131000, source: 'procfs', values: { rssBytes: 0, tokens: 2000 } });
    expect(overlayPoints(run, 'tokens')).toHaveLength(4);
  });
});

describe('overlayCurves', () => {
  it('draws the run the delta table compares, and names what the legend would otherwise hide', () => {
    const first = finishedRun({ label: 'ctx 512' });
    const second = finishedRun({ label: 'ctx 1024' });
    // The second run's RSS is 1 byte everywhere: in its samples and in its analysis.
    second.samples = second.samples.map((s) => ({ ...s, values: { ...s.values, rssBytes: 1 } }));
    second.analysis = { ...second.analysis, peakRssBytes: 1 };
    const sweep = session([first, second]);
    const noSamples = session([finishedRun({ samples: [] })]);
    const table = deltaTable([
      { name: 'one run', data: session([finishedRun()]) },
      { name: 'sweep', data: sweep },
    ]);
    const curves = overlayCurves(
      [
        { id: 'a', name: 'sweep', data: sweep },
        { id: 'b', name: 'failed', data: noSamples },
      ],
      'tokens',
    );
    // The sweep's curve is its first run (the fixture's RSS, 912,261,120 B at its peak), as in the table.
    expect(table?.rows.find((r) => r.label === 'Peak RSS')?.others[0]?.b).toBe('870 MiB');
    expect(Math.max(...(curves[0]?.points.map((p) => p.y) ?? []))).toBe(912261120);
    expect(curves.map((c) => c.name)).toEqual(['sweep (run 1 of 2)', 'failed – no RSS samples']);
    expect(curves[1]?.points).toEqual([]);
  });
});

describe('deltaTable', () => {
  it('puts each session against the first, with compare-model’s words', () => {
    const a = session([finishedRun()]);
    const slower = finishedRun();
    slower.analysis = {
      ...slower.analysis,
      throughput: { ...slower.analysis.throughput, decodeTokensPerSecond: 7.6 },
    };
    const table = deltaTable([
      { name: 'fan', data: a },
      { name: 'no fan', data: session([slower]) },
    ]);
    expect(table?.names).toEqual(['fan', 'no fan']);
    const decode = table?.rows.find((r) => r.label === 'Decode');
    // 15.2 → 7.6 tokens/s is −50 %, worse (higher is better).
    expect(decode?.others[0]).toMatchObject({ delta: '-50.0 %', verdict: 'worse' });
    expect(deltaTable([{ name: 'alone', data: a }])).toBeNull();
  });
});

describe('distinctNames', () => {
  it('tells apart sessions of the same name, in order, and leaves unique names alone', () => {
    const picked = [
      { id: '20260101-a', name: 'orin f16' },
      { id: '20260102-b', name: 'orin f16' },
      { id: '20260103-c', name: 'pi5' },
      { id: '20260104-d', name: 'orin f16' },
    ];
    expect(distinctNames(picked)).toEqual(['orin f16', 'orin f16 (2)', 'pi5', 'orin f16 (3)']);
  });

  it('numbers by recording order: a session keeps its name when another is made the reference', () => {
    const older = { id: '20260101-a', name: 'orin f16' };
    const newer = { id: '20260102-b', name: 'orin f16' };
    expect(distinctNames([older, newer])).toEqual(['orin f16', 'orin f16 (2)']);
    expect(distinctNames([newer, older])).toEqual(['orin f16 (2)', 'orin f16']);
  });
});
