// `kvscope web` without --port serves on the same port every start, so the page's settings (kept
// in the browser's storage of its origin: theme, panel layout, alert thresholds) survive a restart
// (QA: on any free port every start lost them). Taken, it falls back to any free port and says so.
// Needs `npm run build` (out/renderer).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_PORT } from '../../../electron/node/web/web-port';
import { startCli } from '../../helpers/cli';
import { waitFor } from '../../helpers/sshd';

const home = mkdtempSync(join(tmpdir(), 'kvscope-web-port-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
});

/** `kvscope web` with no --port: the port of the URL it prints, and what it said on stderr. */
async function webWithoutPort(): Promise<{ port: number; stderr: string }> {
  const child = startCli(['web'], { KVSCOPE_HOME: home });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (err += t));
  const port = await waitFor(
    () => /^KVScope at http:\/\/127\.0\.0\.1:(\d+)\//m.exec(out)?.[1],
    `the URL (stderr: ${err})`,
    30_000,
  );
  return { port: Number(port), stderr: err };
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

describe('kvscope web without --port', () => {
  it(`serves on ${DEFAULT_WEB_PORT} each start; when that is taken, on a free port, saying so`, async () => {
    // Taken (by anything: here a plain listener): a free port, and one line about it.
    const holder = await listenOn(DEFAULT_WEB_PORT);
    const fallback = await webWithoutPort();
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    expect(fallback.port).not.toBe(DEFAULT_WEB_PORT);
    expect(fallback.stderr).toBe(
      `kvscope web: port ${DEFAULT_WEB_PORT} is in use (another KVScope?): serving on a free port; the page keeps its settings per port\n`,
    );
    // Free: the same port as the start before (and the next).
    expect((await webWithoutPort()).port).toBe(DEFAULT_WEB_PORT);
  }, 90_000);
});
