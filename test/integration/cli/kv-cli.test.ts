// The `kvscope kv` command as users run it: the real bin/kvscope.mjs in a child process.
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../helpers/temp-dir';
import { runCli } from '../../helpers/cli';
import { buildGgufHeader, layerBombHeader, str, u32 } from '../../helpers/gguf-fixture';

const kvscope = (...args: string[]) => runCli(args, { timeoutMs: 30_000 });

/** Llama-3.2-1B's KV shape: 16 layers × 8 KV heads × head dim 64. */
const LLAMA_1B_SHAPE = ['--layers', '16', '--kv-heads', '8', '--head-dim', '64'];

describe('kvscope kv', () => {
  it('Llama-3.2-1B shape at f16: 32768 B/token, 134217728 at 4096', async () => {
    const r = await kvscope('kv', ...LLAMA_1B_SHAPE, '--kv-type', 'f16', '--ctx', '4096', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { model?: unknown };
    expect(doc).toMatchObject({ bytesPerToken: 32768, totalBytes: 134217728, ctx: 4096, maxContextForBudget: null });
  });

  it('--budget 2 (the unit left out): refused in one line, exit 2, no answer for a 2-byte budget', async () => {
    const r = await kvscope('kv', ...LLAMA_1B_SHAPE, '--budget', '2');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'kvscope kv: --budget 2: a number without a unit is bytes; give the unit, e.g. 2GiB or 2MiB\n',
    );
  });

  it('q8_0: 17408 B/token, and the budget answer', async () => {
    const r = await kvscope(
      'kv',
      ...LLAMA_1B_SHAPE,
      '--kv-type',
      'q8_0',
      '--ctx',
      '4096',
      '--budget',
      '2GiB',
      '--json',
    );
    expect(r.code).toBe(0);
    // 17408 × 4096 = 71303168; 2147483648 / 17408 = 123361.9
    expect(JSON.parse(r.stdout)).toMatchObject({
      bytesPerToken: 17408,
      totalBytes: 71303168,
      maxContextForBudget: 123361,
      budgetBytes: 2147483648,
    });
  });

  it('--gguf stories260K at 2048: 640 and 1310720, with the model facts', async () => {
    const r = await kvscope('kv', '--gguf', '../shared/models/stories260K.gguf', '--ctx', '2048', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { model?: unknown };
    expect(doc).toMatchObject({ bytesPerToken: 640, totalBytes: 1310720, ctx: 2048 });
    expect(doc.model).toMatchObject({ architecture: 'llama', nLayer: 5, nHeadKv: 4, headDimK: 8, nCtxTrain: 2048 });
    expect(r.stderr).toBe('');
  });

  it('human output is a short table', async () => {
    const r = await kvscope('kv', ...LLAMA_1B_SHAPE, '--ctx', '4096', '--budget', '1GiB');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/bytes\/token\s+32,768 B \(32\.00 KiB\)/);
    expect(r.stdout).toMatch(/total at 4,096\s+134,217,728 B \(128\.0 MiB\)/);
    expect(r.stdout).toMatch(/max context in 1\.00 GiB\s+32,768 tokens/); // 1073741824 / 32768
  });

  it('refuses q8_0 for stories260K like llama.cpp, with one line on stderr and exit 1', async () => {
    const r = await kvscope('kv', '--gguf', '../shared/models/stories260K.gguf', '--kv-type', 'q8_0', '--json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^kvscope kv: K cache: q8_0 with block size 32 does not divide n_embd_head_k 8/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('usage errors exit 2', async () => {
    expect((await kvscope('kv', '--layers', '16')).code).toBe(2);
    expect((await kvscope('kv', ...LLAMA_1B_SHAPE, '--kv-type', 'q3')).stderr).toMatch(/unknown KV type "q3"/);
  });

  it('a file that is not GGUF is named in the error', async () => {
    const r = await kvscope('kv', '--gguf', 'package.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/package.json: not a GGUF file: starts with "\{\\x0a {2}"/);
  });
});

// Model files are untrusted (shared/kv/model-limits.ts): a hostile header is one line on stderr and exit 1.
describe('kvscope kv --gguf on hostile files', () => {
  const tmp = useTempDir('kvscope-kv-hostile-');

  it('a 200-byte header claiming 2^28 layers (it used to run out of heap and abort)', async () => {
    const path = tmp.at('bad.gguf');
    await writeFile(path, layerBombHeader());
    const r = await kvscope('kv', '--gguf', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "kvscope kv: llama.block_count is 268435456, beyond KVScope's limit of 1024: damaged model file\n",
    );
  });

  it('a key with a line break and a terminal escape stays on one line', async () => {
    const path = tmp.at('evil-arch.gguf');
    await writeFile(
      path,
      buildGgufHeader([
        ['general.architecture', str('llama\n\u001b[2Jrm -rf')],
        ['llama.block_count', u32(2)],
      ]),
    );
    const r = await kvscope('kv', '--gguf', path);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'kvscope kv: general.architecture "llama\\u000a\\u001b[2Jrm -rf" is not an architecture name\n',
    );
  });
});
