// parseCliArgs: node:util parseArgs errors become one short line (exit 2) naming the option, with
// the closest option for a typo.
import { describe, expect, it } from 'vitest';
import { CliError, parseCliArgs } from '../../../../../electron/node/cli/cli-io';

const OPTIONS = {
  'interval-ms': { type: 'string' },
  output: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
} as const;

function error(args: string[], allowPositionals = true): CliError {
  try {
    parseCliArgs(args, OPTIONS, allowPositionals);
  } catch (e) {
    if (e instanceof CliError) return e;
    throw e;
  }
  throw new Error(`no error for ${args.join(' ')}`);
}

describe('parseCliArgs errors', () => {
  it('are usage errors (exit 2) of one line', () => {
    for (const args of [['--nope'], ['--output'], ['--output', '--json'], ['--json=1'], ['-z']]) {
      const e = error(args);
      expect(e.exitCode).toBe(2);
      expect(e.message).not.toContain('\n');
    }
  });

  it('name the option and suggest the closest one for a typo', () => {
    expect(error(['--interval-m', '5']).message).toBe('unknown option --interval-m (did you mean --interval-ms?)');
    expect(error(['--jsno']).message).toBe('unknown option --jsno (did you mean --json?)');
    expect(error(['--outptu=x']).message).toBe('unknown option --outptu (did you mean --output?)');
    expect(error(['--completely-different']).message).toBe('unknown option --completely-different');
    expect(error(['-z']).message).toBe('unknown option -z');
  });

  it('say what a value is missing or not wanted', () => {
    expect(error(['--output']).message).toBe('--output needs a value');
    expect(error(['-o']).message).toBe('--output needs a value');
    expect(error(['--output', '--json']).message).toBe(
      '--output needs a value (a value that starts with a dash is written --output=-value)',
    );
    expect(error(['--json=yes']).message).toBe('--json takes no value');
    expect(error(['extra'], false).message).toBe('unexpected argument "extra" (this command takes none)');
  });

  it('parse what is right', () => {
    expect(parseCliArgs(['a', '--output=-', '--json'], OPTIONS).values).toEqual({ output: '-', json: true });
  });
});
