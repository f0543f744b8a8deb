// Runs over SSH (loopback sshd): time to the first sample, and what KVScope costs on the target
// while it samples — the sampler pipeline alone, and everything of the run on the target
// (sampler, timestamp filters, watchdog, spool follower) — measured from /proc/<pid>/stat.
import { readFileSync, readdirSync } from 'node:fs';
import { RunRequestSchema } from '../shared/api/schemas';
import { RunService } from '../electron/node/run/run-service';
import { createTarget } from '../electron/node/transport/target-spec';
import { keyUserLogin, sshTargetSpec, startSshd } from '../test/helpers/sshd';
import { formatCpuPct, type BenchRow } from './bench-util';

interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  ticks: number;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.push({
        pid: Number(e),
        ppid: Number(f[1]),
        pgrp: Number(f[2]),
        ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
        cmdline,
      });
    } catch {
      // gone
    }
  }
  return out;
}

/** CPU ticks of the sampler pipeline and of everything of the run, excluding the engine. */
function runCpuTicks(dir: string, enginePid: number): { sampler: number; all: number } {
  const ps = processes();
  const byParent = new Map<number, Proc[]>();
  for (const p of ps) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const descendants = (root: Proc): Proc[] => [root, ...(byParent.get(root.pid) ?? []).flatMap(descendants)];
  // The launcher's forked subshells share its command line: the root is the one whose parent differs.
  const isLauncher = (p: Proc | undefined) => !!p && p.cmdline.includes(`launcher.sh ${dir}`);
  const byPid = new Map(ps.map((p) => [p.pid, p]));
  const launcher = ps.find((p) => isLauncher(p) && !isLauncher(byPid.get(p.ppid)));
  const all = new Set([
    ...(launcher ? descendants(launcher) : []),
    ...ps.filter((p) => p.cmdline.includes(`${dir}/spool`)),
  ]);
  for (const p of [...all]) if (p.pid === enginePid || p.pgrp === enginePid) all.delete(p);
  const sampler = new Set(
    [...all].filter((p) => p.cmdline.includes('sampler.sh') || p.cmdline.includes('gone=1')).flatMap(descendants),
  );
  const sum = (s: Set<Proc>) => [...s].reduce((a, p) => a + p.ticks, 0);
  return { sampler: sum(sampler), all: sum(all) };
}

export async function benchSshRun(seconds = Number(process.env.KVSCOPE_BENCH_SECONDS ?? 30)): Promise<BenchRow[]> {
  const sshd = await startSshd();
  const rows: BenchRow[] = [];
  try {
    const { user, knownHosts } = await keyUserLogin(sshd);
    const spec = sshTargetSpec(sshd, knownHosts, user);
    for (const intervalMs of [1000, 100]) {
      let firstSampleAt = 0;
      const t0 = performance.now();
      const service = new RunService(
        (event, payload) => {
          if (
            event === 'runSamples' &&
            !firstSampleAt &&
            (payload as { samples: Array<{ source: string }> }).samples.some((s) => s.source === 'procfs')
          )
            firstSampleAt = performance.now();
        },
        (s) => createTarget(s),
      );
      // An idle engine: what is measured is KVScope's own cost.
      const run = await service.start(
        RunRequestSchema.parse({ target: spec, engine: { kind: 'command', command: 'sleep 600' }, intervalMs }),
      );
      const started = performance.now();
      while (!run.enginePid) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 2000));
      const before = runCpuTicks(run.dir, run.enginePid);
      const w0 = performance.now();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const after = runCpuTicks(run.dir, run.enginePid);
      const wall = (performance.now() - w0) / 1000;
      await run.stop();
      await service.dispose();
      const pct = (ticks: number) => formatCpuPct(ticks / 100, wall);
      if (intervalMs === 1000) {
        rows.push({
          name: 'start over SSH (connect, upload, launch)',
          value: `${(started - t0).toFixed(0)} ms`,
          note: 'loopback sshd',
        });
        rows.push({
          name: 'first sample after start() over SSH',
          value: `${(firstSampleAt - t0).toFixed(0)} ms`,
          note: 'connect + upload + launch + first tick',
        });
      }
      rows.push({
        name: `on-target CPU @ ${intervalMs} ms: sampler`,
        value: pct(after.sampler - before.sampler),
        note: `${seconds} s, % of one core, 10 ms tick resolution`,
      });
      rows.push({
        name: `on-target CPU @ ${intervalMs} ms: whole run`,
        value: pct(after.all - before.all),
        note: 'sampler + filters + watchdog + spool follower',
      });
    }
  } finally {
    await sshd.stop();
  }
  return rows;
}
