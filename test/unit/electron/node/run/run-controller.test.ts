// A run's collector lines, end to end through the run controller, fed as a recovered spool
// (RunController.replay: the live handlers, nothing done on the target): the perf interval its
// parser still holds when the run ends becomes the run's last perf sample, and a line no collector
// parser reads is counted and kept as an event with its text. The perf lines are a real perf 6.1
// capture of this VM (test/fixtures/perf/x86-vm-perf6.1-json-interval/SOURCE).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { RunRequestSchema, type RunRequest, type Sample } from '../../../../../shared/api/schemas';
import { DEFAULT_ALERT_THRESHOLDS } from '../../../../../shared/analysis/alert-thresholds';
import { MAX_KEPT_DIAGNOSTICS } from '../../../../../shared/collectors/collector';
import { RunController } from '../../../../../electron/node/run/run-controller';
import type { RunManifest } from '../../../../../electron/node/run/run-manifest';
import { LocalTarget } from '../../../../../electron/node/transport/local-target';
import { projectRoot } from '../../../../helpers/cli';
import { thermalZone } from '../../../../helpers/throttle-fixtures';

const capture = readFileSync(
  join(projectRoot, 'test/fixtures/perf/x86-vm-perf6.1-json-interval/perf-stat-x-I200-one-event.txt'),
  'utf8',
)
  .split('\n')
  .filter((l) => l !== '');

const manifest: RunManifest = {
  version: 1,
  runId: '20261201120000-0a1b2c3d',
  label: 'perf replay',
  startedAt: '2026-12-01T12:00:00.000Z',
  request: RunRequestSchema.parse({
    target: { kind: 'local' },
    engine: { kind: 'command', command: 'sleep 1' },
    intervalMs: 200,
  }),
  engine: { command: 'sh -c x', displayCommand: 'sleep 1', theoryBytesPerToken: null, ctx: null },
  collectors: ['perf'],
  unavailable: [],
  target: null,
};

describe('run controller: collector lines', () => {
  it("keeps perf's last interval at run end and keeps what it could not read", async () => {
    const bad = Array.from({ length: MAX_KEPT_DIAGNOSTICS + 5 }, (_, k) => `C perf garbage ${k}`);
    const spool = [
      'X 100.00 start launcher=4242',
      'C perf H v=1 t0=100.00 events=task-clock dropped=',
      ...capture.map((l) => `C perf ${l}`),
      ...bad,
      'X 100.50 end',
      '',
    ].join('\n');
    const run = await RunController.replay(new LocalTarget(), manifest, spool);
    const record = run.record();
    // `0.200325579,97.50,msec,task-clock,…` and, held until the run ended, `0.345183280,107.67,…`.
    expect(record.samples.filter((s) => s.source === 'perf').map((s) => [s.tMs, s.values])).toEqual([
      [200, { 'perf.task-clockUs': 97_500 }],
      [345, { 'perf.task-clockUs': 107_670 }],
    ]);
    expect(record.outcome?.collectors.perf).toMatchObject({ status: 'ok', samples: 2, diagnostics: bad.length });
    const kept = record.events.filter((e) => e.message === 'perf: not a perf stat line');
    expect(kept.map((e) => e.data)).toEqual(bad.slice(0, MAX_KEPT_DIAGNOSTICS).map((l) => ({ text: l.slice(7) })));
  });
});

describe('run controller: a recovered run judges its collectors against the intervals it was launched with', () => {
  // perf lines a second apart (the capture's line, its time moved): ten times slower than 100 ms.
  const paced = [1, 2, 3].map(
    (t) => `C perf     ${t}.000000000,97.50,msec,task-clock,97498812,100.00,0.487,CPUs utilized`,
  );
  const spool = ['X 100.00 start launcher=4242', 'C perf H v=1 t0=100.00 events=task-clock dropped=', ...paced, ''];
  const slow = /^samples came every 1(?:\.0+)? s on average, not every 100 ms as asked/;
  it.each([
    ['from run.json', { ...manifest, collectorIntervalsMs: { perf: 100 } }],
    [
      'planned again from the request where run.json has none (an older KVScope)',
      {
        ...manifest,
        request: RunRequestSchema.parse({ ...manifest.request, collectors: { perf: { intervalMs: 100 } } }),
      },
    ],
  ])('%s', async (_what, recovered) => {
    const run = await RunController.replay(new LocalTarget(), recovered, spool.join('\n'));
    const perf = run.record().outcome?.collectors.perf;
    expect(perf).toMatchObject({ status: 'ok', samples: 3 });
    expect(perf?.reason).toMatch(slow);
  });
});

describe('run controller: how the engine ended', () => {
  // The launcher's lines (electron/node/run/run-scripts.ts): sh's 128 + N for a death by signal N.
  it.each([
    ['status 0', ['X 100.40 exit code=0 pid=4243'], 'done', undefined],
    [
      'a kill -9 from elsewhere',
      ['X 100.40 exit code=137 pid=4243'],
      'failed',
      'engine ended by SIGKILL, a signal KVScope did not send (the kernel log names no OOM kill)',
    ],
    // The target's watchdog is KVScope's own: it ends an engine whose app has gone for good.
    ['the watchdog', ['X 100.30 watchdog seconds=120', 'X 100.40 exit code=143 pid=4243'], 'done', undefined],
  ])('%s', async (_what, lines, state, error) => {
    const spool = ['X 100.00 start launcher=4242', 'X 100.10 engine pid=4243', ...lines, 'X 100.50 end', ''].join('\n');
    const run = await RunController.replay(new LocalTarget(), manifest, spool);
    expect([run.status.state, run.status.error]).toEqual([state, error]);
  });
});

describe('run controller: live samples', () => {
  // The follow stream hands lines over in whatever reads the network gave (spool-follower.ts): two
  // tokens of one 10 ms tick can come in two reads with a flush of the live samples between them.
  it('tokens of one tick in two reads make one engine sample, as in the recovered run', async () => {
    vi.useFakeTimers();
    try {
      const reads = [
        ['X 100.00 start launcher=4242', 'X 100.01 engine pid=4243', 'O 100.20 a'],
        ['O 100.20 b', 'O 100.30 c'],
        ['X 100.40 exit code=0 pid=4243', 'X 100.50 end'],
      ];
      const sent: Sample[] = [];
      const noop = () => {};
      const callbacks = {
        onSamples: (s: Sample[]) => sent.push(...s),
        onEvent: noop,
        onStatus: noop,
        onOutput: noop,
        onAnalysis: noop,
      };
      const live = new RunController(new LocalTarget(), manifest.request, manifest.runId, callbacks);
      for (const read of reads) {
        // The controller's line handler, as the follower calls it (private: no seam of its own).
        for (const line of read) live['onLine'](line);
        vi.advanceTimersByTime(1000);
      }
      await live.done;
      const engine = (samples: readonly Sample[]) =>
        samples.filter((s) => s.source === 'engine').map((s) => [s.tMs, s.values.tokens]);
      expect(engine(sent)).toEqual([
        [10, 0],
        [200, 2],
        [300, 3],
      ]);
      const recovered = await RunController.replay(new LocalTarget(), manifest, [...reads.flat(), ''].join('\n'));
      expect(engine(sent)).toEqual(engine(recovered.samples));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('run controller: near-trip and throttling alerts', () => {
  // A board whose cpu-thermal zone has a fan trip at 60 °C and its passive trip at 85 °C (the probe's facts).
  const board = {
    thermal: [
      thermalZone('cpu-thermal', [
        ['active', 60],
        ['passive', 85],
      ]),
    ],
  };
  /** A procfs sampler tick (shared/collectors/procfs-sampler-script.ts) with cpu-thermal in m°C and policy0 in kHz. */
  const tick = (t: string, milliC: number, kHz: number) =>
    `C procfs S t=${t} st=1000,600,100,1,0,500,0 rss=1784 anon=108 file=1676 shmem=0 swap=0 hwm=1784 thr=1 mt=24684096 ma=24255180 mf=24096460 ca=311056 swt=0 swf=0 nvmap= cpu=1,0,1,1,0,0,0,0 pc=0,0 tz0=${milliC} cf0=${kHz}`;

  const vc = readFileSync(
    join(projectRoot, 'test/fixtures/thermal/raspberry-pi-vcgencmd/03_raspberry_pi_vcgencmd_outputs.txt'),
    'utf8',
  ).split('\n');
  const spool = [
    'X 100.00 start launcher=4242',
    'C procfs H v=1 pid=4242 pagesize=4096 clk=100 zones=cpu-thermal, policies=policy0,',
    tick('100.20', 70000, 1_800_000), // 70 °C: past the fan trip, 15 °C under the passive one
    tick('101.20', 81000, 1_800_000), // 81 °C ≥ 85 − 5: near the trip; clock at its highest: not throttled
    tick('102.20', 82000, 900_000), // hot and at half clock: throttling starts
    tick('103.20', 82500, 900_000), // still: no second alert
    tick('104.20', 60000, 1_800_000), // cool, full clock: both rules re-arm
    `C vcgencmd t=105.20|${vc[12]}|${vc[13]}`, // the firmware caps the clock at 38.6 °C
    'X 105.50 end',
    '',
  ].join('\n');
  /** The alerts of the spool replayed as a run of `request`: [tMs, rule, message]. */
  const alertsOf = async (request: RunRequest) => {
    const run = await RunController.replay(
      new LocalTarget(),
      { ...manifest, request, collectors: ['procfs', 'vcgencmd'], target: board },
      spool,
    );
    return run
      .record()
      .events.filter((e) => e.kind === 'alert')
      .map((e) => [e.tMs, e.data?.rule, e.message]);
  };

  it("raise once when they start, from the procfs sampler's zone and clock and from a Pi's get_throttled bits", async () => {
    // Section (A): `throttled=0x50005` (under-voltage and throttled now) at 38.6 °C.
    expect(vc.slice(12, 14)).toEqual(['throttled=0x50005', "temp=38.6'C"]);
    expect(await alertsOf(manifest.request)).toEqual([
      [1200, 'near-trip', 'temperature: cpu-thermal at 81.0 °C, 4.0 °C below its 85 °C trip point'],
      [2200, 'throttling', 'throttling started: clocks are capped while the board is hot'],
      [5200, 'throttling', 'throttling started: clocks are capped (rpi-throttled, rpi-under-voltage)'],
    ]);
  });

  it("follow the user's thresholds and switches the request carries (the dashboard's Alerts… popover)", async () => {
    const alertThresholds = {
      ...DEFAULT_ALERT_THRESHOLDS,
      enabled: { ...DEFAULT_ALERT_THRESHOLDS.enabled, throttling: false },
      nearTripC: 15,
    };
    // 70 °C is 15 °C below the 85 °C trip: near it at 15 °C, not at the default 5 °C; no throttling alert at all.
    expect(await alertsOf({ ...manifest.request, alertThresholds })).toEqual([
      [200, 'near-trip', 'temperature: cpu-thermal at 70.0 °C, 15.0 °C below its 85 °C trip point'],
    ]);
  });
});
