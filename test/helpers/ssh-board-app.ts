// The app in browser mode (browser-app.ts) with a board over a REAL OpenSSH sshd on loopback that
// already trusts its host key (sshd.ts), the login's environment set by sshd's `SetEnv` (shim
// board tools first on PATH, a sysfs root, a TMPDIR): what the e2e tests of a board's tools share.
import { addTrustedBoardAndProbe, openBrowserApp, type BrowserApp } from './browser-app';
import { startTrustedSshd, type Sshd } from './sshd';

export interface SshBoardApp {
  app: BrowserApp;
  sshd: Sshd;
  /** Adds the board in the board list under `label` and presses "Test & probe" (addTrustedBoardAndProbe). */
  addBoardAndProbe(label: string): Promise<void>;
  close(): Promise<void>;
}

/** `setEnv`: the value of sshd's `SetEnv` line, e.g. `PATH=<shims>:/usr/bin:/bin TMPDIR=<dir>`. */
export async function openAppWithSshBoard(homePrefix: string, setEnv: string): Promise<SshBoardApp> {
  const { sshd, knownHosts } = await startTrustedSshd({ extraConfig: [`SetEnv ${setEnv}`] });
  // Key authentication with the harness's client key only, never the developer's agent.
  delete process.env.SSH_AUTH_SOCK;
  let app: BrowserApp;
  try {
    app = await openBrowserApp({ homePrefix });
  } catch (error) {
    await sshd.stop();
    throw error;
  }
  return {
    app,
    sshd,
    addBoardAndProbe: (label) =>
      addTrustedBoardAndProbe(app.page, {
        label,
        port: sshd.port,
        user: sshd.user,
        identityFile: sshd.clientKey.privatePath,
        knownHostsFile: knownHosts,
      }),
    async close() {
      await app.close();
      await sshd.stop();
    },
  };
}
