// The usage table (electron/node/cli/cli-help.ts) against the commands themselves: every option a
// help text lists is one the command's parser accepts, and the shared option tables list every
// SSH and demo option there is. Runs each command in-process with arguments that fail right after
// parsing (a missing target, a bad value), so nothing connects or starts.
import { describe, expect, it } from 'vitest';
import {
  COMMAND_HELP,
  commandHelp,
  DEMO_OPTIONS,
  overviewHelp,
  SSH_OPTIONS,
  type CommandName,
} from '../../../../../electron/node/cli/cli-help';
import type { CliIo } from '../../../../../electron/node/cli/cli-io';
import { main } from '../../../../../electron/node/cli/main';
import { demoCliOptions } from '../../../../../electron/node/demo-engine/demo-config';
import { sshCliOptions } from '../../../../../electron/node/transport/target-spec';

function capture() {
  const text = { out: '', err: '' };
  const io: CliIo = {
    out: (t) => void (text.out += t),
    err: (t) => void (text.err += t),
    stdin: process.stdin,
    signal: new AbortController().signal,
  };
  return { io, text };
}

/** '-o, --output <file>' → ['-o', '--output']. */
function spellings(flags: string): string[] {
  return flags.match(/(?<![\w-])--?[a-z][\w-]*/g) ?? [];
}

const names = Object.keys(COMMAND_HELP) as CommandName[];

describe('cli-help: the usage table', () => {
  it('lists every command of the contract in the overview', () => {
    const overview = overviewHelp();
    for (const name of [
      'probe',
      'profile',
      'kv',
      'parse',
      'report',
      'compare',
      'demo-engine',
      'web',
      'import',
      'recover',
    ])
      expect(overview).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('lists every SSH and demo option the parsers know', () => {
    const listed = (g: typeof SSH_OPTIONS) => g.options.flatMap((o) => spellings(o.flags));
    expect(listed(SSH_OPTIONS).sort()).toEqual(
      Object.keys(sshCliOptions)
        .map((k) => `--${k}`)
        .sort(),
    );
    expect(listed(DEMO_OPTIONS).sort()).toEqual(
      Object.keys(demoCliOptions)
        .map((k) => `--${k}`)
        .sort(),
    );
  });

  for (const name of names) {
    it(`${name}: every listed option is accepted by the command`, async () => {
      const options = COMMAND_HELP[name].groups.flatMap((g) => g.options);
      expect(options.length).toBeGreaterThan(0);
      for (const option of options) {
        const takesValue = /[<"]/.test(option.flags);
        for (const flag of spellings(option.flags)) {
          const { io, text } = capture();
          const code = await main([name, flag, ...(takesValue ? ['x'] : [])], io);
          // Each call fails after parsing (no target, a bad value…): what matters is why.
          expect(code, `${name} ${flag}`).not.toBe(0);
          expect(text.err, `${name} ${flag}`).not.toMatch(/unknown option|needs a value|takes no value/);
          expect(text.err.split('\n').filter(Boolean), `${name} ${flag}`).toHaveLength(1);
        }
      }
    });
  }

  it('appends the option groups a command module adds (the collector switches of profile)', async () => {
    const text = await commandHelp('profile', [
      { title: 'Collectors', options: [{ flags: '--no-tegrastats', description: 'do not run tegrastats' }] },
    ]);
    expect(text).toMatch(/\nCollectors:\n {2}--no-tegrastats +do not run tegrastats\n/);
    // Before the global options, after the command's own.
    expect(text.indexOf('Collectors:')).toBeGreaterThan(text.indexOf('SSH options:'));
    expect(text.indexOf('Collectors:')).toBeLessThan(text.indexOf('Global options:'));
  });

  it('computes the lists that live with their code (formats)', async () => {
    expect(await commandHelp('report')).toMatch(/^Formats: html, md, csv, json, pdf, perfetto, prometheus$/m);
    expect(await commandHelp('parse')).toMatch(/^Formats: tegrastats, perf, .*llama-log/m);
  });
});
