// ~/.ssh/config import (ssh_config(5)) through the `ssh-config` package: what a Host alias
// resolves to, and the list of concrete aliases the UI offers to import.
//
// Checked against `ssh -G` of OpenSSH 9.2 (test/unit/electron/node/transport/ssh-config.test.ts). First obtained
// value wins, as in ssh(1). Not supported: `Match exec` (never executed: config text is not
// trusted to run commands), `ProxyCommand` (reported), canonicalisation.
import { readdir, readFile } from 'node:fs/promises';
import { homedir, hostname as localHostname, userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import SSHConfig from 'ssh-config';
import { sshGlobRegExp } from './ssh-glob';

export interface SshAliasResolution {
  /** The name that was looked up. */
  alias: string;
  /** True when a Host pattern without wildcards named it (a real alias, not just `Host *`). */
  matchedAlias: boolean;
  hostName: string;
  user?: string;
  port?: number;
  /** The Port value as written when it is not a port (`Port abc`, `Port 0`): ssh(1) refuses it. */
  badPort?: string;
  /** IdentityFile entries in order, with ~ and %-tokens expanded. */
  identityFiles: string[];
  /** ProxyJump hops, outermost first ("[user@]host[:port]"); [] for none. */
  proxyJump: string[];
  /** ServerAliveInterval, in SECONDS as written in the file (0 = off). */
  serverAliveIntervalSec?: number;
  serverAliveCountMax?: number;
  identitiesOnly?: boolean;
  userKnownHostsFiles?: string[];
  /** GlobalKnownHostsFile entries (replacing ssh(1)'s /etc/ssh/ssh_known_hosts{,2} defaults), with ~ and %-tokens expanded. */
  globalKnownHostsFiles?: string[];
  /** HostKeyAlias: the name the host's key is recorded under in known_hosts, instead of the host's. */
  hostKeyAlias?: string;
  /** Directives that matter but KVScope does not implement (ProxyCommand…), for a note. */
  unsupported: string[];
}

export interface ResolveOptions {
  homeDir?: string;
  localUser?: string;
}

type Computed = Record<string, string | string[]>;

function first(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v[0] : v;
}

function all(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function sectionPatterns(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : String((v as { val: string }).val)));
  return [];
}

function isWildcard(pattern: string): boolean {
  return /[*?!]/.test(pattern);
}

/** Expand a leading ~ and the %-tokens ssh_config(5) defines for IdentityFile and friends. */
export function expandSshTokens(
  text: string,
  tokens: { home: string; localUser: string; remoteUser: string; host: string; port: number; alias: string },
): string {
  let out = text.replace(/^~(?=\/|$)/, tokens.home);
  out = out.replace(/%([%dhrupnlCi])/g, (_m, t: string) => {
    switch (t) {
      case '%':
        return '%';
      case 'd':
        return tokens.home;
      case 'h':
        return tokens.host;
      case 'r':
        return tokens.remoteUser;
      case 'u':
        return tokens.localUser;
      case 'p':
        return String(tokens.port);
      case 'n':
        return tokens.alias;
      case 'l':
        return localHostname();
      case 'i':
        return String(process.getuid?.() ?? '');
      default:
        return `%${t}`; // %C (a hash of several fields) is not expanded
    }
  });
  return out;
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : undefined;
}

/**
 * What `alias` resolves to under `configText`. Always returns a resolution (ssh(1) also
 * applies `Host *` sections to a bare host name); `matchedAlias` says whether a concrete
 * Host entry named it.
 */
export function resolveSshAlias(alias: string, configText: string, options: ResolveOptions = {}): SshAliasResolution {
  const home = options.homeDir ?? homedir();
  const localUser = options.localUser ?? safeUserName();
  const config = SSHConfig.parse(configText);
  const computed = config.compute(alias, { ignoreCase: true, matchExec: false }) as Computed;

  let matchedAlias = false;
  for (const line of config) {
    if (line.type !== SSHConfig.DIRECTIVE || line.param.toLowerCase() !== 'host') continue;
    const patterns = sectionPatterns(line.value);
    if (patterns.some((p) => !isWildcard(p) && p.toLowerCase() === alias.toLowerCase())) matchedAlias = true;
  }

  const hostNameRaw = first(computed.hostname);
  const hostName = hostNameRaw ? hostNameRaw.replace(/%h/g, alias).replace(/%%/g, '%') : alias;
  const user = first(computed.user);
  const portText = first(computed.port);
  const port = parsePort(portText);
  const tokens = { home, localUser, remoteUser: user ?? localUser, host: hostName, port: port ?? 22, alias };

  const jumpRaw = first(computed.proxyjump);
  const proxyJump =
    !jumpRaw || jumpRaw.toLowerCase() === 'none'
      ? []
      : jumpRaw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);

  const aliveRaw = first(computed.serveraliveinterval);
  const countRaw = first(computed.serveralivecountmax);
  const identitiesOnlyRaw = first(computed.identitiesonly);
  const knownHostsRaw = all(computed.userknownhostsfile)
    .flatMap((v) => v.split(/\s+/))
    .filter(Boolean);
  const globalKnownHostsRaw = all(computed.globalknownhostsfile)
    .flatMap((v) => v.split(/\s+/))
    .filter(Boolean);

  const unsupported: string[] = [];
  if (first(computed.proxycommand) && first(computed.proxycommand)?.toLowerCase() !== 'none')
    unsupported.push('ProxyCommand');

  return {
    alias,
    matchedAlias,
    hostName,
    user,
    port,
    ...(portText !== undefined && port === undefined ? { badPort: portText } : {}),
    // ssh(1) leaves a relative IdentityFile relative to its working directory (readconf.c
    // add_identity_file with dir == NULL); so do we.
    identityFiles: all(computed.identityfile)
      .map((f) => expandSshTokens(f, tokens))
      .map((f) => (isAbsolute(f) ? f : resolvePath(f))),
    proxyJump,
    serverAliveIntervalSec: aliveRaw !== undefined && /^\d+$/.test(aliveRaw) ? Number(aliveRaw) : undefined,
    serverAliveCountMax: countRaw !== undefined && /^\d+$/.test(countRaw) ? Number(countRaw) : undefined,
    identitiesOnly: identitiesOnlyRaw === undefined ? undefined : identitiesOnlyRaw.toLowerCase() === 'yes',
    userKnownHostsFiles: knownHostsRaw.length ? knownHostsRaw.map((f) => expandSshTokens(f, tokens)) : undefined,
    ...(globalKnownHostsRaw.length
      ? { globalKnownHostsFiles: globalKnownHostsRaw.map((f) => expandSshTokens(f, tokens)) }
      : {}),
    ...(first(computed.hostkeyalias) ? { hostKeyAlias: first(computed.hostkeyalias) } : {}),
    unsupported,
  };
}

export interface SshConfigHost {
  alias: string;
  hostName?: string;
  user?: string;
  port?: number;
  proxyJump: string[];
}

/** Concrete aliases for the UI's "import from ~/.ssh/config" (wildcard and negated patterns skipped). */
export function listSshConfigHosts(configText: string, options: ResolveOptions = {}): SshConfigHost[] {
  const config = SSHConfig.parse(configText);
  const seen = new Set<string>();
  const hosts: SshConfigHost[] = [];
  for (const line of config) {
    if (line.type !== SSHConfig.DIRECTIVE || line.param.toLowerCase() !== 'host') continue;
    for (const pattern of sectionPatterns(line.value)) {
      if (isWildcard(pattern) || seen.has(pattern)) continue;
      seen.add(pattern);
      const r = resolveSshAlias(pattern, configText, options);
      hosts.push({ alias: pattern, hostName: r.hostName, user: r.user, port: r.port, proxyJump: r.proxyJump });
    }
  }
  return hosts;
}

/** The user's ssh config path: $KVSCOPE_SSH_CONFIG (tests) or ~/.ssh/config. */
export function sshConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.KVSCOPE_SSH_CONFIG || join(homedir(), '.ssh', 'config');
}

const MAX_INCLUDE_DEPTH = 8; // ssh(1) stops at 16; 8 is plenty and bounds a loop

/**
 * Read an ssh config file with its `Include` lines inlined (relative paths are under ~/.ssh, a
 * `*`/`?` glob in the last path component is expanded in sorted order). Missing file → ''.
 */
export async function readSshConfigText(path: string, options: { homeDir?: string } = {}, depth = 0): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return '';
  }
  const lines = text.split('\n');
  const isInclude = (line: string) => /^\s*include\s/i.test(line);
  if (depth >= MAX_INCLUDE_DEPTH || !lines.some(isInclude)) return text;
  const home = options.homeDir ?? homedir();
  const out: string[] = [];
  for (const line of lines) {
    if (!isInclude(line)) {
      out.push(line);
      continue;
    }
    const patterns = line.trim().slice('include'.length).trim().split(/\s+/).filter(Boolean);
    for (const rawPattern of patterns) {
      const unquoted = rawPattern.replace(/^"(.*)"$/, '$1').replace(/^~(?=\/)/, home);
      const pattern = isAbsolute(unquoted) ? unquoted : join(home, '.ssh', unquoted);
      for (const file of await globFiles(pattern)) out.push(await readSshConfigText(file, options, depth + 1));
    }
  }
  return out.join('\n');
}

async function globFiles(pattern: string): Promise<string[]> {
  const base = basename(pattern);
  if (!/[*?]/.test(base)) return [pattern];
  const dir = dirname(pattern);
  const re = sshGlobRegExp(base);
  try {
    return (await readdir(dir))
      .filter((f) => re.test(f))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'root';
  }
}
