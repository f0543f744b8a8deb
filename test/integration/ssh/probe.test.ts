// The probe over a real SSH connection to this machine, checked against what this machine says
// through other means (node:os, files read directly, tools run directly); and the CLI contract
// of `kvscope probe`: one JSON document, one line on stderr when it cannot connect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { rm, statfs } from 'node:fs/promises';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { hostname, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { generateKey, makeTempDir, startSshd, writeKnownHosts, type Sshd } from '../../helpers/sshd';
import { SshTarget } from '../../../electron/node/transport/ssh-target';
import { KnownHostsStore } from '../../../electron/node/transport/known-hosts';
import { probeTarget } from '../../../electron/node/probe/probe';
import { ProbeReportSchema, ProbeResultSchema } from '../../../shared/probe/probe-schema';

const run = promisify(execFile);
const repo = resolve(__dirname, '../../..');
let sshd: Sshd;
let dir: string;
let knownHosts: string;

beforeAll(async () => {
  sshd = await startSshd();
  dir = await makeTempDir();
  knownHosts = await writeKnownHosts(join(dir, 'known_hosts'), [sshd.knownHostsLine]);
});
afterAll(async () => {
  await sshd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('probeTarget over SSH', () => {
  it('gathers the facts of this machine in one exec', async () => {
    const t = await SshTarget.connect({
      target: { host: sshd.host, port: sshd.port, username: sshd.user, identityFiles: [sshd.clientKey.privatePath] },
      knownHosts: new KnownHostsStore({ readFiles: [knownHosts], storeFile: join(dir, 'store') }),
      agentSocket: null,
    });
    const offset = sshd.logSize();
    const p = await probeTarget(t);
    await t.close();
    expect(ProbeResultSchema.parse(p)).toEqual(p);
    // one exec: one "Starting session" for the probe
    expect(sshd.logSince(offset).match(/Starting session: command/g)?.length).toBe(1);
    expect(p.diagnostics).toEqual([]);
    expect(p.arch).toBe(execFileSync('uname', ['-m']).toString().trim());
    expect(p.kernel).toBe(release());
    expect(p.hostname).toBe(hostname());
    expect(p.uid).toBe(process.getuid?.());
    const osRelease = readFileSync('/etc/os-release', 'utf8');
    expect(p.distro).toBe(/^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1]);
    expect(p.memory.totalBytes).toBe(totalmem());
    expect(p.memory.availableBytes).toBeGreaterThan(0);
    expect(p.memory.availableEstimated).toBe(false);
    expect(p.cpu.count).toBe(Number(execFileSync('nproc').toString().trim()));
    expect(p.pageSizeBytes).toBe(Number(execFileSync('getconf', ['PAGESIZE']).toString().trim()));
    const thp = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8');
    expect(p.thp.enabled).toBe(thp.slice(thp.indexOf('[') + 1, thp.indexOf(']')));
    const perfPath = execFileSync('sh', ['-c', 'command -v perf || true']).toString().trim();
    expect(p.perf.path).toBe(perfPath || null);
    expect(p.perf.eventParanoid).toBe(Number(readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8')));
    // perf (apt linux-perf) is installed in CI; `perf --version` exits 0 there
    expect(p.perf.usable).toBe(perfPath ? spawnSync(perfPath, ['--version']).status === 0 : null);
    expect(p.vm.swappiness).toBe(Number(readFileSync('/proc/sys/vm/swappiness', 'utf8')));
    expect(p.smapsRollup).toBe(existsSync('/proc/self/smaps_rollup'));
    expect(p.tools.node).toBe(execFileSync('sh', ['-c', 'command -v node']).toString().trim());
    expect(p.nodeVersion).toBe(process.version);
    const cg = readFileSync('/proc/self/cgroup', 'utf8');
    expect(p.cgroup.version).toBe(/^\d+:memory:/m.test(cg) ? 1 : 2);
    expect(p.cgroup.levels.length).toBeGreaterThan(0);
    const fs = await statfs('/tmp');
    expect(p.tmpDisk?.totalBytes).toBeGreaterThan(0);
    expect(Math.abs((p.tmpDisk?.totalBytes ?? 0) - fs.blocks * fs.bsize)).toBeLessThan(fs.bsize * 1024 + 1024 * 1024);
    expect(p.uptimeSec).toBeGreaterThan(0);
    expect(p.loadAvg).toHaveLength(3);
    expect(p.targetEpochSec).toBeGreaterThan(1_600_000_000);
  });
});

describe('kvscope probe (CLI)', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [join(repo, 'bin/kvscope.mjs'), ...args], {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        KVSCOPE_HOME: join(dir, 'home'),
        KVSCOPE_SSH_CONFIG: '/dev/null',
        ...env,
      },
      timeout: 60_000,
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const target = () => `${sshd.user}@127.0.0.1:${sshd.port}`;
  /** `kvscope probe` of the test sshd with the client key, trusting the keys in `knownHostsFile`. */
  const probe = (knownHostsFile: string, extra: string[] = [], env: Record<string, string> = {}) =>
    cli(['probe', target(), '--identity', sshd.clientKey.privatePath, '--known-hosts', knownHostsFile, ...extra], env);
  /** The CLI's own error lines on stderr. */
  const probeLines = (stderr: string) =>
    stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('kvscope probe:'));

  it('prints one JSON document with the facts and the findings', async () => {
    const r = await probe(knownHosts, ['--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout); // the whole of stdout is one document
    const report = ProbeReportSchema.parse(doc);
    expect(report.kernel).toBe(release());
    expect(report.target).toEqual({ id: `ssh:${target()}`, label: target(), kind: 'ssh' });
    expect(Array.isArray(report.findings)).toBe(true);
    for (const f of report.findings) expect(['info', 'warn', 'error']).toContain(f.severity);
  });

  it('a refused (unknown) host key: non-zero exit, one line on stderr naming the fingerprint, nothing on stdout', async () => {
    const empty = await writeKnownHosts(join(dir, 'empty_known_hosts'), []);
    const r = await probe(empty, ['--json']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const lines = probeLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(sshd.hostKey.fingerprint);
    expect(lines[0]).toContain('--accept-new-host-key');
  });

  it('--accept-new-host-key trusts the unknown key, stores it in the app store, and works the next time without it', async () => {
    const empty = await writeKnownHosts(join(dir, 'empty_known_hosts2'), []);
    const home = join(dir, 'home-accept');
    const first = await probe(empty, ['--accept-new-host-key', '--json'], { KVSCOPE_HOME: home });
    expect(first.code).toBe(0);
    expect(readFileSync(join(home, 'known_hosts'), 'utf8')).toBe(`${sshd.knownHostsLine}\n`);
    expect(readFileSync(empty, 'utf8')).toBe('\n');
    const second = await probe(empty, ['--json'], { KVSCOPE_HOME: home });
    expect(second.code).toBe(0);
  });

  it('a changed host key: non-zero exit, one line naming both fingerprints and the file:line', async () => {
    const other = await generateKey(join(dir, 'other_host'));
    const kh = await writeKnownHosts(join(dir, 'changed_known_hosts'), [
      `${sshd.knownHostsName} ${other.type} ${other.blob.toString('base64')}`,
    ]);
    const r = await probe(kh, ['--accept-new-host-key']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const line = probeLines(r.stderr);
    expect(line).toHaveLength(1);
    expect(line[0]).toContain(other.fingerprint);
    expect(line[0]).toContain(sshd.hostKey.fingerprint);
    expect(line[0]).toContain(`${kh}:1`);
  });

  it('an unreachable host and a failed authentication each give one line and a non-zero exit', async () => {
    const closed = await cli(['probe', `${sshd.user}@127.0.0.1:1`, '--known-hosts', knownHosts]);
    expect(closed.code).not.toBe(0);
    expect(probeLines(closed.stderr)).toEqual([
      'kvscope probe: cannot reach host root@127.0.0.1:1: connection refused (is sshd running on port 1?)'.replace(
        'root',
        sshd.user,
      ),
    ]);
    const stranger = await generateKey(join(dir, 'stranger'));
    const denied = await cli(['probe', target(), '--identity', stranger.privatePath, '--known-hosts', knownHosts]);
    expect(denied.code).not.toBe(0);
    const lines = probeLines(denied.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`authentication failed for ${target()}: tried key ${stranger.privatePath}`);
  });

  // QA: "ssh connection to host … failed: Connection lost before handshake" (ssh2's words).
  it('a port whose server closes at once: one line saying the connection closed before the SSH greeting', async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = await cli(['probe', `${sshd.user}@127.0.0.1:${port}`, '--known-hosts', knownHosts]);
      expect(r.code).toBe(1);
      expect(probeLines(r.stderr)).toEqual([
        `kvscope probe: host ${sshd.user}@127.0.0.1:${port} closed the connection before the SSH greeting (is port ${port} an sshd? sshd's MaxStartups, TCP wrappers or a firewall can also do this)`,
      ]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('a malformed target is a usage error (exit 2)', async () => {
    const r = await cli(['probe', 'user@host:99999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kvscope probe: target "user@host:99999": port must be 1–65535/);
  });
});
