// CLI target syntax (docs/DESIGN.md): local | user@host[:port] | ssh://user@host:port | [v6]:port |
// ~/.ssh/config alias; the shared SSH options; and what a spec becomes for SshTarget.
import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  parseTargetString,
  parseUserHostPort,
  resolveJumpChain,
  sshCliOptions,
  sshTargetOptionsFromSpec,
  targetFromCli,
  TargetSpecError,
} from '../../../../../electron/node/transport/target-spec';
import { DEFAULT_KEEPALIVE_COUNT_MAX } from '../../../../../electron/node/transport/ssh-target';

const CONFIG = `
Host orin
  HostName 192.168.55.1
  User nvidia
  Port 2200
  ServerAliveInterval 20
  ServerAliveCountMax 4
  IdentityFile /keys/orin
  ProxyJump bastion

Host bastion
  HostName bastion.example.com
  User ops
  Port 2022
  ProxyJump outer

Host outer
  HostName 203.0.113.7
`;

describe('parseUserHostPort / parseTargetString', () => {
  it.each([
    ['local', { kind: 'local' }],
    ['pi@raspberrypi', { kind: 'ssh', host: 'raspberrypi', user: 'pi' }],
    ['pi@10.0.0.5:2222', { kind: 'ssh', host: '10.0.0.5', user: 'pi', port: 2222 }],
    ['ssh://root@board.lan:2200', { kind: 'ssh', host: 'board.lan', user: 'root', port: 2200 }],
    ['ssh://board.lan/', { kind: 'ssh', host: 'board.lan' }],
    ['[::1]:2222', { kind: 'ssh', host: '::1', port: 2222 }],
    ['user@[fe80::1%eth0]:22', { kind: 'ssh', host: 'fe80::1%eth0', user: 'user', port: 22 }],
    ['fe80::1', { kind: 'ssh', host: 'fe80::1' }],
    ['ssh://a%2Eb@host', { kind: 'ssh', host: 'host', user: 'a.b' }],
  ])('%s', (text, spec) => {
    expect(parseTargetString(text)).toEqual(spec);
  });

  it.each([
    ['', /empty target/],
    ['pi@host:0', /port must be 1–65535/],
    ['pi@host:70000', /port must be 1–65535/],
    ['pi@host:22x', /port must be 1–65535/],
    ['@host', /empty user name/],
    ['[::1', /missing "\]"/],
    ['[::1]x', /unexpected "x"/],
    ['http://host', /only ssh:\/\//],
    ['-oProxyCommand', /must not start with "-"/],
    ['-oProxyCommand=evil', /host may contain/],
    ['host;rm -rf', /host may contain/],
    ['us er@host', /user/],
  ])('rejects %j', (text, message) => {
    expect(() => parseTargetString(text)).toThrow(TargetSpecError);
    expect(() => parseTargetString(text)).toThrow(message);
  });

  it('an alias from ~/.ssh/config: HostName, User, Port, ProxyJump, ServerAliveInterval; the command line wins', () => {
    expect(parseTargetString('orin', { configText: CONFIG })).toEqual({
      kind: 'ssh',
      alias: 'orin',
      host: '192.168.55.1',
      user: 'nvidia',
      port: 2200,
      jump: ['bastion'],
      keepaliveSec: 20,
    });
    expect(parseTargetString('me@orin:22', { configText: CONFIG })).toMatchObject({
      alias: 'orin',
      host: '192.168.55.1',
      user: 'me',
      port: 22,
    });
    expect(parseTargetString('unknown-host', { configText: CONFIG })).toEqual({ kind: 'ssh', host: 'unknown-host' });
  });

  it('parseUserHostPort keeps an IPv6 host bracket-free', () => {
    expect(parseUserHostPort('[2001:db8::2]')).toEqual({ host: '2001:db8::2', port: undefined, user: undefined });
  });
});

describe('targetFromCli', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-spec-'));
  const configPath = join(dir, 'config');
  writeFileSync(configPath, CONFIG);
  const env = { KVSCOPE_SSH_CONFIG: configPath } as NodeJS.ProcessEnv;
  const parse = (argv: string[]) =>
    parseArgs({ args: argv, options: sshCliOptions, allowPositionals: true, strict: true });

  it('reads the alias from $KVSCOPE_SSH_CONFIG and applies every SSH option', async () => {
    const { values, positionals } = parse([
      'orin',
      '--identity',
      'keys/id',
      '--known-hosts',
      '/kh',
      '--accept-new-host-key',
      '--password-env',
      'BOARD_PW',
      '--jump',
      'a@j1:2',
      '--jump',
      'j2',
    ]);
    expect(await targetFromCli(positionals[0], values, env)).toEqual({
      kind: 'ssh',
      alias: 'orin',
      host: '192.168.55.1',
      user: 'nvidia',
      port: 2200,
      keepaliveSec: 20,
      identityFile: resolve('keys/id'),
      knownHostsFile: '/kh',
      acceptNewHostKey: true,
      passwordEnv: 'BOARD_PW',
      jump: ['a@j1:2', 'j2'],
    });
  });

  it('usage errors', async () => {
    await expect(targetFromCli(undefined, {}, env)).rejects.toThrow(/expected a target/);
    await expect(targetFromCli('local', { identity: 'k' }, env)).rejects.toThrow(
      '--identity needs an SSH target, not "local"',
    );
    await expect(targetFromCli('h', { 'password-env': 'not a name' }, env)).rejects.toThrow(
      /not an environment variable name/,
    );
    await expect(targetFromCli('h', { jump: ['bad:port:x:'] }, env)).resolves.toMatchObject({ jump: ['bad:port:x:'] }); // a bare IPv6-like host is allowed
    await expect(targetFromCli('h', { jump: ['u@h:99999'] }, env)).rejects.toThrow(/port must be/);
  });
});

describe('what a spec becomes for SshTarget', () => {
  it('ServerAliveInterval seconds → keepaliveInterval ms, ServerAliveCountMax, identity files, jump chain through config', async () => {
    const o = await sshTargetOptionsFromSpec(parseTargetString('orin', { configText: CONFIG }) as never, {
      sshConfigText: CONFIG,
      env: { KVSCOPE_HOME: '/tmp/kvh' },
      agentSocket: null,
    });
    expect(o.keepaliveIntervalMs).toBe(20_000);
    expect(o.keepaliveCountMax).toBe(4);
    expect(o.target).toEqual({
      host: '192.168.55.1',
      port: 2200,
      username: 'nvidia',
      identityFiles: ['/keys/orin'],
      identitiesOnly: undefined,
    });
    // orin → ProxyJump bastion → whose own ProxyJump is outer: outermost first
    expect(o.jumps?.map((j) => `${j.username}@${j.host}:${j.port}`)).toEqual([
      `${userInfo().username}@203.0.113.7:22`,
      'ops@bastion.example.com:2022',
    ]);
    expect(o.knownHosts.files).toEqual({
      storeFile: '/tmp/kvh/known_hosts',
      readFiles: [
        '/tmp/kvh/known_hosts',
        expect.stringMatching(/\.ssh\/known_hosts$/),
        expect.stringMatching(/\.ssh\/known_hosts2$/),
        '/etc/ssh/ssh_known_hosts',
        '/etc/ssh/ssh_known_hosts2',
      ],
    });
    expect(o.confirmHostKey).toBeUndefined();
    expect(o.label).toBe('orin');
  });

  it('defaults: keepalive from ssh-target defaults, --accept-new-host-key consents, --password-env reads the variable', async () => {
    const o = await sshTargetOptionsFromSpec(
      { kind: 'ssh', host: 'h', acceptNewHostKey: true, passwordEnv: 'PW' },
      { sshConfigText: '', env: { PW: 'secret-value' }, agentSocket: null },
    );
    expect(o.keepaliveIntervalMs).toBeUndefined(); // SshTarget applies DEFAULT_KEEPALIVE_INTERVAL_MS
    expect(o.keepaliveCountMax).toBeUndefined();
    expect(DEFAULT_KEEPALIVE_COUNT_MAX).toBe(3);
    expect(await o.confirmHostKey?.({ host: 'h', port: 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:x' })).toBe(
      true,
    );
    expect(await o.password?.({ host: 'h', port: 22, username: 'u' })).toBe('secret-value');
    expect(o.jumps).toEqual([]);
  });

  it('a ProxyJump loop in the config is an error, not a hang', () => {
    expect(() => resolveJumpChain(['a'], 'Host a\n  ProxyJump b\nHost b\n  ProxyJump a\n')).toThrow(/too long|loop/);
  });
});
