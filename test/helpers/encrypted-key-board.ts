// A new app and a loopback sshd that knows an encrypted client key, with a board for it saved (not
// probed: its host key is not known yet, so "Test & probe" asks for it, then for the passphrase).
// For the e2e tests of those dialogs (test/e2e/dialog-focus.test.ts, passphrase-retry.test.ts).
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { addBoard, openBrowserApp, type BrowserApp } from './browser-app';
import { ensureKeyUser, generateKey, makeTempDir, startSshd, type Sshd } from './sshd';

export interface EncryptedKeyBoard {
  app: BrowserApp;
  sshd: Sshd;
  /** The encrypted private key's path, as the board names it. */
  keyPath: string;
  close(): Promise<void>;
}

export async function openAppWithEncryptedKeyBoard(options: {
  label: string;
  passphrase: string;
  prefix: string;
}): Promise<EncryptedKeyBoard> {
  const sshd = await startSshd();
  const dir = await makeTempDir(`${options.prefix}-`);
  const key = await generateKey(join(dir, 'client_encrypted'), { passphrase: options.passphrase });
  await appendFile(join(sshd.dir, 'authorized_keys'), key.publicLine + '\n');
  const user = await ensureKeyUser();
  delete process.env.SSH_AUTH_SOCK;
  const app = await openBrowserApp({ homePrefix: `${options.prefix}-home-` });
  await addBoard(app.page, {
    label: options.label,
    port: sshd.port,
    user,
    identityFile: key.privatePath,
    knownHostsFile: join(dir, 'user_known_hosts'),
  });
  return {
    app,
    sshd,
    keyPath: key.privatePath,
    async close() {
      await app.close();
      await sshd.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
