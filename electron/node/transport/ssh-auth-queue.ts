// Authentication of one hop, as ssh(1) does it: an explicit ordered queue — ssh-agent, identity
// files, password, keyboard-interactive — filtered by the methods the server still accepts
// (ssh2's authHandler function form). It starts with "none" to learn those methods, so no
// password or passphrase is asked for a method the server would refuse anyway. A wrong passphrase
// is asked again, up to 3 times in all, as ssh(1) does. Secrets that a human typed are
// registered with util/redact.ts before they are used.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import ssh2, { type ParsedKey } from 'ssh2';
import { registerSecret } from '../util/redact';
import {
  bareHost,
  DEFAULT_IDENTITY_NAMES,
  hopName,
  MAX_PASSPHRASE_ATTEMPTS,
  type CredentialRequest,
  type SshCallbacks,
  type SshHop,
} from './ssh-options';

// ssh2 is CommonJS: Node's ESM loader (the CLI runs under tsx) cannot see all of its named exports.
const { utils: ssh2utils } = ssh2;

type Step =
  | { kind: 'agent'; socket: string }
  | { kind: 'key'; file: string }
  | { kind: 'password' }
  | { kind: 'keyboard-interactive' };

/** The argument of ssh2's authHandler `next` (typed loosely by @types/ssh2): a method or false. */
export type AuthMethod = Record<string, unknown> | false;

export interface AuthQueue {
  /** The next method to try, given the methods the server still accepts (null on the first call). */
  next(methodsLeft: string[] | null): Promise<AuthMethod>;
  /** "authenticated with key ~/.ssh/id_ed25519", for the connect log line. */
  succeeded(): string;
  /** What was tried and what the server accepts, for the "authentication failed" message. */
  summary(): string;
}

export interface AuthQueueContext {
  callbacks: SshCallbacks;
  /** ssh-agent socket; undefined → $SSH_AUTH_SOCK; null disables the agent. */
  agentSocket: string | null | undefined;
  /**
   * Passwords by hop name, shared by every connection of one target: asked once, reused by
   * reconnects (null: asked and none given).
   */
  passwords: Map<string, string | null>;
  log: (line: string) => void;
}

/** Why an identity file could not be read, by errno code, in the failure message's words. */
const UNREADABLE_KEY_WORDS: Record<string, string> = {
  ENOENT: 'not found',
  EISDIR: 'a directory, not a key file',
  EACCES: 'not readable by this user',
};

export function createAuthQueue(hop: SshHop, context: AuthQueueContext): AuthQueue {
  const { callbacks, passwords, log } = context;
  const steps: Step[] = [];
  const agentSocket = context.agentSocket === undefined ? process.env.SSH_AUTH_SOCK : context.agentSocket;
  if (agentSocket && !hop.identitiesOnly) steps.push({ kind: 'agent', socket: agentSocket });
  const files = hop.identityFiles ?? DEFAULT_IDENTITY_NAMES.map((n) => join(homedir(), '.ssh', n));
  for (const file of files) steps.push({ kind: 'key', file });
  if (callbacks.password) steps.push({ kind: 'password' }, { kind: 'keyboard-interactive' });

  const tried: string[] = [];
  let serverMethods: string[] | null = null;
  let current = '';
  const methodOf = (s: Step) => (s.kind === 'agent' || s.kind === 'key' ? 'publickey' : s.kind);
  const credential: CredentialRequest = { host: bareHost(hop.host), port: hop.port, username: hop.username };

  const getPassword = async (): Promise<string | undefined> => {
    const k = hopName(hop);
    if (!passwords.has(k)) {
      const pw = await callbacks.password?.(credential);
      if (pw !== undefined && pw !== '') registerSecret(pw);
      passwords.set(k, pw ?? null);
    }
    return passwords.get(k) ?? undefined;
  };

  /**
   * An encrypted identity file parsed with its passphrase, asked up to MAX_PASSPHRASE_ATTEMPTS
   * times as ssh(1) does (each retry tells the source why), or undefined (skipped, reason noted).
   * A source that gives a wrong passphrase again (an environment variable, a remembered value)
   * is not asked a further time. A key given up on a wrong passphrase (or a Cancel after one)
   * ends the password and keyboard-interactive steps: a password question next would hide why
   * the key failed.
   */
  const unlock = async (file: string, data: Buffer): Promise<ReturnType<typeof ssh2utils.parseKey> | undefined> => {
    if (!callbacks.passphrase) {
      log(`identity file ${file} is encrypted and no passphrase source is set, skipped`);
      tried.push(`key ${file} (encrypted, no passphrase)`);
      return undefined;
    }
    // Only to notice a repeat; this closure ends with the attempt.
    const wrong = new Set<string>();
    const from = callbacks.passphraseSource ? ` from ${callbacks.passphraseSource}` : '';
    const giveUp = (why: string) => {
      tried.push(`key ${file} (${why})`);
      const before = steps.length;
      steps.splice(0, steps.length, ...steps.filter((s) => s.kind !== 'password' && s.kind !== 'keyboard-interactive'));
      if (steps.length < before) log(`no password asked after the wrong passphrase of ${file}`);
      return undefined;
    };
    for (let attempt = 1; attempt <= MAX_PASSPHRASE_ATTEMPTS; attempt++) {
      const retry = attempt > 1 ? { attempt, maxAttempts: MAX_PASSPHRASE_ATTEMPTS } : undefined;
      const passphrase = await callbacks.passphrase(retry ? { keyFile: file, retry } : { keyFile: file });
      if (passphrase === undefined || passphrase === '') {
        // Cancel on the first question skips the key as before; on a retry it stops the asking.
        if (retry) return giveUp('wrong passphrase, then none given');
        const none = callbacks.passphraseSource ? `${callbacks.passphraseSource} is not set` : 'no passphrase given';
        tried.push(`key ${file} (encrypted, ${none})`);
        return undefined;
      }
      registerSecret(passphrase);
      if (wrong.has(passphrase)) {
        log(`identity file ${file}: the same wrong passphrase was given again, not asking again`);
        return giveUp(`wrong passphrase${from}`);
      }
      const parsed = ssh2utils.parseKey(data, passphrase);
      if (!(parsed instanceof Error)) return parsed;
      wrong.add(passphrase);
      log(`identity file ${file}: wrong passphrase (attempt ${attempt} of ${MAX_PASSPHRASE_ATTEMPTS})`);
    }
    return giveUp(`wrong passphrase${from}, ${MAX_PASSPHRASE_ATTEMPTS} attempts`);
  };

  /** An identity file as an ssh2 publickey method, or undefined (skipped, with the reason noted). */
  const keyMethod = async (file: string): Promise<AuthMethod | undefined> => {
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch (error) {
      // A file the user named (not one of the ~/.ssh/id_* defaults) is said in the failure: a
      // typo in its path otherwise surfaces as a password question for a key-only board.
      if (hop.identityFiles) {
        const code = (error as NodeJS.ErrnoException).code;
        log(`identity file ${file}: ${code ?? 'unreadable'}, skipped`);
        tried.push(`key ${file} (${UNREADABLE_KEY_WORDS[code ?? ''] ?? 'unreadable'})`);
      }
      return undefined;
    }
    let parsed = ssh2utils.parseKey(data);
    if (parsed instanceof Error && /encrypted|passphrase/i.test(parsed.message)) {
      const unlocked = await unlock(file, data);
      if (!unlocked) return undefined;
      parsed = unlocked;
    }
    // ssh2 returns an array for a file holding several keys (its typings leave that out).
    const found: unknown = parsed;
    const key = Array.isArray(found) ? (found[0] as ParsedKey | undefined) : parsed;
    if (key instanceof Error || !key || !key.isPrivateKey()) {
      log(`identity file ${file} is not a private key ssh2 can use, skipped`);
      const publicKey = key && !(key instanceof Error) && !key.isPrivateKey();
      tried.push(`key ${file} (${publicKey ? 'a public key: name the private one' : 'not a private key'})`);
      return undefined;
    }
    current = `key ${file}`;
    tried.push(current);
    log(`trying identity file ${file} for ${hopName(hop)}`);
    return { type: 'publickey', username: hop.username, key };
  };

  let askedNone = false;
  const next = async (methodsLeft: string[] | null): Promise<AuthMethod> => {
    if (methodsLeft) serverMethods = methodsLeft;
    if (methodsLeft === null && !askedNone) {
      askedNone = true;
      return { type: 'none', username: hop.username };
    }
    for (let step = steps.shift(); step; step = steps.shift()) {
      if (methodsLeft && !methodsLeft.includes(methodOf(step))) continue;
      switch (step.kind) {
        case 'agent':
          current = 'agent';
          tried.push('ssh-agent');
          log(`trying the ssh-agent keys for ${hopName(hop)}`);
          return { type: 'agent', username: hop.username, agent: step.socket };
        case 'key': {
          const method = await keyMethod(step.file);
          if (method) return method;
          continue;
        }
        case 'password': {
          const pw = await getPassword();
          if (pw === undefined) continue;
          current = 'password';
          tried.push('password');
          log(`trying password authentication for ${hopName(hop)}`);
          return { type: 'password', username: hop.username, password: pw };
        }
        case 'keyboard-interactive': {
          const pw = await getPassword();
          if (pw === undefined) continue;
          current = 'keyboard-interactive';
          tried.push('keyboard-interactive');
          log(`trying keyboard-interactive authentication for ${hopName(hop)}`);
          return {
            type: 'keyboard-interactive',
            username: hop.username,
            // Answer password prompts with the password; anything else (an OTP) cannot be answered.
            prompt: (
              _name: string,
              _instructions: string,
              _lang: string,
              prompts: Array<{ prompt: string; echo?: boolean }>,
              finish: (answers: string[]) => void,
            ) => finish(prompts.map((p) => (!p.echo && /pass(?:word|code|phrase)?/i.test(p.prompt) ? pw : ''))),
          };
        }
      }
    }
    current = '';
    return false;
  };

  return {
    next,
    succeeded: () => (current ? `authenticated with ${current}` : 'authenticated'),
    summary: () => {
      const triedText = tried.length
        ? `tried ${tried.join(', ')}`
        : 'no usable credential (no agent, no readable identity file, no password)';
      const server = serverMethods ? `; the server accepts ${serverMethods.join(', ')}` : '';
      return triedText + server;
    },
  };
}
