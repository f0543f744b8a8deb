// ProxyJump through a second real sshd: the jump session's forwardOut stream is the board
// connection's socket, each hop's host key is verified, and the chain comes down as a whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  establishedTo,
  killConnections,
  makeTempDir,
  startSshd,
  waitFor,
  writeKnownHosts,
  type Sshd,
} from '../../helpers/sshd';
import { SshTarget, type SshTargetOptions } from '../../../electron/node/transport/ssh-target';
import { HostKeyUnknownError, KnownHostsStore } from '../../../electron/node/transport/known-hosts';

let jump: Sshd;
let board: Sshd;
let dir: string;

beforeAll(async () => {
  // Two sshd instances: the jump host on 127.0.0.1, the "board" on 127.0.0.2.
  [jump, board] = await Promise.all([startSshd(), startSshd({ listenAddress: '127.0.0.2' })]);
  dir = await makeTempDir();
});
afterAll(async () => {
  await Promise.all([jump?.stop(), board?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

function options(
  knownHostsLines: string[],
  file: string,
  over: Partial<SshTargetOptions> = {},
): Promise<SshTargetOptions> {
  return writeKnownHosts(join(dir, file), knownHostsLines).then((path) => ({
    jumps: [{ host: jump.host, port: jump.port, username: jump.user, identityFiles: [jump.clientKey.privatePath] }],
    target: { host: board.host, port: board.port, username: board.user, identityFiles: [board.clientKey.privatePath] },
    knownHosts: new KnownHostsStore({ readFiles: [path], storeFile: join(dir, `${file}.store`) }),
    agentSocket: null,
    ...over,
  }));
}

/** Connecting with only `knownHostsLines` trusted must fail on a host key: the error, for its details. */
async function refusedHostKey(knownHostsLines: string[], file: string): Promise<HostKeyUnknownError> {
  const e: unknown = await SshTarget.connect(await options(knownHostsLines, file)).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(HostKeyUnknownError);
  return e as HostKeyUnknownError;
}

describe('ProxyJump', () => {
  it('reaches the board through the jump host, and close() tears down the whole chain', async () => {
    const jumpLog = jump.logSize();
    const t = await SshTarget.connect(await options([jump.knownHostsLine, board.knownHostsLine], 'kh1'));
    // The board's session sees its own address/port as the server side of the connection.
    const r = await t.exec('echo "$SSH_CONNECTION"');
    const [, , serverIp, serverPort] = r.stdout.toString().trim().split(' ');
    expect([serverIp, Number(serverPort)]).toEqual(['127.0.0.2', board.port]);
    // The jump sshd opened that connection for us (direct-tcpip), so traffic went through it.
    await waitFor(
      () =>
        new RegExp(
          `server_request_direct_tcpip: originator 127\\.0\\.0\\.1 port 0, target 127\\.0\\.0\\.2 port ${board.port}`,
        ).test(jump.logSince(jumpLog)),
      'the jump sshd to log the forwarded connection',
    );
    expect(await establishedTo(jump.host, jump.port)).toBe(1);
    expect(await establishedTo(board.host, board.port)).toBe(1);
    await t.close();
    await waitFor(async () => (await establishedTo(jump.host, jump.port)) === 0, 'no connection to the jump host');
    await waitFor(async () => (await establishedTo(board.host, board.port)) === 0, 'no connection to the board');
  });

  it('cutting the jump connection takes the board link down (one chain), and reconnect() rebuilds it', async () => {
    const t = await SshTarget.connect(await options([jump.knownHostsLine, board.knownHostsLine], 'kh2'));
    const states: Array<[string, string | undefined]> = [];
    t.onLinkChange((s, why) => states.push([s, why]));
    await killConnections(jump.host, jump.port);
    await waitFor(() => states.length > 0, "the 'down' event");
    expect(states[0]?.[0]).toBe('down');
    // the forwarded connection to the board went with it
    await waitFor(async () => (await establishedTo(board.host, board.port)) === 0, 'the board connection to end');
    await t.reconnect({ initialDelayMs: 10 });
    expect(states.map((s) => s[0])).toEqual(['down', 'up']);
    expect((await t.exec('echo again')).stdout.toString()).toBe('again\n');
    await t.close();
  });

  it("verifies each hop's host key: an unknown JUMP host key is refused and names the jump host", async () => {
    const e = await refusedHostKey([board.knownHostsLine], 'kh3');
    expect(e.host).toBe('127.0.0.1');
    expect(e.port).toBe(jump.port);
    expect(e.fingerprint).toBe(jump.hostKey.fingerprint);
  });

  it("verifies each hop's host key: an unknown BOARD key behind a known jump host is refused, and the jump connection is closed", async () => {
    const e = await refusedHostKey([jump.knownHostsLine], 'kh4');
    expect(e.host).toBe('127.0.0.2');
    expect(e.fingerprint).toBe(board.hostKey.fingerprint);
    await waitFor(
      async () => (await establishedTo(jump.host, jump.port)) === 0,
      'the jump connection to be closed after the refusal',
    );
  });
});
