// Sampler CPU cost: KVScope's one-awk sampler against the naive way (spawning cat or pmap every
// tick), each watching the same live process for the same time, as % of one core measured from
// /proc/<pid>/stat of the sampler's whole process group (children included).
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { procfsSamplerScript, smapsEveryTicks } from '../shared/collectors/procfs-sampler-script';
import { groupCpuSeconds, type BenchRow } from './bench-util';

const NAIVE_CAT = `while :; do cat /proc/$1/statm /proc/$1/smaps_rollup /proc/meminfo /proc/stat > /dev/null; sleep "$2"; done`;
const NAIVE_PMAP = `while :; do pmap -x "$1" > /dev/null; cat /proc/$1/statm /proc/meminfo /proc/stat > /dev/null; sleep "$2"; done`;

async function measure(script: string, args: string[], seconds: number): Promise<{ cpuPct: number; lines: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-bench-'));
  const file = join(dir, 's.sh');
  writeFileSync(file, script);
  const child = spawn('/bin/sh', [file, ...args], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  let lines = 0;
  child.stdout.on('data', (d: Buffer) => {
    for (const b of d) if (b === 10) lines++;
  });
  await new Promise((r) => setTimeout(r, 1000)); // let start-up settle; it is excluded below
  const before = groupCpuSeconds(child.pid!);
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = groupCpuSeconds(child.pid!);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  process.kill(-child.pid!, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  return { cpuPct: (100 * (after - before)) / wall, lines };
}

export async function benchSampler(seconds = Number(process.env.KVSCOPE_BENCH_SECONDS ?? 30)): Promise<BenchRow[]> {
  // A live process with a few hundred mappings to watch: a node process idling.
  const watched = spawn(
    process.execPath,
    ['-e', 'const b=[];for(let i=0;i<200;i++)b.push(Buffer.alloc(1<<20,1));setInterval(()=>{},1000)'],
    { stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 500));
  const rows: BenchRow[] = [];
  try {
    for (const intervalMs of [1000, 100]) {
      const s = intervalMs / 1000;
      const args = [String(watched.pid), String(s)];
      const ours = await measure(procfsSamplerScript(), [...args, String(smapsEveryTicks(intervalMs))], seconds);
      const cat = await measure(NAIVE_CAT, args, seconds);
      const pmap = await measure(NAIVE_PMAP, args, seconds);
      // /proc/<pid>/stat counts in clock ticks (10 ms): below one tick over the window, say so.
      const floorPct = (100 * 0.01) / seconds;
      const pct = (v: number) => (v < floorPct ? `< ${floorPct.toFixed(3)} %` : `${v.toFixed(3)} %`);
      const ratio = (v: number) =>
        ours.cpuPct < floorPct ? `≥ ${(v / floorPct).toFixed(0)}× KVScope` : `${(v / ours.cpuPct).toFixed(0)}× KVScope`;
      rows.push({
        name: `sampler CPU @ ${intervalMs} ms (KVScope awk)`,
        value: pct(ours.cpuPct),
        note: `${seconds} s, target ≤ 0.5 % at 1 s`,
      });
      rows.push({
        name: `sampler CPU @ ${intervalMs} ms (cat per tick)`,
        value: pct(cat.cpuPct),
        note: ratio(cat.cpuPct),
      });
      rows.push({
        name: `sampler CPU @ ${intervalMs} ms (pmap per tick)`,
        value: pct(pmap.cpuPct),
        note: ratio(pmap.cpuPct),
      });
    }
  } finally {
    watched.kill('SIGKILL');
  }
  return rows;
}
