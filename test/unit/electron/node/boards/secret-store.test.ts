// Remembered credentials (electron/node/boards/secret-store.ts) behind a SecretCipher, and the
// Electron safeStorage adapter (electron/main/safe-storage-cipher.ts) with a fake safeStorage:
// encrypted at rest, 0600, and NOT AT ALL where safeStorage would fall back to plain text.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EncryptedFileSecretStore,
  NO_STORAGE_REASONS,
  noSecretStore,
  secretKeys,
  type SecretCipher,
} from '../../../../../electron/node/boards/secret-store';
import { safeStorageCipher } from '../../../../../electron/main/safe-storage-cipher';
import { redact } from '../../../../../electron/node/util/redact';

/** A real cipher (AES-256-GCM with a key held in memory), standing in for the OS keychain. */
function aesCipher(backend = 'gnome_libsecret'): SecretCipher & { key: Buffer } {
  const key = randomBytes(32);
  return {
    key,
    backend: () => backend,
    isAvailable: () => true,
    encrypt: (text) => {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decrypt: (data) => {
      const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvscope-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = `Kv'$ "pw ü ${Math.random().toString(36).slice(2)}`;
const key = secretKeys.password('orin-1a2b3c', 'nvidia@orin.lan');

describe('an OS-backed store', () => {
  it('keeps only ciphertext, base64, in a 0600 file, and gives the value back', async () => {
    const store = new EncryptedFileSecretStore(aesCipher(), { dir });
    expect(store.status()).toEqual({ available: true, backend: 'gnome_libsecret', reason: null });
    await store.set(key, SECRET);
    const path = join(dir, 'secrets.json');
    const text = readFileSync(path, 'utf8');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(Object.keys(JSON.parse(text).secrets)).toEqual([key]);
    expect(await store.get(key)).toBe(SECRET);
    expect(redact(SECRET)).toBe('***');
  });

  it('forgets by board: deletePrefix and countPrefix', async () => {
    const store = new EncryptedFileSecretStore(aesCipher(), { dir });
    await store.set(secretKeys.password('a-1', 'u@h'), 'x1');
    await store.set(secretKeys.passphrase('a-1', '/k/id'), 'x2');
    await store.set(secretKeys.password('b-2', 'u@h'), 'x3');
    expect(await store.countPrefix(secretKeys.boardPrefix('a-1'))).toBe(2);
    expect(await store.deletePrefix(secretKeys.boardPrefix('a-1'))).toBe(2);
    expect(await store.countPrefix(secretKeys.boardPrefix('a-1'))).toBe(0);
    expect(await store.get(secretKeys.password('b-2', 'u@h'))).toBe('x3');
  });

  it('forgets what it cannot decrypt (keychain reset) instead of failing', async () => {
    await new EncryptedFileSecretStore(aesCipher(), { dir }).set(key, SECRET);
    const other = new EncryptedFileSecretStore(aesCipher(), { dir });
    expect(await other.get(key)).toBeUndefined();
    expect(await other.countPrefix('')).toBe(0);
  });

  it('treats a damaged file as empty', async () => {
    writeFileSync(join(dir, 'secrets.json'), '{"version": 1, "secrets": ');
    const store = new EncryptedFileSecretStore(aesCipher(), { dir });
    expect(await store.get(key)).toBeUndefined();
    await store.set(key, SECRET);
    expect(await store.get(key)).toBe(SECRET);
  });
});

describe('where nothing may be remembered', () => {
  it("refuses Linux's basic_text backend (plain text with a built-in key) and says why", async () => {
    const store = new EncryptedFileSecretStore(aesCipher('basic_text'), { dir });
    expect(store.status()).toEqual({ available: false, backend: 'basic_text', reason: NO_STORAGE_REASONS.basicText });
    await expect(store.set(key, SECRET)).rejects.toThrow(/plain text/);
    expect(() => statSync(join(dir, 'secrets.json'))).toThrow();
    expect(await store.get(key)).toBeUndefined();
  });

  it('refuses when the OS will not encrypt, or before the app is ready (unknown)', () => {
    expect(new EncryptedFileSecretStore({ ...aesCipher(), isAvailable: () => false }, { dir }).status()).toMatchObject({
      available: false,
      reason: NO_STORAGE_REASONS.unavailable,
    });
    expect(new EncryptedFileSecretStore(aesCipher('unknown'), { dir }).status()).toMatchObject({ available: false });
  });

  it('browser mode: no store at all', async () => {
    const store = noSecretStore();
    expect(store.status()).toEqual({ available: false, backend: 'none', reason: NO_STORAGE_REASONS.browser });
    await expect(store.set(key, SECRET)).rejects.toThrow(/Browser mode/);
    expect(await store.get(key)).toBeUndefined();
  });
});

describe("Electron's safeStorage as the cipher", () => {
  const fake = (backend: string) => ({
    isEncryptionAvailable: () => true,
    encryptString: (t: string) => Buffer.from([...Buffer.from(t)].reverse()),
    decryptString: (b: Buffer) => Buffer.from([...b].reverse()).toString(),
    getSelectedStorageBackend: () => backend,
  });

  it('names the backend per platform and round-trips through safeStorage', async () => {
    expect(safeStorageCipher(fake('kwallet5'), 'linux').backend()).toBe('kwallet5');
    expect(safeStorageCipher(fake('basic_text'), 'darwin').backend()).toBe('keychain');
    expect(safeStorageCipher(fake('basic_text'), 'win32').backend()).toBe('dpapi');
    const cipher = safeStorageCipher(fake('gnome_libsecret'), 'linux');
    expect(await cipher.decrypt(await cipher.encrypt('abc'))).toBe('abc');
  });

  it('on Linux with basic_text, the store is unavailable', () => {
    const store = new EncryptedFileSecretStore(safeStorageCipher(fake('basic_text'), 'linux'), { dir });
    expect(store.status().available).toBe(false);
  });

  it('a safeStorage that throws counts as unavailable', () => {
    const broken = {
      ...fake('gnome_libsecret'),
      isEncryptionAvailable: () => {
        throw new Error('not ready');
      },
    };
    expect(new EncryptedFileSecretStore(safeStorageCipher(broken, 'linux'), { dir }).status().available).toBe(false);
  });
});
