// The Thermal and clocks panel of a Jetson whose PMIC die zone reads an alarm level
// (shared/analysis/alarm-sensors.ts): real tegrastats lines and a real Nano's sysfs zones, through
// the collectors' parsers into the dashboard's series store.
import { describe, expect, it } from 'vitest';
import { mergeEvents } from '../../../../../../renderer/src/ui/dashboard/EventsStrip';
import { formatReading } from '../../../../../../renderer/src/ui/dashboard/format-unit';
import {
  buildPanelTracks,
  SERIES_PALETTE,
  seriesPoints,
  trackColors,
  type TrackModel,
} from '../../../../../../renderer/src/ui/dashboard/panel-model';
import { PointsCache } from '../../../../../../renderer/src/ui/dashboard/points-cache';
import { describeSeries } from '../../../../../../renderer/src/ui/dashboard/series-catalog';
import { SeriesStore } from '../../../../../../renderer/src/ui/dashboard/series-store';
import { yRange } from '../../../../../../renderer/src/ui/dashboard/track-painter';
import { alarmEpisodesOf } from '../../../../../../shared/analysis/alarm-sensors';
import {
  fixtureLines,
  nanoSamplerSamples,
  pmicAlarmMilli,
  tegrastatsSamples,
} from '../../../../../helpers/pmic-fixtures';

/** The Xavier NX under full stress (JetPack 4.6): PMIC@100C on every line, the real sensors 42.5–45 °C. */
const XAVIER_NX = fixtureLines('tegrastats/xavier-nx-and-nano-jp4.6/nano_tx2nx_xaviernx_aiblox_stresstest.txt').slice(
  0,
  3,
);

function thermalTracks(store: SeriesStore): TrackModel[] {
  return buildPanelTracks({ store, budgetBytes: null, tripsC: {}, roofline: null }).thermal;
}

/** A track's y range over the whole of the store's run, as the painter computes it. */
function rangeOf(track: TrackModel, store: SeriesStore): [number, number] {
  const cache = new PointsCache();
  const [t0, t1] = store.timeRange() ?? [0, 1];
  const input = {
    store,
    cache,
    domain: { t0, t1: Math.max(t1, t0 + 1) },
    plotWidthPx: 800,
    roofline: null,
    promptTokens: 0,
  };
  return yRange(
    track,
    track.series.map((s) => seriesPoints(s, input)),
  );
}

describe('the Thermal and clocks panel of a Jetson with a PMIC die zone', () => {
  it("tegrastats' PMIC@…C and the sampler's PMIC-Die go to a track of their own, never the temperature track", () => {
    expect(describeSeries('tegra.temp.PMIC.C')).toMatchObject({ panel: 'thermal', track: 'alarm-level' });
    expect(describeSeries('temp.PMIC-Die.C')).toMatchObject({ panel: 'thermal', track: 'alarm-level' });
    expect(describeSeries('trip.PMIC-Die.0.C')).toMatchObject({ panel: 'thermal', track: 'alarm-level' });
    expect(describeSeries('tegra.temp.GPU.C')).toMatchObject({ panel: 'thermal', track: 'temperature' });
    expect(describeSeries('temp.CPU-therm.C')).toMatchObject({ panel: 'thermal', track: 'temperature' });
  });

  it("the temperature track's scale is the real sensors' (40–45.3 °C), not stretched to the PMIC's 100 °C", () => {
    const store = new SeriesStore();
    store.ingest(tegrastatsSamples(XAVIER_NX));
    const tracks = thermalTracks(store);
    const temperature = tracks.find((t) => t.id === 'temperature');
    const alarm = tracks.find((t) => t.id === 'alarm-level');
    expect(temperature?.series.map((s) => s.key)).toEqual([
      'tegra.temp.AO.C',
      'tegra.temp.AUX.C',
      'tegra.temp.CPU.C',
      'tegra.temp.GPU.C',
      'tegra.temp.thermal.C',
    ]);
    // By hand from the three lines: lowest AO@42.5C, highest GPU@45C / CPU@45C → floor(42.5 − 2) = 40,
    // 45 + 6 % of (45 − 40) = 45.3.
    const [lo, hi] = rangeOf(temperature as TrackModel, store);
    expect(lo).toBe(40);
    expect(hi).toBeCloseTo(45.3, 10);
    // The PMIC's own track, read against the driver's two alarm levels.
    expect(alarm?.series.map((s) => s.key)).toEqual(['tegra.temp.PMIC.C']);
    expect(alarm?.refLines.map((r) => [r.y, r.label])).toEqual([
      [120, 'alarm 1: 120 °C'],
      [140, 'alarm 2: 140 °C'],
    ]);
    // Both levels stay in its range: 98 (100 − 2) to 140 + 6 % of 42.
    const [alo, ahi] = rangeOf(alarm as TrackModel, store);
    expect(alo).toBe(98);
    expect(ahi).toBeCloseTo(142.52, 10);
  });

  it('a build printing PMIC@50C (TX2 NX, JetPack 4.6): the alarm levels are still drawn above it', () => {
    const store = new SeriesStore();
    store.ingest(tegrastatsSamples(fixtureLines('tegrastats/tx2nx-jp4.6/tx2nx_jp4.6_jetsonstats_issue187.txt')));
    const alarm = thermalTracks(store).find((t) => t.id === 'alarm-level') as TrackModel;
    const [lo, hi] = rangeOf(alarm, store);
    expect(lo).toBe(48);
    expect(hi).toBeGreaterThan(140);
  });

  it('the readout says the alarm, with the number read; other series read as before', () => {
    expect(formatReading('celsius', 'tegra.temp.PMIC.C', 100)).toBe('no alarm, reads 100.0 °C');
    expect(formatReading('celsius', 'temp.PMIC-Die.C', 50)).toBe('no alarm, reads 50.0 °C');
    expect(formatReading('celsius', 'temp.PMIC-Die.C', 120)).toBe('alarm 1 (the die passed 120 °C), reads 120.0 °C');
    expect(formatReading('celsius', 'tegra.temp.GPU.C', 45)).toBe('45.0 °C');
    expect(formatReading('celsius', 'temp.PMIC-Die.C', null)).toBe('–');
  });

  it('an alarm firing (the written PMIC-Die readings on the real Nano) is an event of the Events panel', () => {
    const store = new SeriesStore();
    store.ingest(nanoSamplerSamples(pmicAlarmMilli(), [1_479_000]));
    const alarms = alarmEpisodesOf((k) => store.get(k), store.keys());
    const events = mergeEvents([{ tMs: 0, kind: 'start', message: 'engine: llama-cli' }], [], [], alarms);
    expect(events.map((e) => [e.tMs, e.kind, e.message])).toEqual([
      [0, 'start', 'engine: llama-cli'],
      [
        1000,
        'alert',
        'PMIC die-temperature alarm 2 (the die passed 140 °C): cleared after 3.0 s, read on temperature: PMIC-Die',
      ],
    ]);
  });
});

describe('thermal trip points on the dashboard (the board sysfs collector reads them at its first tick)', () => {
  // An Orange Pi 5 (RK3588S) from the shared corpus (sbc-bench 4D0a, `sensors`): soc_thermal at
  // +26.8 C with crit = +115.0 C; the fixture tree's soc-thermal trip_point_0_temp is 115000.
  const samples = [
    { tMs: 0, source: 'boardsysfs', values: { 'trip.soc-thermal.0.C': 115 } },
    ...[0, 1000, 2000].map((tMs) => ({ tMs, source: 'procfs', values: { 'temp.soc-thermal.C': 26.8 } })),
  ];

  it('go to a track of their own: a 115 °C limit never sets the scale of a 26.8 °C reading', () => {
    expect(describeSeries('trip.soc-thermal.0.C')).toMatchObject({ panel: 'thermal', track: 'limits' });
    const store = new SeriesStore();
    store.ingest(samples);
    const tracks = thermalTracks(store);
    const temperature = tracks.find((t) => t.id === 'temperature') as TrackModel;
    expect(temperature.series.map((s) => s.key)).toEqual(['temp.soc-thermal.C']);
    expect(tracks.find((t) => t.id === 'limits')?.series.map((s) => s.key)).toEqual(['trip.soc-thermal.0.C']);
    // A flat 26.8 °C: the painter's range around it, far below the trip.
    const [, hi] = rangeOf(temperature, store);
    expect(hi).toBeLessThan(40);
  });
});

describe('the colours of a track', () => {
  it("never gives a series the fixed colour of another in its track (PSS was drawn in RSS's blue)", () => {
    const keys = ['pssBytes', 'rssBytes', 'rssAnonBytes', 'rssFileBytes', 'swapBytes'];
    const colors = trackColors(keys);
    expect(new Set(colors).size).toBe(keys.length);
    // The fixed ones keep theirs, as the memory chart draws them.
    expect(colors.slice(1, 4)).toEqual(['#4c9bff', '#f0a020', '#2fb87e']);
    // A track without fixed series takes the palette in order.
    expect(trackColors(['a', 'b'])).toEqual(SERIES_PALETTE.slice(0, 2));
    // More series than free colours: they repeat, none left without one.
    expect(trackColors(Array.from({ length: 20 }, (_, i) => `k${i}`)).every((c) => SERIES_PALETTE.includes(c))).toBe(
      true,
    );
  });
});
