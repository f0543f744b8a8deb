// Run the real `kvscope` binary (bin/kvscope.mjs) as a child process, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const kvscopeBin = join(projectRoot, 'bin/kvscope.mjs');

/**
 * A quick demo workload for tests that need a recorded run, not a particular one: 800 tokens/s,
 * a sample every 50 ms, 8 MB of "weights".
 */
export const FAST_DEMO_ARGS = ['--tps', '800', '--interval-ms', '50', '--weights-mb', '8'];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [kvscopeBin, ...args], {
      cwd: projectRoot,
      env: { ...process.env, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function startCli(args: string[], env?: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [kvscopeBin, ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Processes whose command line contains `needle` (from /proc, no ps formatting quirks). */
export async function processesMatching(needle: string): Promise<Array<{ pid: number; cmdline: string }>> {
  const { readdir, readFile } = await import('node:fs/promises');
  const out: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replace(/\0/g, ' ').trim();
      if (cmdline.includes(needle)) out.push({ pid: Number(entry), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
