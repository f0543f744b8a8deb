// `kvscope <command>`: the stable command line of DESIGN.md. Each command lives in
// commands/<name>.ts and exports `run(args, io)`; this file only dispatches.
import { CliError, type CliIo, defaultIo } from './cli-io';

type CommandModule = { run(args: string[], io: CliIo): Promise<number> };

const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  probe: {
    summary: 'probe <target> [--json]   facts and health findings of a board',
    load: () => import('./commands/probe'),
  },
  profile: {
    summary: 'profile <target> (--engine "<cmd>" | --demo …) [--json]   run and measure',
    load: () => import('./commands/profile'),
  },
  kv: {
    summary: 'kv (--gguf <file> | --layers L --kv-heads H --head-dim D) [--kv-type T] [--ctx N]   KV cache sizes',
    load: () => import('./commands/kv'),
  },
  parse: {
    summary: 'parse <tegrastats|perf|pmap|smaps|meminfo|llama-log|llama-bench> [file|-]   → NDJSON',
    load: () => import('./commands/parse'),
  },
  report: {
    summary: 'report <session> --format html|md|csv|json|pdf|perfetto -o <file>',
    load: () => import('./commands/report'),
  },
  compare: { summary: 'compare <sessionA> <sessionB> -o <file>', load: () => import('./commands/compare') },
  'demo-engine': {
    summary: 'demo-engine [--layers 16 --kv-heads 8 --head-dim 64 …]   the synthetic reference workload',
    load: () => import('./commands/demo-engine'),
  },
  web: { summary: 'web [--port N]   browser mode on loopback', load: () => import('./commands/web') },
};

export function usage(): string {
  return [
    'usage: kvscope <command> [options]',
    '',
    ...Object.values(commands).map((c) => `  kvscope ${c.summary}`),
  ].join('\n');
}

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage() + '\n');
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    io.err(`kvscope: unknown command "${name}"\n${usage()}\n`);
    return 2;
  }
  try {
    const mod = await command.load();
    return await mod.run(rest, io);
  } catch (error) {
    // One line on stderr, never a stack trace, for every expected failure (DESIGN.md CLI contract).
    if (error instanceof CliError) {
      io.err(`kvscope ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`kvscope ${name}: ${message.split('\n')[0]}\n`);
    if (process.env.KVSCOPE_DEBUG) io.err(String((error as Error)?.stack ?? error) + '\n');
    return 1;
  }
}
