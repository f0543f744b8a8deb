// The pure parts of engine setup: which commands reserve like llama.cpp, their flags, {ctx}, sweep
// sizes; and how a run's missing model is said.
import { describe, expect, it } from 'vitest';
import { RunRequestSchema } from '../../../../../shared/api/schemas';
import {
  isLlamaCppLikeCommand,
  llamaFlagValue,
  prepareEngine,
  substituteCtx,
} from '../../../../../electron/node/run/engine-setup';
import { LocalTarget } from '../../../../../electron/node/transport/local-target';
import { parseSweepSizes } from '../../../../../electron/node/run/sweep';

// [command, whether its program reserves the whole KV cache up front as llama.cpp does]
const COMMANDS: Array<[string, boolean]> = [
  ['llama-cli -m m.gguf', true],
  ['/opt/llama.cpp/build/bin/llama-server -m m.gguf --port 8080', true],
  ['./main -m x', true],
  ['env OMP_NUM_THREADS=4 llama-completion -m x', true],
  ["node '/tmp/a b/llama-cli.mjs' -m x", true],
  ['taskset -c 0 ./llama-simple -m x', true],
  ['ollama run llama3', false],
  ['python -m vllm.entrypoints.openai.api_server', false],
  ['./llama-bench -m x', false],
  ['mainframe --x', false],
  ['node server.js', false],
];

describe('llama.cpp-like commands', () => {
  it('recognises the programs that reserve, wherever they live', () => {
    for (const [c, reserves] of COMMANDS) expect(isLlamaCppLikeCommand(c), c).toBe(reserves);
  });

  it('reads -c / --ctx-size and cache types, spaced or with =', () => {
    expect(llamaFlagValue('llama-cli -m x -c 4096 -n 8', ['-c', '--ctx-size'])).toBe('4096');
    expect(llamaFlagValue('llama-cli --ctx-size=8192', ['-c', '--ctx-size'])).toBe('8192');
    expect(llamaFlagValue("llama-cli -ctk 'q8_0'", ['-ctk', '--cache-type-k'])).toBe('q8_0');
    expect(llamaFlagValue('llama-cli -m x', ['-c'])).toBeUndefined();
  });

  it('substitutes {ctx} everywhere, and refuses it without a size', () => {
    expect(substituteCtx('llama-cli -c {ctx} --note ctx={ctx}', 2048)).toBe('llama-cli -c 2048 --note ctx=2048');
    expect(substituteCtx('llama-cli -c 512', undefined)).toBe('llama-cli -c 512');
    expect(() => substituteCtx('llama-cli -c {ctx}', undefined)).toThrow(/no context size/);
  });
});

describe('parseSweepSizes', () => {
  it('sorts, removes repeats, reads k as × 1024', () => {
    expect(parseSweepSizes('4096, 512,4k,64K')).toEqual([512, 4096, 65536]);
  });
  it('refuses junk and single sizes', () => {
    expect(() => parseSweepSizes('512,abc')).toThrow(/"abc" is not a context size/);
    expect(() => parseSweepSizes('512,512')).toThrow(/at least two/);
  });
});

describe('prepareEngine with a --gguf that is not there', () => {
  // The run form's "Run failed." banner and `profile`'s stderr said Node's own
  // "ENOENT: no such file or directory, open '/nonexistent/m.gguf'", repeating the path.
  it('says so in words, naming the path once', async () => {
    const request = RunRequestSchema.parse({
      target: { kind: 'local' },
      engine: { kind: 'command', command: 'sleep 1', gguf: '/nonexistent/m.gguf' },
    });
    await expect(prepareEngine(new LocalTarget(), request, '/nonexistent')).rejects.toThrow(
      new Error('cannot read the GGUF header of /nonexistent/m.gguf: no such file'),
    );
  });
});
