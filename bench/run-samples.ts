// The samples of the benches' long run: 11 procfs series and the engine's token count (12 drawn
// series), 12 tokens a second, 20 minutes of every hour hot and clocked down. One definition for
// the UI bench's 8-hour session (ui.bench.ts) and the dashboard's live looks (dashboard-hours.bench.ts).
import type { Sample } from '../shared/api/schemas';

/** Sample `i` of a run sampled at `hz` (at 1 Hz, second i): the engine's count and a procfs tick. */
export function runSamplesAt(i: number, hz = 1): Sample[] {
  const tMs = Math.round((i * 1000) / hz);
  const tokens = Math.floor((i * 12) / hz);
  const hot = Math.floor(tMs / 1000) % 3600 > 2400;
  return [
    { tMs, source: 'engine', values: { tokens } },
    {
      tMs,
      source: 'procfs',
      values: {
        rssBytes: 900e6 + (tokens % 50_000) * 32768,
        rssAnonBytes: 800e6 + (tokens % 50_000) * 32768,
        rssFileBytes: 100e6,
        swapBytes: (i % 600) * 1000,
        memAvailableBytes: 5e9 - (tokens % 50_000) * 32768,
        memCachedBytes: 9e8 + (i % 97) * 1e5,
        'temp.cpu.C': (hot ? 92 : 60) + (i % 11) / 3,
        'temp.gpu.C': (hot ? 90 : 58) + (i % 13) / 4,
        'cpufreq.policy0.KHz': hot ? 1_200_000 : 1_984_000,
        'rail.VDD_IN.mW': 9000 + (i % 17) * 120,
        cpuBusyPct: 70 + (i % 23),
      },
    },
  ];
}
