// The known_hosts files ssh(1) reads are the ones KVScope checks a host key against: every file of
// a ~/.ssh/config `UserKnownHostsFile` line, not only the first. A key another of them holds for
// the board is its key: a different one presented is CHANGED and refused, even with
// --accept-new-host-key (which trusts unknown keys only). Real sshd, real CLI, a hashed entry
// written by ssh-keygen -H, the board reached through its ~/.ssh/config alias.
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { generateKey, makeTempDir, startSshd, writeKnownHosts, type Sshd } from '../../helpers/sshd';

const run = promisify(execFile);
let sshd: Sshd;
let dir: string;

beforeAll(async () => {
  sshd = await startSshd();
  dir = await makeTempDir();
});
afterAll(async () => {
  await sshd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * `probe board` through an alias whose UserKnownHostsFile lists an empty file, then `second`
 * (hashed); `configLines` are added to the alias's section.
 */
async function probeThroughAlias(name: string, second: string[], configLines: string[], ...more: string[]) {
  const first = await writeKnownHosts(join(dir, `${name}_first`), []);
  const hashed = await writeKnownHosts(join(dir, `${name}_second`), second);
  await run('ssh-keygen', ['-H', '-f', hashed]);
  const config = join(dir, `${name}_config`);
  await writeFile(
    config,
    [
      'Host board',
      `  HostName ${sshd.host}`,
      `  Port ${sshd.port}`,
      `  User ${sshd.user}`,
      `  IdentityFile ${sshd.clientKey.privatePath}`,
      `  UserKnownHostsFile ${first} ${hashed}`,
      ...configLines.map((line) => `  ${line}`),
      '',
    ].join('\n'),
  );
  const env = { KVSCOPE_HOME: join(dir, `${name}_home`), KVSCOPE_SSH_CONFIG: config, KVSCOPE_DEBUG: '' };
  return runCli(['probe', 'board', '--json', ...more], { env, timeoutMs: 60_000 });
}

describe('UserKnownHostsFile with several files', () => {
  it('another key hashed in the second file: refused as CHANGED, also with --accept-new-host-key', async () => {
    const other = await generateKey(join(dir, 'other_host_key'));
    const r = await probeThroughAlias(
      'changed',
      [`${sshd.knownHostsName} ${other.publicLine}`],
      [],
      '--accept-new-host-key',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^kvscope probe: HOST KEY CHANGED for \[127\.0\.0\.1\]:\d+: .*_second:1 .*; refused/m);
    expect(r.stderr).toContain(other.fingerprint);
    expect(r.stdout).toBe('');
  });

  it('the right key hashed in the second file: known, no consent needed', async () => {
    const r = await probeThroughAlias('known', [sshd.knownHostsLine], []);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('added the host key');
    expect((JSON.parse(r.stdout) as { uid: number }).uid).toBe(process.getuid?.());
  });
});

// GlobalKnownHostsFile names the fleet's files in place of /etc/ssh/ssh_known_hosts{,2}: a key
// pinned there is the board's key, as for ssh(1).
describe('GlobalKnownHostsFile', () => {
  it('another key in the global file the config names: refused as CHANGED, also with --accept-new-host-key', async () => {
    const other = await generateKey(join(dir, 'global_other_host_key'));
    const fleet = await writeKnownHosts(join(dir, 'fleet_changed'), [`${sshd.knownHostsName} ${other.publicLine}`]);
    const r = await probeThroughAlias('global-changed', [], [`GlobalKnownHostsFile ${fleet}`], '--accept-new-host-key');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^kvscope probe: HOST KEY CHANGED for \[127\.0\.0\.1\]:\d+: .*fleet_changed:1 .*; refused/m,
    );
    expect(r.stdout).toBe('');
  });

  it('the right key in the global file the config names: known, no consent needed', async () => {
    const fleet = await writeKnownHosts(join(dir, 'fleet_known'), [sshd.knownHostsLine]);
    const r = await probeThroughAlias('global-known', [], [`GlobalKnownHostsFile ${fleet}`]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('added the host key');
    expect((JSON.parse(r.stdout) as { uid: number }).uid).toBe(process.getuid?.());
  });
});

// ssh(1) looks the key up under HostKeyAlias, as written (no `[host]:port`): a board behind a
// tunnel or one of several sshds on a host is pinned there, and the key recorded there is its key.
describe('HostKeyAlias', () => {
  it('another key recorded under the alias: refused as CHANGED, also with --accept-new-host-key', async () => {
    const other = await generateKey(join(dir, 'alias_other_host_key'));
    const r = await probeThroughAlias(
      'alias-changed',
      [`orin-lab ${other.publicLine}`],
      ['HostKeyAlias orin-lab'],
      '--accept-new-host-key',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^kvscope probe: HOST KEY CHANGED for orin-lab: .*_second:1 .*; refused/m);
    expect(r.stdout).toBe('');
  });

  it('the right key recorded under the alias: known, no consent needed', async () => {
    const hostKeyLine = sshd.knownHostsLine.slice(sshd.knownHostsName.length + 1);
    const r = await probeThroughAlias('alias-known', [`orin-lab ${hostKeyLine}`], ['HostKeyAlias orin-lab']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { uid: number }).uid).toBe(process.getuid?.());
  });
});
