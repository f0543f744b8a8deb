import { describe, expect, it } from 'vitest';
import { RunRequestSchema } from '../../../../../shared/api/schemas';
import { parseRunManifest, runManifestText, type RunManifest } from '../../../../../electron/node/run/run-manifest';

const manifest: RunManifest = {
  version: 1,
  runId: '20261201105300-0a1b2c3d',
  label: 'demo growth',
  startedAt: '2026-12-01T10:53:00.000Z',
  request: RunRequestSchema.parse({
    target: { kind: 'local' },
    engine: { kind: 'command', command: 'llama-cli -m m.gguf', tokenRegex: '\\S+' },
    intervalMs: 200,
  }),
  engine: { command: 'sh -c x', displayCommand: 'llama-cli -m m.gguf', theoryBytesPerToken: 32768, ctx: 4096 },
  collectors: ['procfs'],
  unavailable: [{ id: 'pressure', status: 'absent', reason: 'no /proc/pressure' }],
  target: null,
};

describe('run.json', () => {
  it('reads back what was written, rates and regexes that mention tokens included', () => {
    expect(parseRunManifest(runManifestText(manifest))).toEqual({ manifest });
  });

  it('scrubs fields that hold secrets before the file leaves the app', () => {
    const withSecret = { ...manifest, request: { ...manifest.request, apiKey: 'sk-live-123' } } as RunManifest;
    const text = runManifestText(withSecret);
    expect(text).not.toContain('sk-live-123');
    expect(text).toContain('"apiKey":"[scrubbed]"');
  });

  it('says what is wrong with a file it cannot use, without throwing', () => {
    expect(parseRunManifest('{"version":1,')).toEqual({ problem: 'run.json is not JSON' });
    expect(parseRunManifest('[]')).toEqual({ problem: 'run.json version undefined is unknown' });
    expect(parseRunManifest(JSON.stringify({ ...manifest, version: 2 }))).toEqual({
      problem: 'run.json version 2 is unknown',
    });
    expect(parseRunManifest(JSON.stringify({ ...manifest, request: { engine: 1 } }))).toEqual({
      problem: 'run.json: the run request does not read',
    });
    expect(parseRunManifest(JSON.stringify({ ...manifest, collectors: [1] }))).toEqual({
      problem: 'run.json lacks a field of its run',
    });
  });

  it("keeps the collectors' intervals, and leaves out ones that do not read (recovery plans them again)", () => {
    const withIntervals = { ...manifest, collectorIntervalsMs: { procfs: 200 } };
    expect(parseRunManifest(runManifestText(withIntervals))).toEqual({ manifest: withIntervals });
    for (const bad of [[200], { procfs: '200' }, { procfs: -1 }, null])
      expect(parseRunManifest(JSON.stringify({ ...manifest, collectorIntervalsMs: bad }))).toEqual({ manifest });
  });
});
