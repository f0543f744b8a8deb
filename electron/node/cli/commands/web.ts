// `kvscope web [--port N] [--open <file.kvscope>]`: browser mode. Serves the already built renderer (out/renderer) and
// the API bridge on loopback until SIGINT/SIGTERM. It builds nothing itself: `npm run build`
// (or `npm start`, which builds when needed) produces out/renderer.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createAppServices } from '../../api/create-app-services';
import { isSessionFile } from '../../session/session-store';
import { startWebServer, type WebServer } from '../../web/bridge-server';
import { DEFAULT_WEB_PORT } from '../../web/web-port';
import { packagePath } from '../../util/package-root';
import { CliError, parseCliArgs, type CliIo } from '../cli-io';

/** out/renderer at the repository (or installed package) root, wherever the command is run from. */
export const RENDERER_DIR = packagePath('out/renderer');

function parsePort(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d+$/.test(text.trim()) || Number(text) > 65535)
    throw new CliError(`--port: expected 0–65535, got "${text}"`, 2);
  return Number(text);
}

/** The --open file, or a one-line refusal that says what is wrong with it (missing, a folder, something else). */
function checkedSessionFile(path: string | undefined): string | undefined {
  if (path === undefined) return path;
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) throw new CliError(`--open ${path}: no such file`, 2);
  if (info.isDirectory()) throw new CliError(`--open ${path}: a folder, not a KVScope session file`, 2);
  if (!isSessionFile(path)) throw new CliError(`--open ${path}: not a KVScope session file`, 2);
  return path;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(args, { port: { type: 'string' }, open: { type: 'string' } }, false);
  const port = parsePort(values.port);
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new CliError('run `npm run build` first');

  // --open <file.kvscope>: the window shows that session when it opens.
  const services = createAppServices({ shell: 'web', openSessionFile: checkedSessionFile(values.open) });
  let server: WebServer;
  const serve = (on: number) => startWebServer({ services, staticDir: RENDERER_DIR, port: on });
  try {
    if (port !== null) server = await serve(port);
    else
      server = await serve(DEFAULT_WEB_PORT).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRINUSE') throw error;
        io.err(
          `kvscope web: port ${DEFAULT_WEB_PORT} is in use (another KVScope?): serving on a free port; the page keeps its settings per port\n`,
        );
        return serve(0);
      });
  } catch (error) {
    await services.dispose();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is already in use (try --port 0 for any free port)`);
    if (code === 'EACCES') throw new CliError(`port ${port} needs privileges (use a port above 1023)`);
    throw error;
  }
  io.out(`KVScope at ${server.url}\n`);

  if (!io.signal.aborted)
    await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }));
  await server.close();
  await services.dispose();
  return 0;
}
