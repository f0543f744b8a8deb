// Shared pieces of `npm run bench`.
import { readFileSync, readdirSync } from 'node:fs';
import type { RunAnalysis } from '../shared/api/schemas';
import type { RunEnd } from '../electron/node/session/session-store';

export interface BenchRow {
  name: string;
  value: string;
  note?: string;
}

/** CPU seconds (user+sys, plus reaped children) of every process in a process group. */
export function groupCpuSeconds(pgid: number, clkTck = 100): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the comm: state(0) ppid(1) pgrp(2) … utime(11) stime(12) cutime(13) cstime(14)
    if (Number(f[2]) !== pgid) continue;
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return ticks / clkTck;
}

export function machineNote(): string {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
  const cores = readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? 0;
  return `${cores}× ${cpu.trim()}`;
}

/** CPU as % of one core from clock ticks (10 ms each): below one tick over the window, say so. */
export function formatCpuPct(cpuSeconds: number, wallSeconds: number): string {
  const floorPct = (100 * 0.01) / wallSeconds;
  const pct = (100 * cpuSeconds) / wallSeconds;
  return pct < floorPct ? `< ${floorPct.toFixed(3)} %` : `${pct.toFixed(3)} %`;
}

/**
 * This machine's speed right now: ms for a fixed JavaScript loop (3·10^8 additions), the best of
 * three. A VM shared with other tenants runs at different speeds from one hour to the next (the
 * same build's renderer CPU for one session open went from 310 to 470 ms within an hour here):
 * wall-time figures are only comparable next to this one.
 */
export function machineSpeedMs(): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    let sum = 0;
    for (let i = 0; i < 3e8; i++) sum += i % 7;
    const ms = performance.now() - t0;
    if (sum !== 899_999_997) throw new Error('the reference loop added wrong');
    best = Math.min(best, ms);
  }
  return best;
}

/** How the app's recorder ends a clean run of `durationMs` (session-store.ts finishRun): outcome and analysis stored. */
export function cleanRunEnd(label: string, durationMs: number, analysis: RunAnalysis): RunEnd {
  return {
    label,
    state: 'done',
    error: null,
    endedAt: new Date().toISOString(),
    outcome: {
      exitCode: 0,
      signal: null,
      oomKilled: false,
      lostSamples: 0,
      diagnostics: 0,
      durationMs,
      stderrTail: [],
      collectors: {},
    },
    analysis,
  };
}
