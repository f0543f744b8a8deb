// SshTarget over one real connection to a loopback sshd: exec/stream semantics, files (SFTP and
// the exec fallback that busybox boards get), signals, port forwarding, byte-exact quoting of
// arbitrary arguments, link loss and reconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ensureKeyUser,
  killConnections,
  makeTempDir,
  sessionPids,
  startSshd,
  waitFor,
  writeKnownHosts,
  type Sshd,
} from '../../helpers/sshd';
import { SshTarget, MAX_SESSION_CHANNELS, type SshTargetOptions } from '../../../electron/node/transport/ssh-target';
import { KnownHostsStore } from '../../../electron/node/transport/known-hosts';
import { shellEnv, shellJoin, shellQuote } from '../../../shared/util/shell';

let sshd: Sshd;
let dir: string;
let remoteDir: string; // the sshd runs on this machine: "remote" files are local files too
let sftpTarget: SshTarget;
let execTarget: SshTarget; // SFTP disabled: the `tail | head` / `cat >` path of busybox boards
// A non-root login: OpenSSH refuses channel signals for root sessions ("session signalling
// requires privilege separation"), so what kill()/timeouts can do is shown as a normal user.
let userTarget: SshTarget;
let userExecTarget: SshTarget;
let blob: Buffer;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function opts(over: Partial<SshTargetOptions> = {}): SshTargetOptions {
  return {
    target: { host: sshd.host, port: sshd.port, username: sshd.user, identityFiles: [sshd.clientKey.privatePath] },
    knownHosts: new KnownHostsStore({ readFiles: [join(dir, 'known_hosts')], storeFile: join(dir, 'store') }),
    agentSocket: null,
    ...over,
  };
}

beforeAll(async () => {
  sshd = await startSshd();
  dir = await makeTempDir();
  await writeKnownHosts(join(dir, 'known_hosts'), [sshd.knownHostsLine]);
  remoteDir = join(dir, 'remote');
  await mkdir(join(remoteDir, 'names'), { recursive: true });
  await chmod(dir, 0o755);
  await chmod(remoteDir, 0o1777);
  await chmod(join(remoteDir, 'names'), 0o1777);
  blob = randomBytes(3 * 1024 * 1024 + 12345);
  await writeFile(join(remoteDir, 'blob.bin'), blob);
  const keyUser = await ensureKeyUser();
  const asUser = {
    target: { host: sshd.host, port: sshd.port, username: keyUser, identityFiles: [sshd.clientKey.privatePath] },
  };
  [sftpTarget, execTarget, userTarget, userExecTarget] = await Promise.all([
    SshTarget.connect(opts()),
    SshTarget.connect(opts({ sftp: false })),
    SshTarget.connect(opts(asUser)),
    SshTarget.connect(opts({ ...asUser, sftp: false })),
  ]);
});

afterAll(async () => {
  await Promise.all([sftpTarget?.close(), execTarget?.close(), userTarget?.close(), userExecTarget?.close()]);
  await sshd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('exec', () => {
  it('runs the command line with the login shell as given: stdout, stderr, exit code', async () => {
    const r = await sftpTarget.exec(`echo out; echo err >&2; printf '%s' "$0" >&2; exit 7`);
    expect(r.stdout.toString()).toBe('out\n');
    expect(r.stderr.toString()).toMatch(/^err\n-?[a-z/]*sh$/);
    expect(r.code).toBe(7);
    expect(r.signal).toBeNull();
  });

  it('feeds stdin and closes it', async () => {
    const r = await sftpTarget.exec('wc -c', { stdin: Buffer.alloc(100_000, 7) });
    expect(r.stdout.toString().trim()).toBe('100000');
    const noInput = await sftpTarget.exec('cat');
    expect(noInput.stdout.length).toBe(0); // stdin was closed, cat did not hang
  });

  it('reports a signal death as signal, code null', async () => {
    const r = await sftpTarget.exec('kill -KILL $$');
    expect(r.code).toBeNull();
    expect(r.signal).toBe('SIGKILL');
  });

  it('a timeout answers at once and kills the remote command (non-root login)', async () => {
    const pidPath = join(remoteDir, `timeout-${randomBytes(3).toString('hex')}.pid`);
    const cmd = `sh -c ${shellQuote(`echo $$ > ${pidPath}; exec sleep 30`)}`;
    // Long enough for the remote shell to start on a loaded machine (it writes its pid first).
    const error = (await userTarget.exec(cmd, { timeoutMs: 2000 }).catch((e) => e)) as NodeJS.ErrnoException;
    expect(error.code).toBe('ETIMEDOUT');
    const pid = Number((await readFile(pidPath, 'utf8')).trim());
    expect(pid).toBeGreaterThan(1);
    await waitFor(() => !isAlive(pid), 'the timed-out remote process to be gone');
  });

  it('as root the server ignores the kill request: exec still answers at once, signal(pid) stops it', async () => {
    const pidPath = join(remoteDir, `timeout-root-${randomBytes(3).toString('hex')}.pid`);
    const cmd = `sh -c ${shellQuote(`echo $$ > ${pidPath}; exec sleep 30`)}`;
    const error = (await sftpTarget.exec(cmd, { timeoutMs: 500 }).catch((e) => e)) as NodeJS.ErrnoException;
    expect(error.code).toBe('ETIMEDOUT');
    // The server ignores the kill, so the command runs whenever it starts (later, on a loaded machine).
    const pid = await waitFor(
      async () => Number((await readFile(pidPath, 'utf8').catch(() => '')).trim()) || undefined,
      'the remote command to start',
    );
    expect(isAlive(pid)).toBe(true); // the answer did not wait for the command to end
    await waitFor(
      () => /session signalling requires privilege separation/.test(sshd.log()),
      'sshd to log the refused signal',
    );
    await sftpTarget.signal(pid, 'SIGKILL');
    await waitFor(() => !isAlive(pid), 'the process to be gone after signal(pid)');
  });

  it('never loses an exit status (it can arrive in the same TCP read as the channel confirmation)', async () => {
    // Before the fix, about 3 % of these came back with code null.
    const codes: Array<number | null> = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 75; i++) codes.push((await userTarget.exec(`exit ${(w * 75 + i) % 7}`)).code);
      }),
    );
    expect(codes.filter((c) => c === null)).toEqual([]);
    expect(codes.reduce<number>((a, c) => a + (c ?? 0), 0)).toBe(
      Array.from({ length: 300 }, (_, k) => k % 7).reduce((a, b) => a + b, 0),
    );
  });

  it('more concurrent commands than sshd MaxSessions allows all complete', async () => {
    const n = MAX_SESSION_CHANNELS * 2 + 3;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => sftpTarget.exec(`sleep 0.1; echo ${i}`)));
    expect(results.map((r) => r.stdout.toString().trim())).toEqual(Array.from({ length: n }, (_, i) => String(i)));
  });
});

describe('stream', () => {
  it('streams stdout and stderr, takes stdin, and resolves exit', async () => {
    const p = sftpTarget.stream(`while read -r l; do echo "got:$l"; echo "e:$l" >&2; done; exit 3`);
    const out: string[] = [];
    const err: string[] = [];
    p.stdout.on('data', (d: Buffer) => out.push(d.toString()));
    p.stderr.on('data', (d: Buffer) => err.push(d.toString()));
    p.stdin.write('a\n');
    p.stdin.end('b\n');
    expect(await p.exit).toEqual({ code: 3, signal: null });
    expect(out.join('')).toBe('got:a\ngot:b\n');
    expect(err.join('')).toBe('e:a\ne:b\n');
  });

  it('kill() signals the command; exit reports the signal (non-root login)', async () => {
    const p = userTarget.stream('echo started; exec sleep 30');
    p.stderr.resume();
    await new Promise<void>((resolve) => p.stdout.once('data', () => resolve()));
    p.stdout.resume();
    p.kill('SIGTERM');
    expect(await p.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });
});

describe('signal()', () => {
  it('signals a process and a whole process group', async () => {
    const pidFile = join(remoteDir, 'group.pid');
    // setsid: a new group whose id is the leader's pid; two sleepers in it.
    const p = sftpTarget.stream(`setsid sh -c 'echo $$ > ${pidFile}; sleep 30 & sleep 30 & wait'`);
    p.stdout.resume();
    p.stderr.resume();
    const pgid = Number(
      await waitFor(async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim(), 'the group leader pid'),
    );
    const members = async () =>
      (await sftpTarget.exec(`ps -e -o pid= -o pgid= | awk -v g=${pgid} '$2 == g { print $1 }'`)).stdout
        .toString()
        .trim()
        .split(/\s+/)
        .filter(Boolean);
    await waitFor(async () => (await members()).length >= 3, 'three processes in the group');
    await sftpTarget.signal(-pgid, 'SIGTERM');
    await waitFor(async () => (await members()).length === 0, 'the whole group to be gone');
    await p.exit;
    const e = (await sftpTarget.signal(pgid, 'SIGTERM').catch((x) => x)) as NodeJS.ErrnoException;
    expect(e.code).toBe('ESRCH');
  });
});

describe('files', () => {
  for (const mode of ['sftp', 'exec'] as const) {
    const t = () => (mode === 'sftp' ? sftpTarget : execTarget);

    it(`${mode}: reads a whole file and byte ranges of it`, async () => {
      const path = join(remoteDir, 'blob.bin');
      expect((await t().readFile(path)).equals(blob)).toBe(true);
      const ranges: Array<[number, number | undefined]> = [
        [0, 1],
        [1, 100],
        [65_535, 70_000],
        [1_000_000, 1_500_000],
        [blob.length - 10, 10],
        [blob.length - 10, 1000], // past the end: what is there
        [blob.length, 5],
        [blob.length + 100, 5],
        [2_000_000, undefined], // to the end
        [12345, 0],
      ];
      for (const [offset, length] of ranges) {
        const got = await t().readFile(path, { offset, length });
        const want = blob.subarray(offset, length === undefined ? undefined : offset + length);
        expect(got.equals(want), `offset ${offset} length ${length}`).toBe(true);
      }
    });

    it(`${mode}: reads procfs files whose size is 0`, async () => {
      const text = (await t().readFile('/proc/self/status')).toString();
      expect(text).toMatch(/^Name:\s+\S+/);
      expect(text).toMatch(/VmRSS|Pid:/);
      const meminfo = (await t().readFile('/proc/meminfo', { offset: 0, length: 9 })).toString();
      expect(meminfo).toBe('MemTotal:');
    });

    it(`${mode}: a missing file is ENOENT`, async () => {
      const e = (await t()
        .readFile(join(remoteDir, 'nope'))
        .catch((x) => x)) as NodeJS.ErrnoException;
      expect(e.code).toBe('ENOENT');
    });

    it(`${mode}: writeFile then exec the written script, with its mode`, async () => {
      const path = join(remoteDir, `script-${mode}.sh`);
      await t().writeFile(path, `#!/bin/sh\necho "hello from ${mode}: $1"\n`, 0o750);
      const r = await t().exec(`${shellQuote(path)} 'a b'`);
      expect(r.stdout.toString()).toBe(`hello from ${mode}: a b\n`);
      expect((await stat(path)).mode & 0o7777).toBe(0o750);
      const big = randomBytes(2 * 1024 * 1024 + 3);
      await t().writeFile(join(remoteDir, `big-${mode}.bin`), big);
      expect((await readFile(join(remoteDir, `big-${mode}.bin`))).equals(big)).toBe(true);
      await t().writeFile(join(remoteDir, `big-${mode}.bin`), 'short'); // truncates
      expect(await readFile(join(remoteDir, `big-${mode}.bin`), 'utf8')).toBe('short');
    });

    // A model path typed as ~/models/x.gguf was read as a literal "~" directory (quoted for the
    // shell, or sent as is over SFTP): not found. ~/ is the home of the user who logs in.
    it(`${mode}: a path starting with ~/ is under the login user's home; the rest stays quoted`, async () => {
      const u = mode === 'sftp' ? userTarget : userExecTarget;
      const home = (await u.exec('printf %s "$HOME"')).stdout.toString();
      expect(home).toMatch(/^\/.*kvscope-key$/);
      const folder = `kvscope-tilde-${mode}-${randomBytes(3).toString('hex')}`;
      // Quotes, $( ), a space and a ~ inside: the name reaches the file system byte for byte.
      const name = `it's $(touch pwned) ~x.gguf`;
      await mkdir(join(home, folder));
      try {
        await chmod(join(home, folder), 0o1777);
        await writeFile(join(home, folder, name), 'GGUF header');
        expect((await u.readFile(`~/${folder}/${name}`)).toString()).toBe('GGUF header');
        expect((await u.readFile(`~/${folder}/${name}`, { offset: 5, length: 3 })).toString()).toBe('hea');
        await u.writeFile(`~/${folder}/written.txt`, 'from the app');
        expect(await readFile(join(home, folder, 'written.txt'), 'utf8')).toBe('from the app');
        expect(await stat(join(home, 'pwned')).catch(() => null)).toBeNull();
        // Only ~/ and ~ alone: ~user/… is a literal path, not that user's home.
        const other = (await u.readFile(`~kvscope-key/${folder}/${name}`).catch((x) => x)) as NodeJS.ErrnoException;
        expect(other.code).toBe('ENOENT');
      } finally {
        await rm(join(home, folder), { recursive: true, force: true });
      }
    });
  }
});

describe('forwardPort', () => {
  it('forwards a local loopback port to host:port as seen from the target', async () => {
    const fwd = await sftpTarget.forwardPort('127.0.0.1', sshd.port);
    const { connect } = await import('node:net');
    const banner = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port: fwd.localPort });
      s.once('data', (d) => {
        resolve(d.toString());
        s.destroy();
      });
      s.once('error', reject);
    });
    expect(banner).toMatch(/^SSH-2\.0-OpenSSH/);
    await fwd.close();
  });
});

describe('quoting', () => {
  // Any unicode, quotes, $, backticks, newlines, leading dashes, globs — no NUL (cannot be in argv).
  const arg = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));
  const tricky = fc.constantFrom(
    "'",
    '"',
    '$HOME',
    '`id`',
    '\n',
    '-n',
    '--',
    '*',
    '\\',
    'a\'b"c',
    '$(echo x)',
    '-e \\t',
    ' ',
    '',
    '~',
    '!!',
    '%s',
  );
  const value = fc.oneof(arg, tricky);

  /** One exec: the argv, an environment value and two files' contents, each NUL-terminated. */
  async function roundTrip(
    t: SshTarget,
    args: string[],
    envValue: string,
    sftpPath: string,
    execPath: string,
  ): Promise<Buffer> {
    const r = await t.exec(
      // printf with no argument would still print its format once: a fixed first argument
      `printf '%s\\0' argv ${shellJoin(args)}; ` +
        `${shellEnv({ KV_VALUE: envValue })} sh -c 'printf "%s\\0" "$KV_VALUE"'; ` +
        `cat -- ${shellQuote(sftpPath)} ${shellQuote(execPath)}`,
    );
    expect({ stderr: r.stderr.toString(), code: r.code, signal: r.signal }).toEqual({
      stderr: '',
      code: 0,
      signal: null,
    });
    return r.stdout;
  }
  const expected = (args: string[], envValue: string, a: string, b: string) =>
    Buffer.concat([
      ...['argv', ...args, envValue].map((x) => Buffer.from(x + '\0', 'utf8')),
      Buffer.from(a + b, 'utf8'),
    ]);

  it('arguments, environment values and file names reach the remote process byte-for-byte (100 cases, one connection)', async () => {
    let i = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 6 }), value, value, async (args, envValue, nameSeed) => {
        // a file name: no '/', short enough for NAME_MAX with 4-byte characters
        const name = `f${i++}-${nameSeed.replace(/\//g, '_')}`.slice(0, 60);
        const sftpPath = join(remoteDir, 'names', `s-${name}`);
        const execPath = join(remoteDir, 'names', `e-${name}`);
        await userTarget.writeFile(sftpPath, `sftp:${name}\0`); // SFTP
        await userExecTarget.writeFile(execPath, `exec:${name}\0`); // `cat > path` with stdin
        const out = await roundTrip(userTarget, args, envValue, sftpPath, execPath);
        expect(out.equals(expected(args, envValue, `sftp:${name}\0`, `exec:${name}\0`))).toBe(true);
        expect(await readFile(sftpPath, 'utf8')).toBe(`sftp:${name}\0`);
      }),
      { numRuns: 100 },
    );
  });

  it('the same through a bash login shell (root)', async () => {
    const cases = [
      ["'", '"', '$HOME', '`id`', '\n', '-n', 'ü€𝄞', '!!', '$(echo x)', '\\', ' a  b '],
      ['-e', '--', '*', '~'],
    ];
    for (const args of cases) {
      const name = `bash-${args.join('').replace(/\//g, '_').slice(0, 30)}`;
      const sftpPath = join(remoteDir, 'names', `s-${name}`);
      const execPath = join(remoteDir, 'names', `e-${name}`);
      await sftpTarget.writeFile(sftpPath, 'A');
      await execTarget.writeFile(execPath, 'B');
      const out = await roundTrip(sftpTarget, args, args.join('\n'), sftpPath, execPath);
      expect(out.equals(expected(args, args.join('\n'), 'A', 'B'))).toBe(true);
    }
  });
});

/** Sends the signal; false when the process is gone already (ESRCH). */
function signalled(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

describe('link loss', () => {
  // Its own sshd: cutting every connection to it must not touch the shared targets above.
  let cutSshd: Sshd;
  let cutOpts: () => SshTargetOptions;
  beforeAll(async () => {
    cutSshd = await startSshd();
    await writeKnownHosts(join(dir, 'known_hosts_cut'), [cutSshd.knownHostsLine]);
    cutOpts = () => ({
      target: {
        host: cutSshd.host,
        port: cutSshd.port,
        username: cutSshd.user,
        identityFiles: [cutSshd.clientKey.privatePath],
      },
      knownHosts: new KnownHostsStore({ readFiles: [join(dir, 'known_hosts_cut')], storeFile: join(dir, 'store_cut') }),
      agentSocket: null,
    });
  });
  afterAll(async () => {
    await cutSshd?.stop();
  });

  it("emits 'down' with a reason when the connection is cut, and reconnect() brings it 'up' again", async () => {
    const t = await SshTarget.connect(cutOpts());
    const events: Array<[string, string | undefined]> = [];
    t.onLinkChange((state, reason) => events.push([state, reason]));
    expect((await t.exec('echo before')).stdout.toString()).toBe('before\n');
    await killConnections(cutSshd.host, cutSshd.port);
    await waitFor(() => events.length > 0, "the 'down' event");
    expect(events[0]?.[0]).toBe('down');
    expect(events[0]?.[1]).toMatch(/^ssh link lost: /);
    expect(t.linkState).toBe('down');
    const e = (await t.exec('echo during').catch((x) => x)) as { code?: string };
    expect(e.code).toBe('SSH_LINK_DOWN');
    await t.reconnect({ initialDelayMs: 10 });
    expect(events.map((x) => x[0])).toEqual(['down', 'up']);
    expect((await t.exec('echo after')).stdout.toString()).toBe('after\n');
    await t.close();
    expect(events.map((x) => x[0])).toEqual(['down', 'up']); // a deliberate close is not a 'down'
    const closed = (await t.exec('true').catch((x) => x)) as { code?: string };
    expect(closed.code).toBe('SSH_CLOSED');
  });

  it('reconnect() gives up after maxAttempts while the board is unreachable, and works once it is back', async () => {
    const t = await SshTarget.connect(cutOpts());
    const states: string[] = [];
    t.onLinkChange((s) => states.push(s));
    await cutSshd.pause(); // nothing listens on the port any more; the live session stays
    await killConnections(cutSshd.host, cutSshd.port);
    await waitFor(() => states.includes('down'), "the 'down' event");
    const logs: string[] = [];
    const e = (await t.reconnect({ initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 }).catch((x) => x)) as Error & {
      code?: string;
    };
    expect(e.code).toBe('SSH_UNREACHABLE');
    expect(e.message).toMatch(/connection refused/);
    void logs;
    expect(states).toEqual(['down']);
    await cutSshd.resume();
    await t.reconnect({ initialDelayMs: 5 });
    expect(states).toEqual(['down', 'up']);
    expect((await t.exec('echo back')).stdout.toString()).toBe('back\n');
    await t.close();
  });

  it("keepalive notices a board that stopped answering (no FIN, no RST) and reports 'down'", async () => {
    const t = await SshTarget.connect({ ...cutOpts(), keepaliveIntervalMs: 200, keepaliveCountMax: 2 });
    const states: Array<[string, string | undefined]> = [];
    t.onLinkChange((s, why) => states.push([s, why]));
    // The sshd processes of the port's connections (a previous test's may be ending: gone by now).
    const pids = (await sessionPids(cutSshd.port)).filter((pid) => signalled(pid, 'SIGSTOP'));
    expect(pids.length).toBeGreaterThan(0); // the TCP connection stays up, nobody answers
    try {
      await waitFor(() => states.length > 0, "the 'down' event from keepalive");
      expect(states[0]).toEqual(['down', 'ssh link lost: Keepalive timeout']);
    } finally {
      for (const pid of pids) signalled(pid, 'SIGCONT');
    }
    await t.close();
  });

  it('autoReconnect brings the link back by itself', async () => {
    const t = await SshTarget.connect({
      ...cutOpts(),
      autoReconnect: { initialDelayMs: 20, maxDelayMs: 100, maxAttempts: 20 },
    });
    const states: string[] = [];
    const up = new Promise<void>((resolve) => t.onLinkChange((s) => (states.push(s), s === 'up' && resolve())));
    await killConnections(cutSshd.host, cutSshd.port);
    await up;
    expect(states).toEqual(['down', 'up']);
    expect((await t.exec('echo back')).stdout.toString()).toBe('back\n');
    await t.close();
  });
});
