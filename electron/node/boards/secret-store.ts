// Remembered credentials (SSH passwords, key passphrases) — only when the user ticks "remember",
// and only where the operating system can protect them. The desktop shell supplies a
// SecretCipher over Electron's safeStorage (electron/main/safe-storage-cipher.ts: the macOS
// Keychain, Windows DPAPI, or the Linux Secret Service / KWallet); this file keeps the
// ciphertexts as base64 in secrets.json in the app data dir (atomic writes, 0600).
//
// There is deliberately NO fallback: when safeStorage would only obfuscate (Linux without a
// keyring: backend 'basic_text') or there is no safeStorage at all (browser mode, the CLI),
// nothing is stored, and the status says why so the UI can say it next to the checkbox.
//
// Keys are "<board id>|password|user@host:port" and "<board id>|passphrase|<key file>": a
// remembered password is only ever offered to the same account on the same host, after that
// host's key was verified, and forgetting a board forgets all of its keys.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { SecretStorageStatus } from '../../../shared/api/schemas';
import { appDataDir } from '../config/app-paths';
import { SerialQueue, writeFileAtomic } from '../util/atomic-file';
import { registerSecret } from '../util/redact';

export const SECRETS_FILE_NAME = 'secrets.json';

export interface SecretStore {
  status(): SecretStorageStatus;
  get(key: string): Promise<string | undefined>;
  /** Throws when storage is not available (callers check status() first). */
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean>;
  /** Remove every key starting with `prefix`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  countPrefix(prefix: string): Promise<number>;
}

/** What the shell's OS-backed encryption offers (Electron's safeStorage, or a fake in tests). */
export interface SecretCipher {
  /** 'keychain' (macOS), 'dpapi' (Windows), 'gnome_libsecret' / 'kwallet*' / 'basic_text' / 'unknown' (Linux). */
  backend(): string;
  isAvailable(): boolean;
  encrypt(text: string): Buffer | Promise<Buffer>;
  decrypt(data: Buffer): string | Promise<string>;
}

/** Backends that only obfuscate: Chromium's Linux fallback encrypts with a key hard-coded in the binary. */
const INSECURE_BACKENDS = new Set(['basic_text']);

export const NO_STORAGE_REASONS = {
  browser:
    'Browser mode does not remember passwords: there is no OS keychain to protect them here. The password is used for this connection only.',
  basicText:
    'No keyring was found (GNOME Keyring / KWallet): Electron could only store it as plain text, so KVScope does not remember passwords. The password is used for this connection only.',
  unavailable:
    'The operating system refused to encrypt data for KVScope, so passwords are not remembered. The password is used for this connection only.',
} as const;

export const secretKeys = {
  password: (boardId: string, account: string) => `${boardId}|password|${account}`,
  passphrase: (boardId: string, keyFile: string) => `${boardId}|passphrase|${keyFile}`,
  boardPrefix: (boardId: string) => `${boardId}|`,
};

/** The store used where nothing may be remembered (browser mode, CLI, tests). */
export function noSecretStore(reason: string = NO_STORAGE_REASONS.browser, backend = 'none'): SecretStore {
  const status: SecretStorageStatus = { available: false, backend, reason };
  return {
    status: () => status,
    get: () => Promise.resolve(undefined),
    set: () => Promise.reject(new Error(reason)),
    delete: () => Promise.resolve(false),
    deletePrefix: () => Promise.resolve(0),
    countPrefix: () => Promise.resolve(0),
  };
}

const FileSchema = z.object({ version: z.literal(1), backend: z.string(), secrets: z.record(z.string(), z.string()) });
type SecretsFile = z.infer<typeof FileSchema>;

export class EncryptedFileSecretStore implements SecretStore {
  readonly path: string;
  private readonly writes = new SerialQueue();

  constructor(
    private readonly cipher: SecretCipher,
    options: { dir?: string; env?: NodeJS.ProcessEnv } = {},
  ) {
    this.path = join(options.dir ?? appDataDir(options.env), SECRETS_FILE_NAME);
  }

  status(): SecretStorageStatus {
    const backend = this.cipher.backend();
    if (INSECURE_BACKENDS.has(backend)) return { available: false, backend, reason: NO_STORAGE_REASONS.basicText };
    if (backend === 'unknown' || !this.cipher.isAvailable())
      return { available: false, backend, reason: NO_STORAGE_REASONS.unavailable };
    return { available: true, backend, reason: null };
  }

  private async read(): Promise<SecretsFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { version: 1, backend: this.cipher.backend(), secrets: {} };
      throw error;
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // handled below like any other unreadable content
    }
    const parsed = FileSchema.safeParse(json);
    // An unreadable file means "nothing remembered": asking again is the safe failure.
    return parsed.success ? parsed.data : { version: 1, backend: this.cipher.backend(), secrets: {} };
  }

  async get(key: string): Promise<string | undefined> {
    if (!this.status().available) return undefined;
    const file = await this.read().catch(() => undefined);
    const stored = file?.secrets[key];
    if (stored === undefined) return undefined;
    try {
      const value = await this.cipher.decrypt(Buffer.from(stored, 'base64'));
      registerSecret(value);
      return value;
    } catch {
      // Keychain reset, another user's file, a different backend: forget it and ask again.
      await this.delete(key).catch(() => undefined);
      return undefined;
    }
  }

  set(key: string, value: string): Promise<void> {
    registerSecret(value);
    const status = this.status();
    if (!status.available) return Promise.reject(new Error(status.reason ?? 'secret storage is not available'));
    return this.writes.run(async () => {
      const encrypted = await this.cipher.encrypt(value);
      const file = await this.read();
      file.secrets[key] = Buffer.from(encrypted).toString('base64');
      file.backend = status.backend;
      await writeFileAtomic(this.path, JSON.stringify(file, null, 2) + '\n');
    });
  }

  delete(key: string): Promise<boolean> {
    return this.writes.run(async () => {
      const file = await this.read();
      if (!(key in file.secrets)) return false;
      delete file.secrets[key];
      await writeFileAtomic(this.path, JSON.stringify(file, null, 2) + '\n');
      return true;
    });
  }

  deletePrefix(prefix: string): Promise<number> {
    return this.writes.run(async () => {
      const file = await this.read();
      const keys = Object.keys(file.secrets).filter((k) => k.startsWith(prefix));
      if (keys.length === 0) return 0;
      for (const k of keys) delete file.secrets[k];
      await writeFileAtomic(this.path, JSON.stringify(file, null, 2) + '\n');
      return keys.length;
    });
  }

  async countPrefix(prefix: string): Promise<number> {
    const file = await this.read().catch(() => undefined);
    return file ? Object.keys(file.secrets).filter((k) => k.startsWith(prefix)).length : 0;
  }
}
