// SSH transport costs against a real OpenSSH sshd on loopback (test/helpers/sshd.ts): connect time
// (TCP + key exchange + host key check + auth), exec round trip, and file throughput of a 16 MiB
// byte range over SFTP and over the exec fallback (`tail -c | head -c`) that busybox boards get.
// Logged in as a plain /bin/sh user when run as root, so that a login shell's rc files (this
// machine's root runs pyenv init in .bashrc: +100 ms per exec) do not hide the transport.
import { randomBytes } from 'node:crypto';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureKeyUser, makeTempDir, startSshd, writeKnownHosts } from '../test/helpers/sshd';
import { SshTarget, type SshTargetOptions } from '../electron/node/transport/ssh-target';
import { KnownHostsStore } from '../electron/node/transport/known-hosts';
import type { BenchRow } from './bench-util';

const CONNECTS = 15;
const EXECS = 200;
const RANGE_BYTES = 16 * 1024 * 1024;
const READS = 3;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}
const ms = (x: number) => `${x.toFixed(1)} ms`;

export async function benchSsh(): Promise<BenchRow[]> {
  const sshd = await startSshd({ logLevel: 'INFO' });
  const dir = await makeTempDir('kvscope-bench-ssh-');
  const rows: BenchRow[] = [];
  try {
    await chmod(dir, 0o1777); // the bench user reads and writes here
    const user = process.getuid?.() === 0 ? await ensureKeyUser() : sshd.user;
    const knownHosts = await writeKnownHosts(join(dir, 'known_hosts'), [sshd.knownHostsLine]);
    const options = (over: Partial<SshTargetOptions> = {}): SshTargetOptions => ({
      target: { host: sshd.host, port: sshd.port, username: user, identityFiles: [sshd.clientKey.privatePath] },
      knownHosts: new KnownHostsStore({ readFiles: [knownHosts], storeFile: join(dir, 'store') }),
      agentSocket: null,
      ...over,
    });

    const connectMs: number[] = [];
    for (let i = 0; i < CONNECTS; i++) {
      const t0 = performance.now();
      const t = await SshTarget.connect(options());
      connectMs.push(performance.now() - t0);
      await t.close();
    }
    connectMs.sort((a, b) => a - b);
    rows.push({
      name: 'connect (TCP+kex+host key+auth)',
      value: ms(quantile(connectMs, 0.5)),
      note: `median of ${CONNECTS}, p90 ${ms(quantile(connectMs, 0.9))}, ed25519 key, loopback`,
    });

    const sftp = await SshTarget.connect(options());
    const viaExec = await SshTarget.connect(options({ sftp: false }));
    try {
      const execMs: number[] = [];
      for (let i = 0; i < EXECS; i++) {
        const t0 = performance.now();
        await sftp.exec('true');
        execMs.push(performance.now() - t0);
      }
      execMs.sort((a, b) => a - b);
      rows.push({
        name: 'exec round trip (`true`)',
        value: ms(quantile(execMs, 0.5)),
        note: `median of ${EXECS}, p90 ${ms(quantile(execMs, 0.9))}, new channel each; as ${user}`,
      });

      const file = join(dir, 'blob.bin');
      await writeFile(file, randomBytes(2 * RANGE_BYTES));
      await chmod(file, 0o644);
      for (const [label, t] of [
        ['SFTP', sftp],
        ['exec tail|head', viaExec],
      ] as const) {
        const rates: number[] = [];
        for (let i = 0; i < READS; i++) {
          const t0 = performance.now();
          const buf = await t.readFile(file, { offset: RANGE_BYTES / 2 + i, length: RANGE_BYTES });
          const s = (performance.now() - t0) / 1000;
          if (buf.length !== RANGE_BYTES) throw new Error(`read ${buf.length} bytes, expected ${RANGE_BYTES}`);
          rates.push(RANGE_BYTES / 1024 / 1024 / s);
        }
        rates.sort((a, b) => a - b);
        rows.push({
          name: `readFile 16 MiB range (${label})`,
          value: `${quantile(rates, 0.5).toFixed(0)} MiB/s`,
          note: `median of ${READS}`,
        });
      }
      const payload = randomBytes(RANGE_BYTES);
      const t0 = performance.now();
      await sftp.writeFile(join(dir, 'upload.bin'), payload);
      rows.push({
        name: 'writeFile 16 MiB (SFTP)',
        value: `${(RANGE_BYTES / 1024 / 1024 / ((performance.now() - t0) / 1000)).toFixed(0)} MiB/s`,
        note: 'one run',
      });
    } finally {
      await Promise.all([sftp.close(), viaExec.close()]);
    }
  } finally {
    await sshd.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
