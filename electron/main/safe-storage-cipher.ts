// Electron's safeStorage as the SecretCipher of electron/node/boards/secret-store.ts. A plain
// function over the few safeStorage calls it uses, so tests run it with a fake under Node.
//
// The synchronous encryptString/decryptString pair is used on purpose: getSelectedStorageBackend()
// describes the backend of exactly that encryptor (Chromium's OSCrypt), and 'basic_text' — the
// Linux fallback that encrypts with a key compiled into the binary — is what must turn
// remembering off. Electron 45 offers no such query for the async encryptor.
import type { SecretCipher } from '../node/boards/secret-store';

/** The part of Electron's SafeStorage used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

export function safeStorageCipher(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform = process.platform,
): SecretCipher {
  const backend = () => {
    if (platform === 'darwin') return 'keychain';
    if (platform === 'win32') return 'dpapi';
    try {
      return safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    } catch {
      return 'unknown';
    }
  };
  return {
    backend,
    isAvailable: () => {
      try {
        return safeStorage.isEncryptionAvailable();
      } catch {
        return false;
      }
    },
    encrypt: (text) => safeStorage.encryptString(text),
    decrypt: (data) => safeStorage.decryptString(data),
  };
}
