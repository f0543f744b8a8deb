// main(): --help for every command in its three spellings, the global --quiet, and the one line a
// failure prints, in-process with a capturing CliIo. The real binary's failing paths are walked in
// test/integration/cli/failing-paths.test.ts.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP, overviewHelp, type CommandName } from '../../../../../electron/node/cli/cli-help';
import type { CliIo } from '../../../../../electron/node/cli/cli-io';
import { firstLine, globalFlags, main } from '../../../../../electron/node/cli/main';

function capture(stdin = '') {
  const text = { out: '', err: '' };
  const io: CliIo = {
    out: (t) => void (text.out += t),
    err: (t) => void (text.err += t),
    stdin: Readable.from([stdin]),
    signal: new AbortController().signal,
  };
  return { io, text };
}

async function run(args: string[], stdin = '') {
  const { io, text } = capture(stdin);
  const code = await main(args, io);
  return { code, ...text };
}

const names = Object.keys(COMMAND_HELP) as CommandName[];

describe('main: help', () => {
  it('kvscope --help and -h print the overview on stdout, exit 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const r = await run([flag]);
      expect(r).toEqual({ code: 0, out: overviewHelp() + '\n', err: '' });
    }
  });

  for (const name of names) {
    it(`${name}: --help, -h and help ${name} print the same usage, exit 0, run nothing`, async () => {
      const long = await run([name, '--help']);
      expect(long.code).toBe(0);
      expect(long.err).toBe('');
      expect(long.out).toMatch(new RegExp(`^usage: kvscope ${name}\\b`));
      expect(long.out).toMatch(/\nExamples:\n {2}.*kvscope /);
      expect(await run([name, '-h'])).toEqual(long);
      expect(await run(['help', name])).toEqual(long);
      // --help anywhere among the options, even after a value or a target.
      expect(await run([name, 'local', '--json', '--help'])).toEqual(long);
    });
  }

  it('an operand after -- is not a help flag', async () => {
    const r = await run(['parse', '--', '--help']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kvscope parse: unknown format "--help"/);
  });
});

describe('main: one line per failure', () => {
  it('no command, an unknown command, a leading unknown option: exit 2 and one line', async () => {
    expect(await run([])).toEqual({ code: 2, out: '', err: 'kvscope: missing command (kvscope --help lists them)\n' });
    expect(await run(['probes'])).toEqual({
      code: 2,
      out: '',
      err: 'kvscope: unknown command "probes" (kvscope --help lists them)\n',
    });
    expect((await run(['--verbose', 'probe'])).err).toBe(
      'kvscope: unknown option --verbose before the command (kvscope --help lists the commands)\n',
    );
  });

  it('a multi-line error message is cut to its first line', async () => {
    // kv puts its usage after the reason; only the reason is printed.
    const r = await run(['kv', '--ctx', '10']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('kvscope kv: give --gguf <file>, or all of --layers, --kv-heads and --head-dim\n');
  });

  it('a path with a line break in it is shown whole, its breaks written \\n', async () => {
    const r = await run(['report', '/nonexistent-kvscope/a\nb\r.kvscope', '-o', '/tmp/kvscope-unused.html']);
    expect(r.code).not.toBe(0);
    expect(r.err.split('\n')).toHaveLength(2);
    expect(r.err).toMatch(/^kvscope report: .*\/nonexistent-kvscope\/a\\nb\\r\.kvscope/);
    const out = await run(['kv', '--gguf=/nonexistent-kvscope/m\n.gguf', '--ctx', '10']);
    expect(out.err).toMatch(/^kvscope kv: .*\/nonexistent-kvscope\/m\\n\.gguf.*\n$/);
  });

  it('KVSCOPE_DEBUG=1 adds the stack after the line', async () => {
    const before = process.env.KVSCOPE_DEBUG;
    process.env.KVSCOPE_DEBUG = '1';
    try {
      const r = await run(['kv', '--ctx', '10']);
      const lines = r.err.split('\n').filter(Boolean);
      expect(lines[0]).toBe('kvscope kv: give --gguf <file>, or all of --layers, --kv-heads and --head-dim');
      expect(lines.some((l) => /^\s+at /.test(l))).toBe(true);
    } finally {
      if (before === undefined) delete process.env.KVSCOPE_DEBUG;
      else process.env.KVSCOPE_DEBUG = before;
    }
  });
});

describe('main: --quiet', () => {
  const BAD_PERF = 'this is not perf output\n';

  it('silences what a command says on stderr, not its output', async () => {
    const loud = await run(['parse', 'perf', '-'], BAD_PERF);
    expect(loud.code).toBe(0);
    expect(loud.err).toMatch(/could not be read/);
    for (const flag of ['--quiet', '-q']) {
      const quiet = await run(['parse', flag, 'perf', '-'], BAD_PERF);
      expect(quiet).toEqual({ ...loud, err: '' });
    }
  });

  it('never silences the failure line', async () => {
    expect(await run(['parse', 'perf', '/nonexistent/capture', '--quiet'])).toEqual({
      code: 1,
      out: '',
      err: 'kvscope parse: cannot read "/nonexistent/capture": no such file\n',
    });
  });
});

describe('globalFlags', () => {
  it('takes --quiet / -q out before --, and leaves operands and --opt=value alone', () => {
    expect(globalFlags(['profile', '--quiet', 'local', '--engine=--quiet', '--', '--quiet', '-h'])).toEqual({
      args: ['profile', 'local', '--engine=--quiet', '--', '--quiet', '-h'],
      quiet: true,
      help: false,
    });
    expect(globalFlags(['kv', '-q', '-h'])).toEqual({ args: ['kv', '-h'], quiet: true, help: true });
    expect(globalFlags(['kv', '--json'])).toEqual({ args: ['kv', '--json'], quiet: false, help: false });
  });

  it('firstLine skips blank lines and trims', () => {
    expect(firstLine('\n  reason here  \nusage: …')).toBe('reason here');
    expect(firstLine('')).toBe('');
  });
});
