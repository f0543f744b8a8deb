// GGUF header reading: how long the header of a model with a 256k-entry vocabulary takes to read,
// from a local file and through a byte-range reader (the path a remote target uses), and how many
// bytes that costs compared with the file. The file is a generated header followed by 1 GiB of
// sparse "tensor data", so the file is as large as a small real model without using the disk.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readGgufHeader, readGgufHeaderFromFile, type ReadRange } from '../electron/node/model/gguf-reader';
import { modelShapeFromGguf } from '../shared/kv/model-config';
import {
  bigStringArrayHeader,
  layerBombHeader,
  manyArraysHeader,
  vocabModelHeader,
} from '../test/helpers/gguf-fixture';
import type { BenchRow } from './bench-util';

const VOCAB = 256_000;
const TENSOR_BYTES = 1024 ** 3;
const RUNS = 7;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
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
    const hostile = await hostileRows(dir);
    return [
      ...hostile,
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

const HOSTILE_BYTES = 127_000_000;

/**
 * Hostile headers (test/helpers/gguf-fixture.ts), each read from a local file and turned into a
 * shape as `kvscope kv --gguf` does: the time until the answer (target: under 1 s each) and the
 * longest the event loop was held meanwhile (monitorEventLoopDelay, 1 ms resolution). Before
 * the limits, the 200-byte file ran out of heap after ≈ 55 s and the 127 MB one held the loop
 * for seconds.
 */
async function hostileRows(dir: string): Promise<BenchRow[]> {
  const cases: Array<[string, Uint8Array]> = [
    ['200-byte header claiming 2^28 layers', layerBombHeader()],
    ['127 MB of 1,024-entry arrays', manyArraysHeader(HOSTILE_BYTES)],
    ['127 MB string array (walked in full)', bigStringArrayHeader(HOSTILE_BYTES)],
  ];
  const rows: BenchRow[] = [];
  for (const [name, bytes] of cases) {
    const path = join(dir, 'hostile.gguf');
    const fh = await open(path, 'w');
    await fh.write(bytes, 0, bytes.length, 0);
    await fh.close();
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const t = performance.now();
    let outcome = 'read';
    try {
      const header = await readGgufHeaderFromFile(path);
      modelShapeFromGguf(header.metadata);
    } catch (error) {
      outcome = `refused: ${(error as Error).message.replace(`${path}: `, '').slice(0, 70)}`;
    }
    const ms = performance.now() - t;
    delay.disable();
    rows.push({
      name: `hostile: ${name}`,
      value: `${ms.toFixed(1)} ms`,
      note: `longest event-loop block ${(delay.max / 1e6).toFixed(1)} ms; ${outcome}`,
    });
  }
  return rows;
}
