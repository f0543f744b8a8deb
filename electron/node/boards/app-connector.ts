// How the app (desktop window or browser mode) connects to a board: createTarget from transport/,
// with the interactive parts wired to the UI instead of CLI flags. An unknown host key becomes a
// hostKeyPrompt event and waits for answerHostKey (accepted keys land in the app's known_hosts);
// a CHANGED key is never asked about — verifyHostKey refuses it before any callback, and the
// error names both fingerprints. Passwords and passphrases become credentialPrompt events; they
// are remembered only when the user asks, the storage is a real keychain, and the board is a
// saved one, and only after the connection authenticated (a mistyped password is never kept).
// A passphrase that did not unlock its key (the transport asks again, with `retry`) is dropped
// from this connection, this app's memory and the remembered secrets, and the dialog says why.
import type { CredentialPrompt, TargetSpec } from '../../../shared/api/schemas';
import { appKnownHostsPath } from '../config/app-paths';
import type { TargetFactory } from '../run/run-service';
import { LocalTarget } from '../transport/local-target';
import { createTarget, type CreateTargetOptions } from '../transport/target-spec';
import type { Target } from '../transport/target';
import { describeConnectError } from './connect-errors';
import type { PromptBroker, PromptOutcome } from './prompt-broker';
import { secretKeys, type SecretStore } from './secret-store';
import type { BoardStore } from './board-store';

export interface AppConnectorOptions {
  prompts: PromptBroker;
  secrets: SecretStore;
  boards: BoardStore;
  env?: NodeJS.ProcessEnv;
  /** Per hop, not counting time spent in prompts (transport/ssh-connection-chain.ts pauses its deadline). */
  connectTimeoutMs?: number;
  /** Progress lines (already redacted). */
  log?: (line: string) => void;
  /** The prompt timeout, for the words of the error when a question went unanswered. */
  promptTimeoutMs?: number;
  /** Tests replace the connection itself. */
  createTarget?: (spec: TargetSpec, options: CreateTargetOptions) => Promise<Target>;
}

/** user@host[:port] as ssh(1) would write it ([v6] when needed). */
export function accountName(user: string, host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${user}@${h}${port === 22 ? '' : `:${port}`}`;
}

export function defaultBoardLabel(spec: Extract<TargetSpec, { kind: 'ssh' }>): string {
  const h = spec.host.includes(':') && !spec.host.startsWith('[') ? `[${spec.host}]` : spec.host;
  return spec.alias ?? `${spec.user ? spec.user + '@' : ''}${h}${spec.port && spec.port !== 22 ? `:${spec.port}` : ''}`;
}

export class AppConnector {
  /**
   * Passwords and passphrases typed in this app's lifetime, per target and account, kept in
   * memory only (never in a file): a board asks once, not on every probe and run. Forgotten when
   * refused by the board, and by forgetTyped (the board's "Forget" and removal).
   */
  private readonly typed = new Map<string, string>();

  constructor(private readonly options: AppConnectorOptions) {}

  /** Drops what was typed for a saved board (or for every board). */
  forgetTyped(boardId?: string): void {
    if (boardId === undefined) this.typed.clear();
    else for (const key of [...this.typed.keys()]) if (key.startsWith(`${boardId}\0`)) this.typed.delete(key);
  }

  /** The RunService's TargetFactory: a run request carries a spec, matched to a saved board for its name and secrets. */
  readonly factory: TargetFactory = (spec, signal) => this.connect(spec, { signal });

  /**
   * A connected target. `signal` (a Stop pressed while starting) abandons the attempt: the
   * connection is dropped and a question it was asking is withdrawn (promptClosed, cancelled).
   */
  async connect(
    spec: TargetSpec,
    context: { boardId?: string; label?: string; signal?: AbortSignal } = {},
  ): Promise<Target> {
    const { signal } = context;
    if (spec.kind === 'local') return new LocalTarget();
    const { prompts, secrets, boards } = this.options;
    const env = this.options.env ?? process.env;
    // CLI-only fields are never honoured here: passwordEnv would send one of the app's own
    // environment variables to whatever host a request names; acceptNewHostKey would skip the
    // fingerprint dialog.
    const { passwordEnv: _passwordEnv, acceptNewHostKey: _acceptNew, ...appSpec } = spec;
    const saved = context.boardId
      ? await boards.get(context.boardId)
      : await boards.findBySpec(appSpec).catch(() => undefined);
    const boardId = saved?.id;
    const label = context.label ?? saved?.label ?? defaultBoardLabel(spec);

    const storage = secrets.status();
    const canRemember = storage.available && boardId !== undefined;
    const rememberNote = !storage.available
      ? storage.reason
      : boardId === undefined
        ? 'Save this board in the board list to remember its password.'
        : null;
    let hostKeyOutcome: PromptOutcome | undefined;
    let credentialOutcome: PromptOutcome | undefined;
    let credentialKind: 'password' | 'passphrase' | undefined;
    // What was typed here, by board (saved id, or the address for an unsaved one) and account.
    const typedKey = (what: string) => `${boardId ?? defaultBoardLabel(spec)}\0${what}`;
    const usedTyped = new Set<string>();
    const typedNow = new Map<string, string>();
    const usedRemembered = new Set<string>();
    const toRemember = new Map<string, string>();
    // A run's link can drop and reconnect: the passphrase typed once serves the whole life of
    // this connection (transport/ssh-link.ts caches passwords itself). One that did not unlock
    // its key (the transport asks again, with `retry`) is dropped from here and from everywhere
    // it came from: this app's memory, the remembered secrets.
    const passphrases = new Map<string, string | undefined>();
    const passphraseSource = new Map<string, 'asked' | 'typed' | 'remembered'>();

    const askPassphrase = async (
      keyFile: string,
      key: string | undefined,
      retry?: CredentialPrompt['retry'],
    ): Promise<string | undefined> => {
      const answer = await prompts.askCredential(
        { kind: 'passphrase', boardLabel: label, keyFile, canRemember, rememberNote, ...(retry ? { retry } : {}) },
        signal,
      );
      const given = answer.value ?? undefined;
      if (given === undefined) {
        credentialOutcome = answer.outcome === 'answered' ? 'cancelled' : answer.outcome;
        credentialKind = 'passphrase';
      } else {
        typedNow.set(typedKey(keyFile), given);
        if (answer.remember && key && canRemember) toRemember.set(key, given);
      }
      passphrases.set(keyFile, given);
      passphraseSource.set(keyFile, 'asked');
      return given;
    };

    const options: CreateTargetOptions = {
      env,
      log: this.options.log,
      connectTimeoutMs: this.options.connectTimeoutMs,
      signal,
      confirmHostKey: async (info) => {
        const answer = await prompts.askHostKey(
          {
            boardLabel: label,
            host: info.host,
            port: info.port,
            keyType: info.keyType,
            fingerprint: info.fingerprint,
            knownHostsPath: appKnownHostsPath(env),
          },
          signal,
        );
        hostKeyOutcome = answer.outcome;
        return answer.accepted;
      },
      password: async (request) => {
        const account = accountName(request.username, request.host, request.port);
        const inMemory = this.typed.get(typedKey(account));
        if (inMemory !== undefined && !usedTyped.has(typedKey(account))) {
          usedTyped.add(typedKey(account));
          return inMemory;
        }
        const key = boardId !== undefined ? secretKeys.password(boardId, account) : undefined;
        if (key && canRemember) {
          const remembered = await secrets.get(key).catch(() => undefined);
          if (remembered) {
            usedRemembered.add(key);
            return remembered;
          }
        }
        const answer = await prompts.askCredential(
          { kind: 'password', boardLabel: label, account, canRemember, rememberNote },
          signal,
        );
        if (answer.value === null) {
          // The dialog's Cancel answers with no value: to the user that is "cancelled".
          credentialOutcome = answer.outcome === 'answered' ? 'cancelled' : answer.outcome;
          credentialKind = 'password';
          return undefined;
        }
        if (answer.remember && key && canRemember) toRemember.set(key, answer.value);
        typedNow.set(typedKey(account), answer.value);
        return answer.value;
      },
      passphrase: async ({ keyFile, retry }) => {
        const key = boardId !== undefined ? secretKeys.passphrase(boardId, keyFile) : undefined;
        if (retry) {
          // The last answer for this key did not unlock it: nothing keeps it, the user is asked.
          const source = passphraseSource.get(keyFile) ?? 'asked';
          passphrases.delete(keyFile);
          typedNow.delete(typedKey(keyFile));
          this.typed.delete(typedKey(keyFile));
          usedTyped.delete(typedKey(keyFile));
          if (key) {
            toRemember.delete(key);
            if (usedRemembered.delete(key)) await secrets.delete(key).catch(() => false);
          }
          const reason =
            source === 'remembered'
              ? `The remembered passphrase did not unlock ${keyFile} and has been forgotten: type it again`
              : source === 'typed'
                ? `The passphrase typed earlier did not unlock ${keyFile}: type it again`
                : `That passphrase did not unlock ${keyFile}: try again`;
          return askPassphrase(keyFile, key, { ...retry, reason });
        }
        if (passphrases.has(keyFile)) return passphrases.get(keyFile);
        const inMemory = this.typed.get(typedKey(keyFile));
        if (inMemory !== undefined) {
          usedTyped.add(typedKey(keyFile));
          passphrases.set(keyFile, inMemory);
          passphraseSource.set(keyFile, 'typed');
          return inMemory;
        }
        const remembered = key && canRemember ? await secrets.get(key).catch(() => undefined) : undefined;
        if (key && remembered) {
          usedRemembered.add(key);
          passphrases.set(keyFile, remembered);
          passphraseSource.set(keyFile, 'remembered');
          return remembered;
        }
        return askPassphrase(keyFile, key);
      },
    };

    let target: Target;
    try {
      target = await (this.options.createTarget ?? createTarget)(appSpec, options);
    } catch (error) {
      let forgot = false;
      if ((error as { code?: string })?.code === 'SSH_AUTH_FAILED') {
        // Refused: what was offered from memory is wrong now (changed on the board).
        for (const key of usedTyped) this.typed.delete(key);
        if (usedRemembered.size > 0) {
          for (const key of usedRemembered) await secrets.delete(key).catch(() => false);
          forgot = true;
        }
      }
      throw describeConnectError(error, {
        label,
        hostKeyOutcome,
        credentialOutcome,
        credentialKind,
        promptTimeoutMs: this.options.promptTimeoutMs,
        forgotRemembered: forgot,
      });
    }
    for (const [key, value] of typedNow) this.typed.set(key, value);
    for (const [key, value] of toRemember) {
      await secrets
        .set(key, value)
        .catch((error: Error) =>
          this.options.log?.(`could not remember the credential for ${label}: ${error.message}`),
        );
    }
    return target;
  }
}
