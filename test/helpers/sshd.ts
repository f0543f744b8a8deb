// A REAL OpenSSH sshd on loopback for the SSH integration tests (docs/DEVELOPING.md, "The test machine"):
// absolute /usr/sbin/sshd, /run/sshd, host + client ed25519 keys made with ssh-keygen in a temp
// dir, UsePAM no, StrictModes no, Subsystem sftp internal-sftp, everything under the temp dir.
// sshd runs in the foreground (-D) as our child, so stop() kills exactly the process we started.
//
// Needs: apt packages openssh-server (sshd, ssh-keygen) and openssh-client (ssh-agent, ssh-add);
// root for password / keyboard-interactive tests (a local user with a known password, see
// ensureTestUser). Key auth works as any user.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';

const run = promisify(execFile);
export const SSHD = '/usr/sbin/sshd';

export async function makeTempDir(prefix = 'kvscope-ssh-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Poll `check` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 10_000,
  everyMs = 25,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface SshKey {
  privatePath: string;
  publicPath: string;
  /** "ssh-ed25519 AAAA… comment" */
  publicLine: string;
  type: string;
  blob: Buffer;
  /** As printed by `ssh-keygen -lf`: "SHA256:…" (an oracle independent of our code). */
  fingerprint: string;
}

export async function generateKey(
  path: string,
  options: { type?: 'ed25519' | 'rsa' | 'ecdsa'; passphrase?: string; comment?: string } = {},
): Promise<SshKey> {
  const type = options.type ?? 'ed25519';
  const args = ['-q', '-t', type, '-N', options.passphrase ?? '', '-C', options.comment ?? 'kvscope-test', '-f', path];
  if (type === 'rsa') args.splice(1, 0, '-b', '2048');
  await run('ssh-keygen', args);
  return readKey(path);
}

export async function readKey(path: string): Promise<SshKey> {
  const publicLine = readFileSync(`${path}.pub`, 'utf8').trim();
  const [t, b64] = publicLine.split(/\s+/);
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${path}.pub`]);
  const fingerprint = stdout.split(/\s+/)[1];
  if (t === undefined || b64 === undefined || fingerprint === undefined)
    throw new Error(`unexpected key files for ${path}: ${publicLine} / ${stdout}`);
  return {
    privatePath: path,
    publicPath: `${path}.pub`,
    publicLine,
    type: t,
    blob: Buffer.from(b64, 'base64'),
    fingerprint,
  };
}

export interface SshdOptions {
  listenAddress?: string;
  /** sshd LogLevel; DEBUG1 logs every "userauth-request", which tests use as evidence. */
  logLevel?: string;
  /** Public key lines for AuthorizedKeysFile (default: the generated client key). */
  authorizedKeys?: string[];
  passwordAuthentication?: boolean;
  kbdInteractiveAuthentication?: boolean;
  usePam?: boolean;
  extraConfig?: string[];
}

export interface Sshd {
  host: string;
  port: number;
  dir: string;
  hostKey: SshKey;
  /** Unencrypted client key listed in authorized_keys. */
  clientKey: SshKey;
  /** The user that key authentication logs in as (the user running the tests). */
  user: string;
  logPath: string;
  pid: number;
  /** The known_hosts name ssh(1) uses for this server: `[host]:port`. */
  knownHostsName: string;
  /** `[host]:port ssh-ed25519 AAAA…` */
  knownHostsLine: string;
  log(): string;
  logSize(): number;
  logSince(offset: number): string;
  /** Stop listening (the master process ends; live sessions stay), keeping port, keys and log. */
  pause(): Promise<void>;
  /** Listen again on the same port with the same configuration. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Start sshd on a free loopback port and wait until it answers with its SSH banner. */
export async function startSshd(options: SshdOptions = {}): Promise<Sshd> {
  const host = options.listenAddress ?? '127.0.0.1';
  const dir = await makeTempDir('kvscope-sshd-');
  await chmod(dir, 0o755); // the login user (kvscope-test) must be able to reach files under it
  if (process.getuid?.() === 0) {
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    await chmod('/run/sshd', 0o755);
  }
  const hostKey = await generateKey(join(dir, 'host_ed25519'), { comment: 'kvscope-test-host' });
  const clientKey = await generateKey(join(dir, 'client_ed25519'), { comment: 'kvscope-test-client' });
  const authorized = options.authorizedKeys ?? [clientKey.publicLine];
  await writeFile(join(dir, 'authorized_keys'), authorized.join('\n') + '\n', { mode: 0o644 });
  await chmod(join(dir, 'authorized_keys'), 0o644);
  const logPath = join(dir, 'sshd.log');
  const yes = (b: boolean | undefined, dflt: boolean) => ((b ?? dflt) ? 'yes' : 'no');

  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort(host);
    const config = [
      `Port ${port}`,
      `ListenAddress ${host}`,
      `HostKey ${hostKey.privatePath}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      `PasswordAuthentication ${yes(options.passwordAuthentication, true)}`,
      `KbdInteractiveAuthentication ${yes(options.kbdInteractiveAuthentication, false)}`,
      `UsePAM ${yes(options.usePam, false)}`,
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'Subsystem sftp internal-sftp',
      `LogLevel ${options.logLevel ?? 'DEBUG1'}`,
      'UseDNS no',
      'PrintMotd no',
      // many short connections in a row (reconnect tests, benchmarks) must not be throttled
      'MaxStartups 100:30:200',
      'MaxAuthTries 20',
      'AllowTcpForwarding yes',
      ...(options.extraConfig ?? []),
    ].join('\n');
    const configPath = join(dir, 'sshd_config');
    await writeFile(configPath, config + '\n');
    await run(SSHD, ['-t', '-f', configPath]);
    let child: ChildProcess;
    let exited: Promise<number | null>;
    const launch = async () => {
      const c: ChildProcess = spawn(SSHD, ['-D', '-f', configPath, '-E', logPath], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      c.stderr?.on('data', (d) => (stderr += String(d)));
      const e = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
      child = c;
      exited = e;
      try {
        await waitFor(
          async () => {
            if (c.exitCode !== null) throw new Error(`sshd exited: ${stderr || readIfExists(logPath)}`);
            return banner(host, port);
          },
          `sshd on ${host}:${port}`,
          10_000,
          20,
        );
      } catch (err) {
        c.kill('SIGKILL');
        await e;
        throw err;
      }
    };
    try {
      await launch();
    } catch (e) {
      lastError = e;
      continue; // the port was taken between freePort() and bind: try another
    }
    const knownHostsName = `[${host}]:${port}`;
    let stopped = false;
    const halt = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    };
    const sshd: Sshd = {
      host,
      port,
      dir,
      hostKey,
      clientKey,
      user: userInfo().username,
      logPath,
      get pid() {
        return child.pid as number;
      },
      knownHostsName,
      knownHostsLine: `${knownHostsName} ${hostKey.type} ${hostKey.blob.toString('base64')}`,
      log: () => readIfExists(logPath),
      logSize: () => (existsSync(logPath) ? statSync(logPath).size : 0),
      logSince: (offset) => readIfExists(logPath).slice(offset),
      pause: halt,
      resume: launch,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await halt();
        await rm(dir, { recursive: true, force: true });
      },
    };
    return sshd;
  }
  throw lastError as Error;
}

function readIfExists(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Connect, read the server's identification line, close. */
function banner(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    let data = '';
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(2000, () => done(false));
    s.on('data', (d) => {
      data += String(d);
      if (data.includes('SSH-2.0-')) done(true);
    });
    s.on('error', () => done(false));
    s.on('close', () => resolve(data.includes('SSH-2.0-')));
  });
}

/** Established TCP connections to a local listening port (for "the chain is torn down"). */
export async function establishedTo(host: string, port: number): Promise<number> {
  const { stdout } = await run('ss', ['-Htn', 'state', 'established', `( dst ${host} and dport = :${port} )`]);
  return stdout.split('\n').filter((l) => l.trim() !== '').length;
}

/** Pids of the sshd processes serving live connections on a listening port (for SIGSTOP tests). */
export async function sessionPids(port: number): Promise<number[]> {
  const { stdout } = await run('ss', ['-Htnp', 'state', 'established', `( sport = :${port} )`]);
  return [...new Set([...stdout.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])))];
}

/** Cut live TCP connections to host:port (client sees ECONNABORTED/ECONNRESET at once). */
export async function killConnections(host: string, port: number): Promise<void> {
  await run('ss', ['-K', 'dst', host, 'dport', '=', String(port)]);
}

export interface SshAgent {
  socket: string;
  add(keyPath: string): Promise<void>;
  stop(): Promise<void>;
}

/** A real ssh-agent on a socket in `dir`, in the foreground as our child. */
export async function startAgent(dir: string): Promise<SshAgent> {
  const socket = join(dir, `agent-${randomBytes(4).toString('hex')}.sock`);
  const child = spawn('ssh-agent', ['-D', '-a', socket], { stdio: ['ignore', 'ignore', 'ignore'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await waitFor(() => existsSync(socket), 'ssh-agent socket');
  return {
    socket,
    add: async (keyPath) => {
      await run('ssh-add', ['-q', keyPath], { env: { ...process.env, SSH_AUTH_SOCK: socket } });
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(socket, { force: true });
    },
  };
}

export const TEST_USER = 'kvscope-test';
/** A second local user for key-only logins as non-root (no password; never touched by chpasswd). */
export const KEY_USER = 'kvscope-key';

async function ensureUser(name: string): Promise<void> {
  if (process.getuid?.() !== 0)
    throw new Error(`this test needs root to create the local user ${name} (CI runs as root)`);
  try {
    await run('id', ['-u', name]);
    return;
  } catch {
    // absent
  }
  try {
    await run('useradd', ['-m', '-s', '/bin/sh', name]);
  } catch (e) {
    await run('id', ['-u', name]).catch(() => {
      throw e; // not a race with another test file creating it: a real failure
    });
  }
}

/**
 * A local user with a known password, for password and keyboard-interactive tests. Created with
 * `useradd -m` when absent; the password is random per call and set with `chpasswd`, so no
 * password is ever committed. Needs root (CI runs as root). Only one test file may call it (two
 * files setting different passwords at once would race).
 */
export async function ensureTestUser(name = TEST_USER): Promise<{ user: string; password: string }> {
  await ensureUser(name);
  // Quotes, $, spaces and non-ASCII: the password must survive every layer byte-for-byte.
  const password = `Kv'$ "pw ${randomBytes(6).toString('hex')} ü`;
  await chpasswd(`${name}:${password}`);
  return { user: name, password };
}

/**
 * A non-root user that logs in with the harness's client key (AuthorizedKeysFile is global).
 * Its password field is "*": no password login, but not "locked" (sshd refuses locked accounts).
 */
export async function ensureKeyUser(name = KEY_USER): Promise<string> {
  await ensureUser(name);
  await run('usermod', ['-p', '*', name]);
  return name;
}

function chpasswd(line: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const p = spawn('chpasswd', [], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += String(d)));
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`chpasswd failed: ${err}`))));
    p.stdin.end(`${line}\n`);
  });
}

/** Write a known_hosts file; returns its path. */
export async function writeKnownHosts(path: string, lines: string[]): Promise<string> {
  await writeFile(path, lines.join('\n') + '\n', { mode: 0o600 });
  return path;
}

/** An sshd and a known_hosts file that already trusts it: what a test that merely runs over SSH needs. */
export async function startTrustedSshd(options: SshdOptions = {}): Promise<{ sshd: Sshd; knownHosts: string }> {
  const sshd = await startSshd(options);
  const knownHosts = await writeKnownHosts(join(await makeTempDir(), 'known_hosts'), [sshd.knownHostsLine]);
  return { sshd, knownHosts };
}

/** A key-only, non-root login to this sshd (ensureKeyUser) and a known_hosts file that trusts it. */
export async function keyUserLogin(sshd: Sshd): Promise<{ user: string; knownHosts: string }> {
  const user = await ensureKeyUser();
  const knownHosts = await writeKnownHosts(join(await makeTempDir(), 'known_hosts'), [sshd.knownHostsLine]);
  return { user, knownHosts };
}

/** The target spec of a run over SSH to this sshd as `user`, with the client key and `knownHosts`. */
export function sshTargetSpec(sshd: Sshd, knownHosts: string, user = sshd.user) {
  return {
    kind: 'ssh' as const,
    host: sshd.host,
    port: sshd.port,
    user,
    identityFile: sshd.clientKey.privatePath,
    knownHostsFile: knownHosts,
  };
}

/** `<target> --identity … --known-hosts …` for a CLI command against this sshd (as `user`). */
export function sshCliTarget(sshd: Sshd, knownHosts: string, user = sshd.user): string[] {
  return [`${user}@${sshd.host}:${sshd.port}`, '--identity', sshd.clientKey.privatePath, '--known-hosts', knownHosts];
}
