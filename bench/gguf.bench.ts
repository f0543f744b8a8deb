// GGUF header reading: how long the header of a model with a 256k-entry vocabulary takes to read,
// from a local file and through a byte-range reader (the path a remote target uses), and how many
// bytes that costs compared with the file. The file is a generated header followed by 1 GiB of
// sparse "tensor data", so the file is as large as a small real model without using the disk.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufHeader, readGgufHeaderFromFile, type ReadRange } from '../electron/node/model/gguf-reader';
import { vocabModelHeader } from '../test/helpers/gguf-fixture';
import type { BenchRow } from './bench-util';

const VOCAB = 256_000;
const TENSOR_BYTES = 1024 ** 3;
const RUNS = 7;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export async function benchGguf(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'kvscope-gguf-bench-'));
  try {
    const header = vocabModelHeader(VOCAB);
    const path = join(dir, 'vocab256k.gguf');
    const fh = await open(path, 'w');
    await fh.write(header, 0, header.length, 0);
    await fh.truncate(header.length + TENSOR_BYTES); // sparse: no disk blocks for the tensor region
    await fh.close();
    const fileBytes = header.length + TENSOR_BYTES;

    const localMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await readGgufHeaderFromFile(path);
      localMs.push(performance.now() - t);
    }

    // A byte-range reader that only knows (offset, length), as a Target's readFile does.
    const rangeMs: number[] = [];
    let bytesRead = 0;
    let reads = 0;
    const handle = await open(path, 'r');
    try {
      const readRange: ReadRange = async (offset, length) => {
        const buffer = Buffer.alloc(length);
        const { bytesRead: n } = await handle.read(buffer, 0, length, offset);
        bytesRead += n;
        reads++;
        return buffer.subarray(0, n);
      };
      for (let i = 0; i < RUNS; i++) {
        bytesRead = 0;
        reads = 0;
        const t = performance.now();
        await readGgufHeader(readRange);
        rangeMs.push(performance.now() - t);
      }
    } finally {
      await handle.close();
    }

    const note = `${VOCAB.toLocaleString('en-US')}-token vocabulary, header ${mb(header.length)}; median of ${RUNS}`;
    return [
      { name: 'header read, local file', value: `${median(localMs).toFixed(1)} ms`, note },
      {
        name: 'header read, byte-range reader',
        value: `${median(rangeMs).toFixed(1)} ms`,
        note: `${reads} reads; ${note}`,
      },
      {
        name: 'bytes read vs file size',
        value: `${mb(bytesRead)} / ${mb(fileBytes)}`,
        note: `${((100 * bytesRead) / fileBytes).toFixed(2)}% of the file; header itself ${mb(header.length)}`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
