// Reading a GGUF header over SSH (loopback sshd): a model with a 256k-entry vocabulary and 1 GiB
// of (sparse) tensor data, read through the SSH Target's byte ranges — what `--gguf` costs on a
// board before a run starts.
import { chmod, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufHeaderFromTarget } from '../electron/node/model/gguf-reader';
import { createTarget } from '../electron/node/transport/target-spec';
import { vocabModelHeader } from '../test/helpers/gguf-fixture';
import { keyUserLogin, sshTargetSpec, startSshd } from '../test/helpers/sshd';
import type { Target } from '../electron/node/transport/target';
import type { BenchRow } from './bench-util';

const VOCAB = 256_000;
const RUNS = 5;

export async function benchGgufSsh(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'kvscope-gguf-ssh-'));
  await chmod(dir, 0o755);
  const sshd = await startSshd();
  let target: Target | undefined;
  try {
    const header = vocabModelHeader(VOCAB);
    const path = join(dir, 'vocab256k.gguf');
    const fh = await open(path, 'w');
    await fh.write(header, 0, header.length, 0);
    await fh.truncate(header.length + 1024 ** 3);
    await fh.close();
    await chmod(path, 0o644);
    const { user, knownHosts } = await keyUserLogin(sshd);
    target = await createTarget(sshTargetSpec(sshd, knownHosts, user));
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const h = await readGgufHeaderFromTarget(target, path);
      ms.push(performance.now() - t);
      if (!h) throw new Error('no header');
    }
    ms.sort((a, b) => a - b);
    return [
      {
        name: 'header read over SSH (256k vocabulary)',
        value: `${(ms[Math.floor(ms.length / 2)] ?? NaN).toFixed(1)} ms`,
        note: `median of ${RUNS}, loopback sshd, connection open; header ${(header.length / 1e6).toFixed(1)} MB of a ${((header.length + 1024 ** 3) / 1e9).toFixed(2)} GB file`,
      },
    ];
  } finally {
    await target?.close();
    await sshd.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
