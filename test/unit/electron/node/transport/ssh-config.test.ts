// ~/.ssh/config resolution, checked against `ssh -G` (OpenSSH's own evaluation of the same file).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  listSshConfigHosts,
  readSshConfigText,
  resolveSshAlias,
} from '../../../../../electron/node/transport/ssh-config';
import { GLOBAL_KNOWN_HOSTS_FILES } from '../../../../../electron/node/transport/known-hosts';
import { makeTempDir } from '../../../../helpers/sshd';

const CONFIG = `
# boards
Host board1 b1
  HostName 10.0.0.5
  User pi
  Port 2222
  IdentityFile ~/.ssh/id_%h_%r
  IdentityFile "/path with space/key"
  IdentityFile relative_key
  ProxyJump jump1,admin@jump2:2200
  ServerAliveInterval 15

Host jetson
  hostname jetson.local
  user nvidia
  ServerAliveInterval=30
  ServerAliveCountMax=2
  ProxyJump none
  IdentitiesOnly yes
  GlobalKnownHostsFile /etc/fleet_known_hosts /srv/fleet/known_hosts2

Host *.lan !bad.lan
  User lanuser
  HostName %h.example.com

Match exec "touch /tmp/kvscope-match-exec-ran"
  User fromexec

Host *
  ServerAliveCountMax 5
  User fallback
`;

function sshG(alias: string, file: string): Record<string, string[]> {
  const out = execFileSync('ssh', ['-G', '-F', file, alias], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const map: Record<string, string[]> = {};
  for (const line of out.split('\n')) {
    const i = line.indexOf(' ');
    if (i < 0) continue;
    (map[line.slice(0, i)] ??= []).push(line.slice(i + 1));
  }
  return map;
}

/** The first value `ssh -G` printed for a key it always prints: its absence fails the test. */
function first(g: Record<string, string[]>, key: string): string {
  const v = g[key]?.[0];
  if (v === undefined) throw new Error(`ssh -G printed no ${key}`);
  return v;
}

describe('resolveSshAlias agrees with ssh -G', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-sshcfg-'));
  // `Match exec` must never run for us; ssh -G would run it, so the oracle reads a copy without it.
  const oracleFile = join(dir, 'config');
  writeFileSync(oracleFile, CONFIG.replace(/Match exec[^\n]*\n[^\n]*\n/, ''));
  const home = '/home/tester';
  for (const alias of ['board1', 'b1', 'jetson', 'x.lan', 'bad.lan', 'plain.example']) {
    it(alias, () => {
      const r = resolveSshAlias(alias, CONFIG, { homeDir: home, localUser: 'me' });
      const g = sshG(alias, oracleFile);
      expect(r.hostName).toBe(first(g, 'hostname'));
      expect(r.user).toBe(first(g, 'user'));
      expect(r.port ?? 22).toBe(Number(first(g, 'port')));
      expect(r.proxyJump.join(',')).toBe(g.proxyjump?.[0] ?? '');
      expect(r.serverAliveIntervalSec ?? 0).toBe(Number(first(g, 'serveraliveinterval')));
      expect(r.serverAliveCountMax ?? 3).toBe(Number(first(g, 'serveralivecountmax')));
      expect((r.globalKnownHostsFiles ?? GLOBAL_KNOWN_HOSTS_FILES).join(' ')).toBe(first(g, 'globalknownhostsfile'));
    });
  }

  it('never runs Match exec', () => {
    execFileSync('rm', ['-f', '/tmp/kvscope-match-exec-ran']);
    resolveSshAlias('anything', CONFIG);
    expect(() => execFileSync('test', ['-e', '/tmp/kvscope-match-exec-ran'])).toThrow();
  });
});

describe('resolveSshAlias details', () => {
  it('expands ~ and %h/%r/%u/%d in IdentityFile, keeps order, relative paths as ssh(1) does', () => {
    const r = resolveSshAlias('board1', CONFIG, { homeDir: '/home/tester', localUser: 'me' });
    expect(r.identityFiles).toEqual([
      '/home/tester/.ssh/id_10.0.0.5_pi',
      '/path with space/key',
      resolve('relative_key'),
    ]);
    expect(r.matchedAlias).toBe(true);
    expect(r.serverAliveIntervalSec).toBe(15); // seconds, as written
  });

  it('`=` separators, lower-case keywords, ProxyJump none, IdentitiesOnly', () => {
    const r = resolveSshAlias('jetson', CONFIG);
    expect([
      r.hostName,
      r.user,
      r.serverAliveIntervalSec,
      r.serverAliveCountMax,
      r.proxyJump,
      r.identitiesOnly,
    ]).toEqual(['jetson.local', 'nvidia', 30, 2, [], true]);
  });

  it('a name only `Host *` matches is not an alias', () => {
    const r = resolveSshAlias('plain.example', CONFIG);
    expect(r.matchedAlias).toBe(false);
    expect(r.hostName).toBe('plain.example');
    expect(r.user).toBe('fallback');
  });

  it('reports ProxyCommand as unsupported', () => {
    expect(resolveSshAlias('x', 'Host x\n  ProxyCommand nc %h %p\n').unsupported).toEqual(['ProxyCommand']);
  });
});

describe('listSshConfigHosts', () => {
  it('lists concrete aliases with what they resolve to, skipping patterns', () => {
    expect(listSshConfigHosts(CONFIG)).toEqual([
      { alias: 'board1', hostName: '10.0.0.5', user: 'pi', port: 2222, proxyJump: ['jump1', 'admin@jump2:2200'] },
      { alias: 'b1', hostName: '10.0.0.5', user: 'pi', port: 2222, proxyJump: ['jump1', 'admin@jump2:2200'] },
      { alias: 'jetson', hostName: 'jetson.local', user: 'nvidia', port: undefined, proxyJump: [] },
    ]);
  });
});

describe('readSshConfigText', () => {
  it('inlines Include files (globs, relative to ~/.ssh), and a missing file is empty', async () => {
    const home = await makeTempDir();
    mkdirSync(join(home, '.ssh', 'config.d'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'config'), 'Include config.d/*.conf\nHost *\n  User later\n');
    writeFileSync(join(home, '.ssh', 'config.d', 'a.conf'), 'Host boardA\n  HostName 10.1.1.1\n');
    writeFileSync(join(home, '.ssh', 'config.d', 'b.conf'), 'Host boardB\n  HostName 10.1.1.2\n');
    const text = await readSshConfigText(join(home, '.ssh', 'config'), { homeDir: home });
    expect(listSshConfigHosts(text).map((h) => [h.alias, h.hostName, h.user])).toEqual([
      ['boardA', '10.1.1.1', 'later'],
      ['boardB', '10.1.1.2', 'later'],
    ]);
    expect(await readSshConfigText(join(home, 'nope'))).toBe('');
  });
});
