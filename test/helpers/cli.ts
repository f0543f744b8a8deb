// Run the real `kvscope` binary (bin/kvscope.mjs) as a child process, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { waitFor } from './sshd';

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
  options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [kvscopeBin, ...args], {
      cwd: options.cwd ?? projectRoot,
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

/** argv of `kvscope profile <target> --engine <command> <more…>`; the target is `local` or an SSH target's words. */
export function profileArgs(target: string | readonly string[], engine: string, ...more: string[]): string[] {
  return ['profile', ...(typeof target === 'string' ? [target] : target), '--engine', engine, ...more];
}

/** Run the CLI, fail with its stderr unless it exits 0, and return its stdout parsed as JSON (`--json`). */
export async function runCliJson(args: string[], options: Parameters<typeof runCli>[1] = {}): Promise<CliJson> {
  const r = await runCli(args, options);
  if (r.code !== 0) throw new Error(`kvscope ${args[0] ?? ''} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A `--json` document as the tests read it: untyped, each test asserts the fields it cares about. */
export type CliJson = ReturnType<typeof JSON.parse>;

/**
 * Run the CLI where it must fail: exit code 1, nothing on stdout (external scripts read stdout only
 * on success). Returns stderr for the test to check why.
 */
export async function runCliFailing(args: string[], options: Parameters<typeof runCli>[1] = {}): Promise<string> {
  const r = await runCli(args, options);
  if (r.code !== 1 || r.stdout !== '')
    throw new Error(`kvscope ${args[0] ?? ''}: expected exit 1 and no stdout, got ${r.code}: ${r.stdout}${r.stderr}`);
  return r.stderr;
}

/** The target's watchdog period for runs a test kills: the engine ends 2 s after the heartbeats stop. */
export const KILL_TEST_WATCHDOG_ENV = { KVSCOPE_WATCHDOG_S: '2' };

/**
 * `kvscope profile <args> --demo --tokens 100000`: a demo run that lasts until a test kills it, with
 * the 2 s watchdog. Resolves once the CLI has announced its run directory on the target.
 */
export async function startEndlessDemo(
  args: string[],
): Promise<{ child: ChildProcess; runDir: string; stderr: () => string }> {
  const child = startCli(['profile', ...args, '--demo', '--tokens', '100000'], KILL_TEST_WATCHDOG_ENV);
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const runDir = await waitFor(() => /run directory (\S+)/.exec(stderr)?.[1], 'the run directory', 30_000);
  return { child, runDir, stderr: () => stderr };
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
