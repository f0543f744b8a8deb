// A hot run on an RK3588-class board, shared by the tests of the throttle panel, summary and
// report: its samples and the board's facts, with what they must give worked out by hand beside them.
import type { Sample } from '../../shared/api/schemas';
import type { ThermalZone } from '../../shared/probe/probe-schema';
import type { TargetFacts } from '../../shared/run/target-facts';

/** A thermal zone as the probe reports it, with its trips as [type, °C] (trip_point_0, _1… in order). */
export function thermalZone(type: string, trips: Array<[string, number]>): ThermalZone {
  return {
    zone: 'thermal_zone0',
    type,
    tempC: 50,
    unreadable: false,
    trips: trips.map(([tripType, tempC], i) => ({ name: `trip_point_${i}`, type: tripType, tempC })),
  };
}

/** An RK3588-class board: soc-thermal with a fan trip at 60 °C, the passive trip at 85 °C, critical at 115 °C. */
export const HOT_BOARD: TargetFacts = {
  kind: 'ssh',
  label: 'orangepi5',
  hostname: 'orangepi5',
  thermal: [
    thermalZone('soc-thermal', [
      ['active', 60],
      ['passive', 85],
      ['critical', 115],
    ]),
  ],
};

/**
 * 1 s thermal ticks 0…12 s: 62 °C with the clock at half from 1 to 3 s (warm past the fan trip,
 * the governor idling: not a cap), 83 °C at half clock from 6 to 8 s (within 5 °C of the passive
 * trip: throttled), else 50 °C at 2.4 GHz. Tokens every 100 ms: 2 per step, 1 per step for the
 * steps starting in [6 s, 9 s).
 */
export function hotRunSamples(): Sample[] {
  const out: Sample[] = [];
  for (let s = 0; s <= 12; s++) {
    const warm = s >= 1 && s <= 3;
    const hot = s >= 6 && s <= 8;
    out.push({
      tMs: s * 1000,
      source: 'procfs',
      values: {
        rssBytes: 600e6 + s * 1e6,
        rssAnonBytes: 500e6 + s * 1e6,
        'temp.soc-thermal.C': hot ? 83 : warm ? 62 : 50,
        'cpufreq.policy0.KHz': hot || warm ? 1_200_000 : 2_400_000,
      },
    });
  }
  let tokens = 0;
  for (let j = 1; j <= 120; j++) {
    const stepStart = (j - 1) * 100;
    tokens += stepStart >= 6000 && stepStart < 9000 ? 1 : 2;
    out.push({ tMs: j * 100, source: 'engine', values: { tokens } });
  }
  return out.sort((a, b) => a.tMs - b.tMs);
}
