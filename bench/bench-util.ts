// Shared pieces of `npm run bench`.
import { readFileSync, readdirSync } from 'node:fs';

export interface BenchRow {
  name: string;
  value: string;
  note?: string;
}

/** CPU seconds (user+sys, plus the children they reaped) of a process group's members, by comm. */
export function groupCpuByComm(pgid: number, clkTck = 100): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the comm: state(0) ppid(1) pgrp(2) … utime(11) stime(12) cutime(13) cstime(14)
    if (Number(f[2]) !== pgid) continue;
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    out.set(comm, (out.get(comm) ?? 0) + ticks / clkTck);
  }
  return out;
}

/** CPU seconds (user+sys, plus reaped children) of every process in a process group. */
export function groupCpuSeconds(pgid: number, clkTck = 100): number {
  let seconds = 0;
  for (const s of groupCpuByComm(pgid, clkTck).values()) seconds += s;
  return seconds;
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
