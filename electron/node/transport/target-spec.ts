// From what a user typed to a connected Target. docs/DESIGN.md's CLI contract:
//   <target> = local | user@host[:port] | ssh://user@host[:port] | [v6addr]:port | ~/.ssh/config alias
//   SSH options: --identity <key file>, --known-hosts <file>, --accept-new-host-key,
//                --password-env <VAR>, --jump <user@host[:port]> (repeatable)
// plus --passphrase-env <VAR> (the passphrase of an encrypted --identity, for scripts).
// Precedence as in ssh(1): the command line beats ~/.ssh/config, which beats the defaults.
import { homedir, userInfo } from 'node:os';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { SshTargetSpecSchema, type SshTargetSpec, type TargetSpec } from '../../../shared/api/schemas';
import { isPortText } from '../../../shared/util/port';
import { registerSecret } from '../util/redact';
import { defaultKnownHostsFiles, GLOBAL_KNOWN_HOSTS_FILES, KnownHostsStore } from './known-hosts';
import { LocalTarget } from './local-target';
import { readSshConfigText, resolveSshAlias, sshConfigPath, type SshAliasResolution } from './ssh-config';
import { SshTarget, type SshCallbacks, type SshHop, type SshTargetOptions, type ReconnectOptions } from './ssh-target';
import type { Target } from './target';

export class TargetSpecError extends Error {
  readonly code = 'BAD_TARGET';
}

const MAX_JUMPS = 8; // SshTargetSpecSchema allows 8; also bounds ProxyJump recursion in configs

export interface HostPort {
  user?: string;
  host: string;
  port?: number;
}

function parsePortText(text: string, whole: string): number {
  if (!isPortText(text)) throw new TargetSpecError(`target "${whole}": port must be 1–65535, got "${text}"`);
  return Number(text);
}

/** `[user@]host[:port]`, `ssh://[user@]host[:port][/]`, `[v6]:port`, `user@[v6]`, bare `fe80::1`. */
export function parseUserHostPort(text: string): HostPort {
  const whole = text;
  let rest = text.trim();
  const isUrl = /^ssh:\/\//i.test(rest);
  if (isUrl) rest = rest.slice(6).replace(/\/$/, '');
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rest))
    throw new TargetSpecError(`target "${whole}": only ssh:// URLs are supported`);
  let user: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    user = rest.slice(0, at);
    if (isUrl) {
      try {
        user = decodeURIComponent(user);
      } catch {
        throw new TargetSpecError(`target "${whole}": bad %-escape in the user name`);
      }
    }
    rest = rest.slice(at + 1);
    if (user === '') throw new TargetSpecError(`target "${whole}": empty user name before "@"`);
  }
  let host: string;
  let port: number | undefined;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) throw new TargetSpecError(`target "${whole}": missing "]" after an IPv6 address`);
    host = rest.slice(1, close);
    const after = rest.slice(close + 1);
    if (after !== '') {
      if (!after.startsWith(':')) throw new TargetSpecError(`target "${whole}": unexpected "${after}" after "]"`);
      port = parsePortText(after.slice(1), whole);
    }
  } else {
    const colons = (rest.match(/:/g) ?? []).length;
    if (colons === 1) {
      const i = rest.indexOf(':');
      host = rest.slice(0, i);
      port = parsePortText(rest.slice(i + 1), whole);
    } else host = rest; // no port, or a bare IPv6 address (its colons are not a port)
  }
  if (host === '') throw new TargetSpecError(`target "${whole}": no host name`);
  return { user, host, port };
}

export interface ParseTargetOptions {
  /** ~/.ssh/config text ('' for none). */
  configText?: string;
  homeDir?: string;
  localUser?: string;
}

function validate(spec: SshTargetSpec, text: string): SshTargetSpec {
  const parsed = SshTargetSpecSchema.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TargetSpecError(`target "${text}": ${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Parse a CLI target into a TargetSpec, applying ~/.ssh/config for aliases. */
export function parseTargetString(text: string, options: ParseTargetOptions = {}): TargetSpec {
  const trimmed = text.trim();
  if (trimmed === '') throw new TargetSpecError('empty target');
  if (trimmed === 'local') return { kind: 'local' };
  const hp = parseUserHostPort(trimmed);
  const spec: SshTargetSpec = { kind: 'ssh', host: hp.host, port: hp.port, user: hp.user };
  const configText = options.configText ?? '';
  if (configText !== '' && !hp.host.includes(':')) {
    const r = resolveSshAlias(hp.host, configText, { homeDir: options.homeDir, localUser: options.localUser });
    if (r.matchedAlias) spec.alias = hp.host;
    spec.host = r.hostName;
    spec.user ??= r.user;
    spec.port ??= r.port;
    if (r.proxyJump.length) spec.jump = r.proxyJump;
    if (r.serverAliveIntervalSec !== undefined) spec.keepaliveSec = Math.min(r.serverAliveIntervalSec, 3600);
  }
  return validate(stripUndefined(spec), trimmed);
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// ---- CLI ----------------------------------------------------------------------------------------
/** node:util parseArgs options shared by every command that takes a target. */
export const sshCliOptions = {
  identity: { type: 'string' },
  'known-hosts': { type: 'string' },
  'accept-new-host-key': { type: 'boolean' },
  'password-env': { type: 'string' },
  'passphrase-env': { type: 'string' },
  jump: { type: 'string', multiple: true },
} as const;

export interface SshCliValues {
  identity?: string;
  'known-hosts'?: string;
  'accept-new-host-key'?: boolean;
  'password-env'?: string;
  'passphrase-env'?: string;
  jump?: string[];
}

const ENV_NAME = /^[a-z_]\w*$/i;

/**
 * `<target>` plus the SSH options → TargetSpec. Reads ~/.ssh/config (or $KVSCOPE_SSH_CONFIG).
 * Throws TargetSpecError (a usage error) for anything malformed.
 */
export async function targetFromCli(
  positional: string | undefined,
  values: SshCliValues,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TargetSpec> {
  if (!positional)
    throw new TargetSpecError(
      'expected a target: local, user@host[:port], ssh://user@host:port, or a Host alias from ~/.ssh/config',
    );
  const configText = await readSshConfigText(sshConfigPath(env));
  const spec = parseTargetString(positional, { configText });
  const sshOptionGiven = [
    'identity',
    'known-hosts',
    'accept-new-host-key',
    'password-env',
    'passphrase-env',
    'jump',
  ].filter((k) => values[k as keyof SshCliValues] !== undefined);
  if (spec.kind === 'local') {
    if (sshOptionGiven.length) throw new TargetSpecError(`--${sshOptionGiven[0]} needs an SSH target, not "local"`);
    return spec;
  }
  if (values['password-env'] !== undefined && !ENV_NAME.test(values['password-env']))
    throw new TargetSpecError(`--password-env: "${values['password-env']}" is not an environment variable name`);
  if (values['passphrase-env'] !== undefined && !ENV_NAME.test(values['passphrase-env']))
    throw new TargetSpecError(`--passphrase-env: "${values['passphrase-env']}" is not an environment variable name`);
  const out: SshTargetSpec = { ...spec };
  if (values.identity !== undefined) out.identityFile = absPath(values.identity);
  if (values['known-hosts'] !== undefined) out.knownHostsFile = absPath(values['known-hosts']);
  if (values['accept-new-host-key']) out.acceptNewHostKey = true;
  if (values['password-env'] !== undefined) out.passwordEnv = values['password-env'];
  if (values.jump !== undefined && values.jump.length > 0) {
    for (const j of values.jump) parseUserHostPort(j); // fail early on a malformed hop
    out.jump = values.jump;
  }
  return validate(out, positional);
}

function absPath(p: string): string {
  const expanded = p.replace(/^~(?=\/|$)/, homedir());
  return isAbsolute(expanded) ? expanded : resolvePath(expanded);
}

// ---- connecting ---------------------------------------------------------------------------------
export interface CreateTargetOptions extends SshCallbacks {
  env?: NodeJS.ProcessEnv;
  /** Progress lines (already redacted): the CLI prints them on stderr. */
  log?: (line: string) => void;
  /** ssh config text; default: read $KVSCOPE_SSH_CONFIG or ~/.ssh/config. */
  sshConfigText?: string;
  agentSocket?: string | null;
  connectTimeoutMs?: number;
  /** Abandons the connection attempt when aborted (SshTargetOptions.connectSignal). */
  signal?: AbortSignal;
  autoReconnect?: boolean | ReconnectOptions;
  sftp?: boolean;
  debug?: boolean;
  /** Environment variable holding the passphrase of encrypted identity files (CLI --passphrase-env). */
  passphraseEnv?: string;
}

function localUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'root';
  }
}

function hopFrom(hp: HostPort, r: SshAliasResolution | undefined, identityOverride?: string): SshHop {
  return {
    host: r?.hostName ?? hp.host,
    port: hp.port ?? r?.port ?? 22,
    username: hp.user ?? r?.user ?? localUserName(),
    identityFiles: identityOverride ? [identityOverride] : r && r.identityFiles.length ? r.identityFiles : undefined,
    identitiesOnly: r?.identitiesOnly,
    ...(r?.hostKeyAlias ? { hostKeyAlias: r.hostKeyAlias } : {}),
  };
}

/** The jump chain (outermost first) for hop strings, following ProxyJump of jump aliases too. */
export function resolveJumpChain(jumps: readonly string[], configText: string, depth = 0): SshHop[] {
  if (depth > MAX_JUMPS) throw new TargetSpecError('ProxyJump chain too long (or a loop in ~/.ssh/config)');
  const chain: SshHop[] = [];
  for (const j of jumps) {
    const hp = parseUserHostPort(j);
    const r = configText && !hp.host.includes(':') ? resolveSshAlias(hp.host, configText) : undefined;
    if (r && r.proxyJump.length) chain.push(...resolveJumpChain(r.proxyJump, configText, depth + 1));
    chain.push(hopFrom(hp, r));
  }
  if (chain.length > MAX_JUMPS) throw new TargetSpecError(`at most ${MAX_JUMPS} jump hosts`);
  return chain;
}

/** The SshTarget options a spec stands for (exported so tests can check the mapping). */
export async function sshTargetOptionsFromSpec(
  spec: SshTargetSpec,
  options: CreateTargetOptions = {},
): Promise<SshTargetOptions> {
  const env = options.env ?? process.env;
  const configText = options.sshConfigText ?? (await readSshConfigText(sshConfigPath(env)));
  const lookup = spec.alias ?? spec.host;
  const r = configText && !lookup.includes(':') ? resolveSshAlias(lookup, configText) : undefined;
  const target = hopFrom(
    { host: spec.host, port: spec.port, user: spec.user },
    r ? { ...r, hostName: spec.host } : undefined,
    spec.identityFile,
  );
  const jumps = resolveJumpChain(spec.jump ?? r?.proxyJump ?? [], configText);
  const keepaliveSec = spec.keepaliveSec ?? r?.serverAliveIntervalSec;
  // A board imported from ~/.ssh/config keeps the first of its UserKnownHostsFile files: all are read.
  // Its GlobalKnownHostsFile, where it names one, replaces the global files ssh(1) reads by default
  // (a fleet's keys pinned in a shared file), as it does for ssh(1).
  const configFiles = r?.userKnownHostsFiles;
  const files = defaultKnownHostsFiles(
    spec.knownHostsFile === undefined || configFiles?.includes(spec.knownHostsFile) ? configFiles : spec.knownHostsFile,
    env,
    r?.globalKnownHostsFiles ?? GLOBAL_KNOWN_HOSTS_FILES,
  );
  const log = options.log;
  if (r?.unsupported.length)
    log?.(`~/.ssh/config: ${r.unsupported.join(', ')} for ${lookup} is not supported by KVScope and is ignored`);

  let password = options.password;
  if (!password && spec.passwordEnv) {
    const name = spec.passwordEnv;
    password = () => {
      const v = env[name];
      if (v === undefined || v === '') {
        log?.(`--password-env ${name}: the variable is not set, no password to offer`);
        return undefined;
      }
      registerSecret(v);
      return v;
    };
  }
  let passphrase = options.passphrase;
  let passphraseSource: string | undefined;
  if (!passphrase && options.passphraseEnv) {
    passphraseSource = `--passphrase-env ${options.passphraseEnv}`;
    const name = options.passphraseEnv;
    passphrase = () => {
      const v = env[name];
      if (v) registerSecret(v);
      return v || undefined;
    };
  }
  const confirmHostKey = options.confirmHostKey ?? (spec.acceptNewHostKey ? () => true : undefined);
  return {
    target,
    jumps,
    knownHosts: new KnownHostsStore(files),
    agentSocket: options.agentSocket === undefined ? (env.SSH_AUTH_SOCK ?? null) : options.agentSocket,
    keepaliveIntervalMs: keepaliveSec !== undefined ? keepaliveSec * 1000 : undefined,
    keepaliveCountMax: r?.serverAliveCountMax,
    connectTimeoutMs: options.connectTimeoutMs,
    connectSignal: options.signal,
    autoReconnect: options.autoReconnect,
    sftp: options.sftp,
    debug: options.debug,
    log,
    password,
    passphrase,
    passphraseSource,
    confirmHostKey,
    label: spec.alias ?? undefined,
  };
}

/** A connected Target for a spec: `local` at once; SSH after host key check and authentication. */
export async function createTarget(spec: TargetSpec, options: CreateTargetOptions = {}): Promise<Target> {
  if (spec.kind === 'local') return new LocalTarget();
  return SshTarget.connect(await sshTargetOptionsFromSpec(spec, options));
}

/** CreateTargetOptions for the CLI's values (log lines go to `err`). */
export function createTargetOptionsFromCli(values: SshCliValues, err?: (line: string) => void): CreateTargetOptions {
  return {
    passphraseEnv: values['passphrase-env'],
    log: err,
  };
}
