// CPU time of process trees, exactly: cgroup v1 cpuacct groups (ns, every process that ever ran
// in the group, short-lived children included). /proc/<pid>/stat counts 10 ms clock ticks and
// loses a child's time to its parent's cutime, too coarse for a 0.1 % target over a 10 s window
// (one tick is 0.1 % of a core). Needs root and the v1 cpuacct controller (this machine has both,
// see ../shared/ENVIRONMENT.md of the work tree); cpuacctProblem() says why not otherwise.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

const CPUACCT = '/sys/fs/cgroup/cpuacct';

/** Why the cgroup measurement cannot run here, or null. */
export function cpuacctProblem(): string | null {
  if (!existsSync(join(CPUACCT, 'cpuacct.usage'))) return `no cgroup v1 cpuacct controller at ${CPUACCT}`;
  try {
    accessSync(CPUACCT, constants.W_OK);
  } catch {
    return `cannot make groups in ${CPUACCT} (run the bench as root)`;
  }
  return null;
}

/** A set of cpuacct groups under one prefix, removed (and their processes killed) by dispose(). */
export class CpuGroups {
  private readonly made: string[] = [];
  constructor(private readonly prefix: string) {}

  /** The group's cgroup.procs file: write a pid there to move that process (and its future children). */
  make(name: string): string {
    const dir = join(CPUACCT, `${this.prefix}-${name}`);
    mkdirSync(dir, { recursive: true });
    if (!this.made.includes(dir)) this.made.push(dir);
    return join(dir, 'cgroup.procs');
  }

  /** CPU nanoseconds every process of the group used since it was made. */
  usageNs(name: string): number {
    return Number(readFileSync(join(CPUACCT, `${this.prefix}-${name}`, 'cpuacct.usage'), 'utf8'));
  }

  async dispose(): Promise<void> {
    for (let attempt = 0; attempt < 20 && this.made.length; attempt++) {
      for (const dir of [...this.made]) {
        const procs = existsSync(dir) ? readFileSync(join(dir, 'cgroup.procs'), 'utf8') : '';
        for (const pid of procs.split('\n').filter(Boolean)) {
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            // already gone
          }
        }
        try {
          rmdirSync(dir);
          this.made.splice(this.made.indexOf(dir), 1);
        } catch {
          // its last processes are still exiting: next attempt
        }
      }
      if (this.made.length) await new Promise((r) => setTimeout(r, 100));
    }
  }
}
