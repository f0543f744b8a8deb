// OpenSSH known_hosts, read the way ssh(1) reads it (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"),
// and the verification KVScope runs inside ssh2's `hostVerifier`, i.e. after key exchange and
// BEFORE any credential is offered (Tabby's order).
//
// Handled: plain host names and comma-separated pattern lists with `*`, `?` and `!negation`;
// hashed names `|1|base64(salt)|base64(HMAC-SHA1(salt, name))` (HashKnownHosts / ssh-keygen -H);
// `[host]:port` names for ports other than 22; several keys (of several types) per host;
// `@revoked` (the key is refused for the hosts the line names); `@cert-authority` (host
// certificates are not supported: the line is ignored with a note); comments and blank lines.
//
// Files: the app's own store (a known_hosts-format file in the app data dir) is always read and
// is the only file ever written; the user's ~/.ssh/known_hosts (or --known-hosts <file>) is read.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { appKnownHostsPath } from '../config/app-paths';
import { sshGlobRegExp } from './ssh-glob';

export type KnownHostMarker = 'revoked' | 'cert-authority';

export interface KnownHostEntry {
  file: string;
  /** 1-based line number in `file`. */
  line: number;
  marker?: KnownHostMarker;
  /** The host field as written (a pattern list or one hashed name). */
  hosts: string;
  hashed: boolean;
  keyType: string;
  keyBlob: Buffer;
  fingerprint: string;
}

export interface KnownHostsParse {
  entries: KnownHostEntry[];
  /** Lines that were skipped or ignored, with file:line and why (never key material). */
  notes: string[];
}

/** `SHA256:` + unpadded base64 of sha256(key blob): what `ssh-keygen -l` and ssh(1) print. */
export function fingerprintSha256(keyBlob: Buffer): string {
  return (
    'SHA256:' +
    createHash('sha256')
      .update(keyBlob)
      .digest('base64')
      .replace(/={1,2}$/, '')
  );
}

/** The key type named inside an SSH public key blob (first length-prefixed string). */
export function keyTypeOfBlob(keyBlob: Buffer): string | null {
  if (keyBlob.length < 4) return null;
  const len = keyBlob.readUInt32BE(0);
  if (len === 0 || len > 64 || 4 + len > keyBlob.length) return null;
  const type = keyBlob.subarray(4, 4 + len).toString('latin1');
  return /^[\x21-\x7e]+$/.test(type) ? type : null;
}

/** How ssh(1) names a host in known_hosts: `host` on port 22, `[host]:port` otherwise. */
export function knownHostName(host: string, port = 22): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return port === 22 ? bare : `[${bare}]:${port}`;
}

/** "ED25519" for ssh-ed25519, "RSA" for ssh-rsa…: the word ssh(1) uses in its messages. */
export function keyTypeLabel(keyType: string): string {
  if (keyType === 'ssh-ed25519') return 'ED25519';
  if (keyType === 'ssh-rsa') return 'RSA';
  if (keyType === 'ssh-dss') return 'DSA';
  if (keyType.startsWith('ecdsa-sha2-')) return 'ECDSA';
  if (keyType.startsWith('sk-ssh-ed25519')) return 'ED25519-SK';
  if (keyType.startsWith('sk-ecdsa')) return 'ECDSA-SK';
  return keyType.toUpperCase();
}

/**
 * Notes said per file, at most: a file that is no known_hosts file at all (a binary, a key given
 * as --known-hosts) gave one note a line, 3,705 lines of warnings for one connect.
 */
export const MAX_NOTES_PER_FILE = 10;

export function parseKnownHosts(text: string, file: string): KnownHostsParse {
  const entries: KnownHostEntry[] = [];
  const notes: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    const lineNo = i + 1;
    const raw = line.replace(/\r$/, '').trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const fields = raw.split(/[ \t]+/);
    let marker: KnownHostMarker | undefined;
    const m = fields[0];
    if (m?.startsWith('@')) {
      fields.shift();
      if (m === '@revoked') marker = 'revoked';
      else if (m === '@cert-authority') marker = 'cert-authority';
      else {
        notes.push(`${file}:${lineNo}: unknown marker ${m}, line ignored`);
        continue;
      }
    }
    const [hosts, keyType, b64] = fields;
    if (hosts === undefined || keyType === undefined || b64 === undefined) {
      notes.push(`${file}:${lineNo}: expected "hosts keytype key", line ignored`);
      continue;
    }
    if (!/^[\d+/a-z]+={0,2}$/i.test(b64)) {
      notes.push(`${file}:${lineNo}: key is not base64, line ignored`);
      continue;
    }
    const keyBlob = Buffer.from(b64, 'base64');
    const blobType = keyTypeOfBlob(keyBlob);
    if (blobType !== keyType) {
      notes.push(
        `${file}:${lineNo}: key type ${keyType} does not match the key (${blobType ?? 'unreadable'}), line ignored`,
      );
      continue;
    }
    if (marker === 'cert-authority') {
      notes.push(
        `${file}:${lineNo}: @cert-authority line ignored (KVScope does not verify host certificates; add the host's own key instead)`,
      );
    }
    const hashed = hosts.startsWith('|1|');
    if (hosts.startsWith('|') && !parseHashedName(hosts)) {
      notes.push(`${file}:${lineNo}: unreadable hashed host name, line ignored`);
      continue;
    }
    entries.push({
      file,
      line: lineNo,
      marker,
      hosts,
      hashed,
      keyType,
      keyBlob,
      fingerprint: fingerprintSha256(keyBlob),
    });
  }
  if (notes.length <= MAX_NOTES_PER_FILE) return { entries, notes };
  const more = notes.length - MAX_NOTES_PER_FILE;
  return {
    entries,
    notes: [
      ...notes.slice(0, MAX_NOTES_PER_FILE),
      `${file}: ${more} more line${more === 1 ? '' : 's'} ignored (${entries.length === 0 ? 'is it a known_hosts file?' : 'as above'})`,
    ],
  };
}

function parseHashedName(field: string): { salt: Buffer; hash: Buffer } | null {
  const m = /^\|1\|([\d+/a-z]+={0,2})\|([\d+/a-z]+={0,2})$/i.exec(field);
  if (!m?.[1] || !m[2]) return null;
  const salt = Buffer.from(m[1], 'base64');
  const hash = Buffer.from(m[2], 'base64');
  // OpenSSH uses a 20-byte salt and SHA-1 (20-byte) HMAC.
  if (salt.length !== 20 || hash.length !== 20) return null;
  return { salt, hash };
}

// OpenSSH match_pattern(): `*` any run, `?` one character; host names compare case-insensitively.
function globMatch(pattern: string, text: string): boolean {
  return sshGlobRegExp(pattern, 's').test(text);
}

/** Does a known_hosts host field name `name` (as produced by knownHostName)? */
export function hostFieldMatches(hosts: string, name: string): boolean {
  const lower = name.toLowerCase();
  if (hosts.startsWith('|')) {
    const h = parseHashedName(hosts);
    if (!h) return false;
    const mac = createHmac('sha1', h.salt).update(lower).digest();
    return timingSafeEqual(mac, h.hash);
  }
  let positive = false;
  for (const rawPattern of hosts.split(',')) {
    if (rawPattern === '') continue;
    const negated = rawPattern.startsWith('!');
    const pattern = (negated ? rawPattern.slice(1) : rawPattern).toLowerCase();
    if (globMatch(pattern, lower)) {
      if (negated) return false; // a matching negation vetoes the whole line (match_hostname)
      positive = true;
    }
  }
  return positive;
}

export type HostKeyCheck =
  | { status: 'known'; entry: KnownHostEntry }
  | { status: 'unknown' }
  | { status: 'changed'; oldEntries: [KnownHostEntry, ...KnownHostEntry[]] }
  | { status: 'revoked'; entry: KnownHostEntry };

/** The decision for one presented key, from already-parsed entries (pure; the store reads files). */
export function checkHostKey(
  entries: readonly KnownHostEntry[],
  host: string,
  port: number,
  keyBlob: Buffer,
): HostKeyCheck {
  const name = knownHostName(host, port);
  const matching = entries.filter((e) => hostFieldMatches(e.hosts, name));
  const revoked = matching.find((e) => e.marker === 'revoked' && e.keyBlob.equals(keyBlob));
  if (revoked) return { status: 'revoked', entry: revoked };
  const hostKeys = matching.filter((e) => e.marker === undefined);
  const same = hostKeys.find((e) => e.keyBlob.equals(keyBlob));
  if (same) return { status: 'known', entry: same };
  if (hostKeys.length > 0) {
    // Any mismatch where the host has keys is refused. Entries of the same type come first so
    // that the error names the entry the user most likely needs to look at.
    const type = keyTypeOfBlob(keyBlob);
    const [first, ...rest] = [
      ...hostKeys.filter((e) => e.keyType === type),
      ...hostKeys.filter((e) => e.keyType !== type),
    ];
    if (first) return { status: 'changed', oldEntries: [first, ...rest] };
  }
  return { status: 'unknown' };
}

export interface HostKeyInfo {
  host: string;
  port: number;
  keyType: string;
  fingerprint: string;
}

/** Asked when a host's key is unknown. Resolve true to trust it (it is then stored in the app store). */
export type ConfirmHostKey = (info: HostKeyInfo) => boolean | Promise<boolean>;

export class HostKeyError extends Error {
  constructor(
    message: string,
    readonly code: 'HOST_KEY_UNKNOWN' | 'HOST_KEY_CHANGED' | 'HOST_KEY_REVOKED',
    readonly host: string,
    readonly port: number,
    readonly fingerprint: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class HostKeyUnknownError extends HostKeyError {
  constructor(info: HostKeyInfo, storePath: string) {
    const name = knownHostName(info.host, info.port);
    super(
      `host key of ${name} is not known (${keyTypeLabel(info.keyType)} key ${info.fingerprint}); ` +
        `compare it with \`ssh-keygen -lf /etc/ssh/ssh_host_${keyFileWord(info.keyType)}_key.pub\` on the board, ` +
        `then accept it with --accept-new-host-key (it will be stored in ${storePath})`,
      'HOST_KEY_UNKNOWN',
      info.host,
      info.port,
      info.fingerprint,
    );
  }
}

export class HostKeyChangedError extends HostKeyError {
  readonly oldFingerprint: string;
  /** file:line of the entry that holds the old key. */
  readonly oldEntryLocation: string;
  constructor(info: HostKeyInfo, old: KnownHostEntry) {
    const name = knownHostName(info.host, info.port);
    const where = `${old.file}:${old.line}`;
    super(
      `HOST KEY CHANGED for ${name}: the host presented ${keyTypeLabel(info.keyType)} key ${info.fingerprint}, ` +
        `but ${where} holds ${keyTypeLabel(old.keyType)} key ${old.fingerprint}; refused (someone may be intercepting ` +
        `the connection, or the board was reinstalled). If the change is expected, remove the old entry ` +
        `(ssh-keygen -R '${name}' -f ${old.file}) and connect again`,
      'HOST_KEY_CHANGED',
      info.host,
      info.port,
      info.fingerprint,
    );
    this.oldFingerprint = old.fingerprint;
    this.oldEntryLocation = where;
  }
}

export class HostKeyRevokedError extends HostKeyError {
  constructor(info: HostKeyInfo, entry: KnownHostEntry) {
    super(
      `host key of ${knownHostName(info.host, info.port)} (${keyTypeLabel(info.keyType)} ${info.fingerprint}) is marked @revoked at ${entry.file}:${entry.line}; refused`,
      'HOST_KEY_REVOKED',
      info.host,
      info.port,
      info.fingerprint,
    );
  }
}

function keyFileWord(keyType: string): string {
  if (keyType === 'ssh-ed25519') return 'ed25519';
  if (keyType === 'ssh-rsa') return 'rsa';
  if (keyType.startsWith('ecdsa-')) return 'ecdsa';
  return '*';
}

export interface KnownHostsFiles {
  /** Files read, in order. The app store is always among them. */
  readFiles: string[];
  /** The app store: the only file written. */
  storeFile: string;
}

/**
 * ssh(1)'s GlobalKnownHostsFile default. ssh reads these whatever UserKnownHostsFile says; a key
 * pinned there for a fleet is a key KVScope must know too: unread, a board presenting another key
 * looked unknown and was trusted on first use (--accept-new-host-key) instead of refused.
 */
export const GLOBAL_KNOWN_HOSTS_FILES: readonly string[] = ['/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_known_hosts2'];

/** ssh(1)'s UserKnownHostsFile default, under ~/.ssh. */
const DEFAULT_USER_KNOWN_HOSTS = ['known_hosts', 'known_hosts2'];

/**
 * The files of docs/DESIGN.md's CLI contract: the app's store, then the user's files —
 * `--known-hosts <file>`, or every file of ~/.ssh/config's UserKnownHostsFile, else ssh(1)'s
 * ~/.ssh/known_hosts and ~/.ssh/known_hosts2 — then the global ones, as ssh(1) reads them: a key
 * any of them holds for the host is its key, and another one is refused. KVScope never writes
 * to ~/.ssh.
 */
export function defaultKnownHostsFiles(
  userFiles?: string | readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  globalFiles: readonly string[] = GLOBAL_KNOWN_HOSTS_FILES,
): KnownHostsFiles {
  const storeFile = appKnownHostsPath(env);
  const user =
    userFiles === undefined
      ? DEFAULT_USER_KNOWN_HOSTS.map((name) => join(homedir(), '.ssh', name))
      : typeof userFiles === 'string'
        ? [userFiles]
        : userFiles;
  // `UserKnownHostsFile none` reads no file (ssh_config(5)).
  const named = [...user, ...globalFiles].filter((f) => f.toLowerCase() !== 'none');
  return { storeFile, readFiles: [...new Set([storeFile, ...named])] };
}

export class KnownHostsStore {
  constructor(readonly files: KnownHostsFiles) {}

  /** Re-read every file (they may change between connects). Missing files are empty. */
  async load(): Promise<KnownHostsParse> {
    const all: KnownHostsParse = { entries: [], notes: [] };
    for (const file of this.files.readFiles) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') all.notes.push(`${file}: cannot read (${code ?? 'error'}), skipped`);
        continue;
      }
      const parsed = parseKnownHosts(text, file);
      all.entries.push(...parsed.entries);
      all.notes.push(...parsed.notes);
    }
    return all;
  }

  async check(host: string, port: number, keyBlob: Buffer): Promise<HostKeyCheck & { notes: string[] }> {
    const { entries, notes } = await this.load();
    return { ...checkHostKey(entries, host, port, keyBlob), notes };
  }

  /** Key types already recorded for the host (to prefer them in the key exchange, like ssh(1)). */
  async knownKeyTypes(host: string, port: number): Promise<string[]> {
    const { entries } = await this.load();
    const name = knownHostName(host, port);
    return [
      ...new Set(
        entries.filter((e) => e.marker === undefined && hostFieldMatches(e.hosts, name)).map((e) => e.keyType),
      ),
    ];
  }

  /** Append the host's key to the app store; returns where it went. */
  async add(host: string, port: number, keyBlob: Buffer): Promise<{ file: string; line: number }> {
    const keyType = keyTypeOfBlob(keyBlob);
    if (!keyType) throw new Error('cannot store an unreadable host key');
    const file = this.files.storeFile;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    let existing = '';
    try {
      existing = await readFile(file, 'utf8');
    } catch {
      existing = '';
    }
    const prefix = existing.length > 0 && !existing.endsWith('\n') ? '\n' : '';
    const line = `${knownHostName(host, port)} ${keyType} ${keyBlob.toString('base64')}\n`;
    await appendFile(file, prefix + line, { mode: 0o600 });
    const lineNo = (existing + prefix).split('\n').length; // '' → 1; 'a\n' → 2
    return { file, line: lineNo };
  }
}

export type HostKeyVerdict =
  { status: 'known'; entry: KnownHostEntry } | { status: 'added'; file: string; line: number };

/**
 * Decide about a presented host key: known → accept; unknown → ask `confirmHostKey` (absent →
 * refuse), store on consent; changed or revoked → always refuse. Throws a HostKeyError.
 */
export async function verifyHostKey(options: {
  store: KnownHostsStore;
  host: string;
  port: number;
  keyBlob: Buffer;
  confirmHostKey?: ConfirmHostKey;
  onNote?: (note: string) => void;
}): Promise<HostKeyVerdict> {
  const { store, host, port, keyBlob } = options;
  const keyType = keyTypeOfBlob(keyBlob) ?? 'unknown';
  const info: HostKeyInfo = { host, port, keyType, fingerprint: fingerprintSha256(keyBlob) };
  const result = await store.check(host, port, keyBlob);
  for (const note of result.notes) options.onNote?.(note);
  switch (result.status) {
    case 'known':
      return { status: 'known', entry: result.entry };
    case 'revoked':
      throw new HostKeyRevokedError(info, result.entry);
    case 'changed':
      throw new HostKeyChangedError(info, result.oldEntries[0]);
    case 'unknown': {
      const ok = options.confirmHostKey ? await options.confirmHostKey(info) : false;
      if (!ok) throw new HostKeyUnknownError(info, store.files.storeFile);
      const where = await store.add(host, port, keyBlob);
      return { status: 'added', ...where };
    }
  }
}
