// Starts browser mode the way a user does: the real CLI (`node bin/kvscope.mjs web --port 0`) in a
// child process, reading the URL it prints. Needs `npm run build` output (out/renderer).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RENDERER_INDEX = fileURLToPath(new URL('../../out/renderer/index.html', import.meta.url));

export interface WebMode {
  /** As printed: http://127.0.0.1:N/?token=… */
  url: string;
  origin: string;
  port: number;
  token: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code (the CLI disposes its services and exits 0). */
  stop(): Promise<number | null>;
}

const URL_LINE = /^KVScope at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))$/m;

export async function startWebMode(extraArgs: string[] = []): Promise<WebMode> {
  if (!existsSync(RENDERER_INDEX))
    throw new Error('out/renderer is missing: run `npm run build` first (`npm test` does)');
  // Every run started in the app is recorded into the app data folder: without a KVSCOPE_HOME of
  // the test's own, one of ours, removed when the server stops (never the user's ~/.config).
  const ownHome = process.env.KVSCOPE_HOME ? null : mkdtempSync(join(tmpdir(), 'kvscope-web-home-'));
  const child = spawn(process.execPath, ['bin/kvscope.mjs', 'web', '--port', '0', ...extraArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: ownHome ? { ...process.env, KVSCOPE_HOME: ownHome } : process.env,
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (ownHome) void exited.then(() => rmSync(ownHome, { recursive: true, force: true }));
  // A test process that ends without stop() (a hook timeout, a crash) must not leave a server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const m = URL_LINE.exec(out);
      if (m) {
        cleanup();
        resolve(m);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`kvscope web exited (${code}) before printing its URL: ${err.trim() || out.trim()}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`kvscope web printed no URL within 30 s: ${err.trim() || out.trim()}`));
    }, 30_000);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout.on('data', check);
    child.once('exit', onExit);
    check();
  });

  const [, url, portText, token] = match;
  if (url === undefined || portText === undefined || token === undefined)
    throw new Error(`kvscope web printed a URL line without its parts: ${match[0]}`);
  const port = Number(portText);
  return {
    url,
    origin: `http://127.0.0.1:${port}`,
    port,
    token,
    child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
