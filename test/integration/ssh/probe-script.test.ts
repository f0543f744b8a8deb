// The probe script is POSIX sh that must run on busybox boards: run it here under dash, bash and
// busybox ash with ONLY busybox applets on PATH (apt package busybox), and check each parses to
// the same facts. Also: dash's byte-at-a-time `read` cannot read /proc/sys files (they answer
// only a read at offset 0), which the script works around — checked against the files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../../helpers/sshd';
import { PROBE_SCRIPT } from '../../../electron/node/probe/probe-script';
import { parseProbeOutput } from '../../../shared/probe/probe-parser';
import type { ProbeResult } from '../../../shared/probe/probe-schema';

let busyboxPath: string;
let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('kvscope-busybox-');
  busyboxPath = join(dir, 'bin');
  mkdirSync(busyboxPath);
  const applets = execFileSync('busybox', ['--list']).toString().trim().split('\n');
  for (const a of applets) symlinkSync('/bin/busybox', join(busyboxPath, a));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function runScript([command, ...args]: [string, ...string[]], env: NodeJS.ProcessEnv): ProbeResult {
  const r = spawnSync(command, [...args, '-s'], { input: PROBE_SCRIPT, env, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return parseProbeOutput(r.stdout);
}

// Facts that do not change between two runs a moment apart.
const stable = (p: ProbeResult) => ({
  arch: p.arch,
  kernel: p.kernel,
  distro: p.distro,
  uid: p.uid,
  cpu: p.cpu,
  pageSizeBytes: p.pageSizeBytes,
  thp: p.thp,
  vm: p.vm,
  cgroup: p.cgroup,
  perfParanoid: p.perf.eventParanoid,
  zram: p.zram.map((z) => ({ ...z, origDataBytes: null, comprDataBytes: null })),
  smapsRollup: p.smapsRollup,
  swapTotal: p.memory.swapTotalBytes,
  memTotal: p.memory.totalBytes,
  thermal: p.thermal.map((z) => ({ zone: z.zone, type: z.type, trips: z.trips })),
  devfreq: p.devfreq.map((d) => d.name),
  hasTmp: p.tmpDisk !== null,
});

describe('the probe script', () => {
  it('gives the same facts under dash, bash and busybox ash with only busybox applets', () => {
    const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };
    const dash = runScript(['dash'], base);
    const bash = runScript(['bash', '--norc', '--noprofile'], base);
    const busybox = runScript([join(busyboxPath, 'sh')], { PATH: busyboxPath, HOME: '/tmp' });
    expect(dash.diagnostics).toEqual([]);
    expect(busybox.diagnostics).toEqual([]);
    expect(stable(bash)).toEqual(stable(dash));
    // busybox 1.35 has no getconf: the page size comes from smaps' KernelPageSize instead
    expect(stable(busybox)).toEqual(stable(dash));
    expect(busybox.arch).not.toBeNull();
    expect(busybox.memory.meminfoKb.MemTotal).toBeGreaterThan(0);
  });

  it('reads /proc/sys values whole (dash would read "5" of "50" with `read`)', () => {
    const p = runScript(['dash'], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(p.vm.swappiness).toBe(Number(readFileSync('/proc/sys/vm/swappiness', 'utf8')));
    expect(p.vm.minFreeKbytes).toBe(Number(readFileSync('/proc/sys/vm/min_free_kbytes', 'utf8')));
    expect(p.perf.eventParanoid).toBe(Number(readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8')));
  });

  it('leaves the rest of its stdin alone (every command reads /dev/null, not the script)', () => {
    const r = spawnSync('dash', ['-s'], { input: PROBE_SCRIPT + 'echo after-the-probe\n', encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().endsWith('@@kvscope:end@@\nafter-the-probe')).toBe(true);
  });
});
