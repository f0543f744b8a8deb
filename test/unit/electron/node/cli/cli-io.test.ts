// parseCliArgs: node:util parseArgs errors become one short line (exit 2) naming the option, with
// the closest option for a typo. parseBytes: the sizes --budget accepts, and its one-line error.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CliError, parseBytes, parseCliArgs, parseIntArg, terminalText } from '../../../../../electron/node/cli/cli-io';

/** The CliError `fn` throws (the test fails when it throws none, or something else). */
function cliErrorOf(fn: () => unknown): CliError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return e as CliError;
  }
  throw new Error('expected a CliError, none was thrown');
}

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

describe('parseBytes', () => {
  it.each([
    ['2GiB', 2 * 1024 ** 3],
    ['2 GiB', 2 * 1024 ** 3],
    ['512mib', 512 * 1024 ** 2],
    ['1.5 GB', 1_500_000_000],
    ['4000000000', 4_000_000_000],
    ['64k', 64_000],
    ['3 TiB', 3 * 1024 ** 4],
    [' 10 b ', 10],
    // The CLI lets 0 through (the run form refuses it): a budget of 0 is the caller's to judge.
    ['0', 0],
  ])('reads %j as %d bytes', (text, bytes) => {
    expect(parseBytes(text)).toBe(bytes);
  });

  // `--budget 2` was read as 2 bytes: a 0-token OOM horizon and max context, alerts at 1.5e9 %;
  // `--memory-limit 2` ran the engine in a 2-byte cgroup until the OOM killer ended it.
  it.each(['2', '512', '4096', '1048575', '1.5', ' 8 '])(
    'refuses a size %j without a unit (a unit left out)',
    (text) => {
      const caught = cliErrorOf(() => parseBytes(text, '--budget'));
      expect(caught.message).toBe(
        `--budget ${text.trim()}: a number without a unit is bytes; give the unit, e.g. ${text.trim()}GiB or ${text.trim()}MiB`,
      );
      expect(caught.exitCode).toBe(2);
    },
  );

  it.each([
    ['1048576', 1024 ** 2],
    ['2 b', 2],
    ['512k', 512_000],
  ])('reads %j: a bare count of at least a MiB, or any size with its unit', (text, bytes) => {
    expect(parseBytes(text)).toBe(bytes);
  });

  it.each(['two gigs', '2 GiBs', '-1', '1e9', ''])('refuses %j with exit 2, naming the option', (text) => {
    const caught = cliErrorOf(() => parseBytes(text, '--budget'));
    expect(caught.message).toBe(`--budget: cannot read "${text}" (e.g. 2GiB, 512MiB, 4000000000)`);
    expect(caught.exitCode).toBe(2);
  });
});

describe('terminalText', () => {
  it.each([
    ['title \u001b]0;PWNED\u0007 end', 'title ]0;PWNED end'],
    ['clip \u001b]52;c;cm0=\u0007', 'clip ]52;c;cm0='],
    ['C1 CSI \u009b2J and DEL \u007f', 'C1 CSI 2J and DEL '],
    ['a\rspoofed line\n', 'aspoofed line\n'],
    ['tab\tkept\n', 'tab\tkept\n'],
    // The progress line's own redraw (cli-progress.ts) stays.
    ['\r\u001b[Kkvscope profile: 12 tokens', '\r\u001b[Kkvscope profile: 12 tokens'],
  ])('%j', (text, shown) => {
    expect(terminalText(text)).toBe(shown);
  });

  it('property: no control character is left but tab, newline and the redraw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const shown = terminalText(text).split('\r\u001b[K').join('');
        // eslint-disable-next-line no-control-regex -- control characters are what is looked for
        expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      }),
    );
  });
});

describe('parseIntArg', () => {
  it('reads a whole number at least the minimum', () => {
    expect(parseIntArg('4096', '--ctx')).toBe(4096);
    expect(parseIntArg(undefined, '--ctx')).toBeUndefined();
  });

  // QA: `kv --ctx 99999999999999999999` answered with totals of 1e20 tokens.
  it.each([
    ['0', '--ctx: expected a whole number ≥ 1, got "0"'],
    ['4k', '--ctx: expected a whole number ≥ 1, got "4k"'],
    ['99999999999999999999', '--ctx: 99999999999999999999 is too large (at most 9007199254740991)'],
  ])('refuses %j in one line, exit 2', (text, message) => {
    const caught = cliErrorOf(() => parseIntArg(text, '--ctx'));
    expect([caught.message, caught.exitCode]).toEqual([message, 2]);
  });
});
