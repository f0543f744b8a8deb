// Ctrl-C while `kvscope probe` or `kvscope recover` connects to a board that accepts the TCP
// connection and then says nothing (a hung sshd, a port forward to nowhere): the command ends at
// once with one line. The CLI catches SIGINT (cli-io.ts defaultIo) to stop runs cleanly, and
// these two commands did not listen: the first Ctrl-C was ignored until the 20 s connect timeout.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../../helpers/cli';

let server: Server;
let port = 0;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = createServer((socket) => sockets.push(socket)); // accepts, never sends a banner
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('SIGINT while connecting', () => {
  it.each(['probe', 'recover'])(
    '%s: ends within 3 s, one line "interrupted", exit 1',
    async (command) => {
      const child = startCli([command, `nobody@127.0.0.1:${port}`], { KVSCOPE_HOME: '/nonexistent-kvscope-home' });
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout?.resume();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const until = Date.now() + 15_000;
      while (!stderr.includes('connecting to host') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300)); // the TCP connection is up, the banner awaited
      const sentAt = Date.now();
      child.kill('SIGINT');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timeout);
      expect(Date.now() - sentAt).toBeLessThan(3_000);
      expect(code).toBe(1);
      expect(stderr.trimEnd().split('\n').pop()).toBe(`kvscope ${command}: interrupted`);
    },
    30_000,
  );
});
