// The usage text of every `kvscope` command, in one table: synopsis, arguments, options with a
// one-line description, examples. electron/node/cli/main.ts prints it for `kvscope --help`,
// `kvscope <command> --help|-h` and `kvscope help <command>` before any command runs, so command
// files never handle --help themselves. test/unit/electron/node/cli/cli-help.test.ts checks that
// every option listed here is one the command's parser accepts.
//
// Options that depend on what is installed (profile's per-collector switches) are not written
// here: a command module may export `helpOptions(): OptionGroup[]` and main appends its groups.
import { DEFAULT_WEB_PORT } from '../web/web-port';

export interface OptionHelp {
  /** As typed, with its value: `--budget <size>`, `-o, --output <file>`. */
  flags: string;
  /** One line. */
  description: string;
}

export interface OptionGroup {
  title: string;
  options: OptionHelp[];
}

export interface CommandHelp {
  /** One line for `kvscope --help`. */
  summary: string;
  /** Synopsis lines, without the leading `kvscope `. */
  usage: string[];
  description?: string[];
  arguments?: OptionHelp[];
  groups: OptionGroup[];
  examples: string[];
  /** Lines computed when the help is shown (lists that live with their code: formats…). */
  details?: () => Promise<string[]>;
}

/** Option and argument rows are written as `[flags, description]` pairs: one table line each. */
type HelpRow = readonly [flags: string, description: string];

function rows(pairs: readonly HelpRow[]): OptionHelp[] {
  return pairs.map(([flags, description]) => ({ flags, description }));
}

const TARGET_ARGUMENT: HelpRow = [
  '<target>',
  'local, user@host[:port], ssh://user@host:port, or a Host alias from ~/.ssh/config',
];

/** electron/node/transport/target-spec.ts sshCliOptions. */
export const SSH_OPTIONS: OptionGroup = {
  title: 'SSH options',
  options: rows([
    ['--identity <key file>', 'private key to log in with (else ssh-agent and ~/.ssh keys)'],
    ['--known-hosts <file>', "host keys to trust (default: the app's store, then ssh(1)'s known_hosts files)"],
    ['--accept-new-host-key', 'trust a host seen for the first time (a changed key is always refused)'],
    ['--password-env <VAR>', 'read the login password from environment variable VAR'],
    ['--passphrase-env <VAR>', 'read the passphrase of an encrypted --identity from VAR'],
    ['--jump <user@host[:port]>', 'connect through this jump host (repeatable, in order)'],
  ]),
};

/** electron/node/demo-engine/demo-config.ts demoCliOptions (defaults: shared/api/schemas.ts DemoOptionsSchema). */
export const DEMO_OPTIONS: OptionGroup = {
  title: 'Demo engine options',
  options: rows([
    ['--layers <n>', 'transformer layers (default 16)'],
    ['--kv-heads <n>', 'KV heads per layer (default 8)'],
    ['--head-dim <n>', 'head dimension (default 64)'],
    ['--kv-type <type>', 'KV cache type: f16, q8_0, q4_0, … (default f16)'],
    ['--tokens <n>', 'tokens to generate (default 2000)'],
    ['--tps <n>', 'tokens per second (default 40)'],
    ['--mode <mode>', 'growth, reserved (llama.cpp: all at start) or window (default growth)'],
    ['--ctx <n>', 'context size; what reserved mode reserves (default 4096)'],
    ['--block <n>', 'tokens per allocation block (default 16)'],
    ['--window <n>', 'window mode: tokens after which the cache stops growing'],
    ['--weights-mb <n>', 'size of the weights buffer in MB (default 64)'],
    ['--leak <bytes>', 'bytes leaked per token on top of the KV cache (default 0)'],
    ['--prompt <n>', 'prompt tokens processed before the first token (default 32)'],
    ['--load-gap-ms <n>', 'pause between loading weights and creating the cache (default 600)'],
  ]),
};

/** Understood by every command; main.ts handles them. */
export const GLOBAL_OPTIONS: OptionGroup = {
  title: 'Global options',
  options: rows([
    ['-h, --help', 'this help'],
    ['-q, --quiet', 'no progress on stderr (a failure still prints its one line)'],
  ]),
};

/** The environment variables a user may set (listed by `kvscope --help`). */
const ENVIRONMENT: OptionHelp[] = rows([
  ['KVSCOPE_DEBUG=1', 'on failure, also print the full error and its stack trace'],
]);

export const COMMAND_HELP = {
  probe: {
    summary: "a board's facts and health findings",
    usage: ['probe <target> [--json] [--benchmark] [SSH options]'],
    description: [
      'Connect to a board and report what it is (SoC, memory, clocks, thermal zones, tools) and what',
      'stands in the way of a good measurement (governor, swap, thermal headroom).',
    ],
    arguments: rows([TARGET_ARGUMENT]),
    groups: [
      {
        title: 'Options',
        options: rows([
          ['--json', 'print one JSON document on stdout'],
          ['--benchmark', 'judge clocks and background load as for a benchmark run'],
        ]),
      },
      SSH_OPTIONS,
    ],
    examples: ['kvscope probe local', 'kvscope probe dev@orin.local --json', 'kvscope probe pi5 --accept-new-host-key'],
  },
  profile: {
    summary: 'run an engine on a board and measure it',
    usage: [
      'profile <target> (--engine "<command on target>" | --demo [demo options]) [options]',
      'profile <target> --engine "<command with {ctx}>" --sweep 512,2048,8192 [options]',
      'profile <target> --engine "<command that starts a server>" --server-url <url> [server options]',
    ],
    description: [
      'Start the engine on the target, sample its memory, tokens and the board while it runs, and',
      'summarise: KV bytes per token (theory and measured), OOM horizon, max safe context, TTFT and',
      'tokens/s. Progress goes to stderr, the summary to stdout (--json: one JSON document).',
    ],
    arguments: rows([TARGET_ARGUMENT]),
    groups: [
      {
        title: 'Options',
        options: rows([
          ['--engine "<command>"', 'engine command line on the target ({ctx} = --ctx or the sweep step)'],
          ['--demo', 'run the synthetic demo engine (its options below)'],
          ['--gguf <path on target>', 'model file: exact KV theory from its header'],
          ['--kv-type <type>', 'KV cache type the engine uses (f16, q8_0, q4_0, …)'],
          ['--ctx <n>', 'context size of the engine'],
          [
            '--budget <size>',
            "memory budget for the OOM horizon (e.g. 2GiB, 512MiB); default: the engine's cgroup limit, else MemAvailable",
          ],
          [
            '--memory-limit <size>',
            'run the engine in a memory cgroup of that size (root or a delegated cgroup on the target)',
          ],
          ['--interval-ms <n>', 'sampling interval in ms (default 200, at least 20)'],
          ['--tokens <n>', 'stop after n generated tokens (server mode: max tokens per turn)'],
          ['--duration <time>', 'stop after this long (e.g. 60s, 2m)'],
          ['--sweep <sizes>', 'one run per context size, e.g. 512,2048,8192 (needs {ctx})'],
          ['--token-regex <regex>', 'count a token per match in stdout (default: per write)'],
          [
            '--out <session file>',
            'record the session (SQLite) to this file; a session already there is kept as <name>.1.kvscope (.2 …)',
          ],
          ['--report <file>', 'write a report at the end (.html .md .pdf .json .csv .prom)'],
          ['--keep-running', 'leave the engine running when kvscope stops'],
          ['--json', 'print the summary as one JSON document on stdout'],
        ]),
      },
      {
        title: 'Server mode (an OpenAI-compatible server started by --engine)',
        options: rows([
          ['--server-url <url>', 'its URL as seen from the target (port 0: the one it prints)'],
          ['--api <chat|completions>', 'endpoint to call (default chat)'],
          ['--prompt <text>', 'first prompt (with --demo: prompt tokens, see below)'],
          ['--prompt-file <file>', 'read the first prompt from a local file'],
          ['--turns <n>', 'requests, each sending the conversation back (default 1)'],
          ['--ignore-eos', 'ask the server to generate --tokens tokens regardless of EOS'],
          ['--server-timeout <time>', 'how long to wait for the server to answer'],
        ]),
      },
      DEMO_OPTIONS,
      SSH_OPTIONS,
    ],
    examples: [
      'kvscope profile local --demo --tokens 2000 --budget 512MiB',
      'kvscope profile dev@orin --engine "llama-cli -m /models/m.gguf -c {ctx} -n 256" --gguf /models/m.gguf --ctx 4096 --budget 6GiB --out run.kvscope',
      'kvscope profile pi5 --engine "llama-server -m m.gguf -c {ctx} --port 0" --server-url http://127.0.0.1:0/v1 --turns 4',
    ],
  },
  kv: {
    summary: 'KV cache size per token, at a context, and the context a budget allows',
    usage: [
      'kv (--gguf <file> | --layers L --kv-heads H --head-dim D) [--head-dim-v D]',
      ' [--kv-type T | --type-k T --type-v T] [--ctx N] [--budget 2GiB] [--np N] [--json]',
    ],
    groups: [
      {
        title: 'Options',
        options: rows([
          ['--gguf <file>', 'read the model shape from a local GGUF file (header only)'],
          ['--layers <n>', 'layers with a KV cache'],
          ['--kv-heads <n>', 'KV heads per layer'],
          ['--head-dim <n>', 'head dimension of K (and V unless --head-dim-v)'],
          ['--head-dim-v <n>', 'head dimension of V'],
          ['--kv-type <type>', 'type of K and V (f16, q8_0, q4_0, …; default f16)'],
          ['--type-k <type>', 'type of K alone'],
          ['--type-v <type>', 'type of V alone'],
          ['--ctx <n>', 'context size (default 4096)'],
          ['--budget <size>', 'memory for the cache: the largest context that fits'],
          ['--np <n>', 'parallel sequences, each up to --ctx tokens (llama.cpp -np)'],
          ['--json', 'print one JSON document on stdout'],
        ]),
      },
    ],
    examples: [
      'kvscope kv --gguf model.gguf --ctx 8192 --kv-type q8_0',
      'kvscope kv --layers 16 --kv-heads 8 --head-dim 64 --budget 2GiB --json',
    ],
  },
  parse: {
    summary: "a board tool's output as NDJSON records",
    usage: ['parse <format> [file|-] [--page-size N] [--mappings]'],
    description: [
      'Read a capture (a file, or stdin for - or no file) and print one JSON object per record.',
      'Lines that cannot be read become "kind":"diagnostic" records; their count goes to stderr.',
    ],
    arguments: rows([
      ['<format>', 'the tool that wrote the input (list below)'],
      ['[file|-]', 'the capture; stdin when - or left out'],
    ]),
    groups: [
      {
        title: 'Options',
        options: rows([
          ['--page-size <bytes>', "statm: the target's page size (getconf PAGESIZE)"],
          ['--mappings', 'pmap: include every mapping in the record'],
        ]),
      },
    ],
    examples: ['tegrastats --interval 500 | kvscope parse tegrastats', 'kvscope parse llama-log run.log > run.ndjson'],
    details: async () => {
      const { formatNames } = await import('../../../shared/parsers/index');
      return [`Formats: ${formatNames().join(', ')}`];
    },
  },
  report: {
    summary: 'a report of a stored session',
    usage: ['report <session> [--format <format>] -o <file> [--layout wide|long]'],
    description: [
      'The format may be left out when the file name says it (.html .md .csv .json .pdf .trace.json .prom).',
      '-o - writes the report to stdout; a PDF only when stdout is not a terminal.',
    ],
    arguments: rows([['<session>', 'a session file (profile --out)']]),
    groups: [
      {
        title: 'Options',
        options: rows([
          ['-f, --format <format>', 'report format (list below)'],
          ['-o, --output <file>', 'where to write the report; - for stdout (needs --format)'],
          ['--layout <wide|long>', 'csv: one row per sample (wide) or per value (long)'],
        ]),
      },
    ],
    examples: [
      'kvscope report run.kvscope -o run.html',
      'kvscope report run.kvscope --format md -o - | less',
      'kvscope report run.kvscope --format prometheus -o /var/lib/node_exporter/textfile/kvscope.prom',
    ],
    details: async () => {
      const { REPORT_FORMATS } = await import('../session/report-files');
      return [
        `Formats: ${REPORT_FORMATS.join(', ')}`,
        '  prometheus: the node_exporter textfile format (one metric per headline number and series)',
      ];
    },
  },
  compare: {
    summary: 'two sessions side by side (before/after, two boards)',
    usage: ['compare <sessionA> <sessionB> -o <file.md|file.html|file.pdf> [--format md|html|pdf]'],
    arguments: rows([
      ['<sessionA>', 'the "before" session'],
      ['<sessionB>', 'the "after" session'],
    ]),
    groups: [
      {
        title: 'Options',
        options: rows([
          ['-o, --output <file>', 'where to write it; the extension picks the format; - for stdout'],
          ['-f, --format <md|html|pdf>', 'the format, whatever the extension (needed for -o -)'],
        ]),
      },
    ],
    examples: ['kvscope compare f16.kvscope q8_0.kvscope -o kv-types.md'],
  },
  'demo-engine': {
    summary: 'the synthetic reference workload (known bytes per token)',
    usage: ['demo-engine [demo options]'],
    description: [
      'Holds a weights buffer, appends exactly the KV bytes per token of its shape for each token it',
      'prints, and ends with llama.cpp-style timing lines: the ground truth for the profiler.',
    ],
    groups: [DEMO_OPTIONS],
    examples: ['kvscope demo-engine --tokens 200 --tps 100 --kv-type q8_0'],
  },
  web: {
    summary: 'browser mode: the app on loopback',
    usage: ['web [--port N]'],
    description: [
      'Serve the UI and its API on 127.0.0.1 until interrupted; prints "KVScope at <url>" (the URL',
      'carries an access token). Needs a build (npm run build).',
    ],
    groups: [
      {
        title: 'Options',
        options: rows([
          [
            '--port <n>',
            `port to listen on (default: ${DEFAULT_WEB_PORT}, the same each start so the page keeps its settings; any free port when it is taken; 0: any free port)`,
          ],
        ]),
      },
    ],
    examples: ['kvscope web', 'kvscope web --port 8080'],
  },
  import: {
    summary: "a board's log → a session",
    usage: ['import <tegrastats|perf|pmap|vcgencmd|llama-log> <file> --out <session> [--interval 1s] [--json]'],
    description: [
      "A gzip-compressed log (logrotate's .gz) or a UTF-16 one (Windows PowerShell's >) is read as it",
      'is. Lines that are not readings are counted and kept in the session; a clock set back in a',
      "tegrastats, vcgencmd or pmap log keeps the lines' order.",
      '',
      "vcgencmd: a Raspberry Pi loop's measure_temp, measure_clock arm and get_throttled lines, timed by",
      'the date, date -Iseconds, date +%T or date +%s lines or prefixes the loop printed, else --interval.',
      "pmap: pmap -x (or -X, -d, plain) tables, in any of procps-ng's languages, each timed by the date",
      'line a loop printed before it (while true; do date; pmap -x $PID; sleep 5; done), else --interval.',
    ],
    groups: [
      {
        title: 'Options',
        options: rows([
          ['--out <session file>', 'the session to write; a session already there is kept as <name>.1.kvscope (.2 …)'],
          ['--interval <duration>', 'time between readings of a log without times (default 1s)'],
          ['--json', 'print what was imported as JSON on stdout'],
        ]),
      },
    ],
    examples: [
      'kvscope import tegrastats board.log --out board.kvscope',
      'kvscope import vcgencmd pi.log --out pi.kvscope --interval 2s',
    ],
  },
  recover: {
    summary: 'runs whose app died: their spools on the target → sessions',
    usage: ['recover <target> [--out <dir>] [--json] [SSH options]'],
    description: [
      'Find the runs a killed or crashed KVScope left on the target, write each into a session',
      '<dir>/<run id>.kvscope, then remove its run directory. Runs still running are listed and left',
      'alone; every run is listed with how long ago its spool was last written.',
    ],
    arguments: rows([TARGET_ARGUMENT]),
    groups: [
      {
        title: 'Options',
        options: rows([
          ['--out <dir>', 'where to write the sessions (default: the current directory)'],
          ['--json', 'print one JSON document on stdout'],
        ]),
      },
      SSH_OPTIONS,
    ],
    examples: ['kvscope recover dev@orin --out sessions/', 'kvscope recover local --json'],
  },
} satisfies Record<string, CommandHelp>;

export type CommandName = keyof typeof COMMAND_HELP;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_HELP, name);
}

/** `kvscope --help`. */
export function overviewHelp(): string {
  const names = Object.keys(COMMAND_HELP) as CommandName[];
  const width = Math.max(...names.map((n) => n.length));
  return [
    'usage: kvscope <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}   ${COMMAND_HELP[n].summary}`),
    '',
    ...table(GLOBAL_OPTIONS.title, GLOBAL_OPTIONS.options),
    '',
    ...table('Environment', ENVIRONMENT),
    '',
    'kvscope <command> --help (or kvscope help <command>) shows the usage of a command.',
    'Exit status: 0 on success; otherwise one line on stderr says why (2: a usage error).',
  ].join('\n');
}

/** `kvscope <command> --help`, with the groups the command module adds (collector switches…). */
export async function commandHelp(name: CommandName, extraGroups: OptionGroup[] = []): Promise<string> {
  const h: CommandHelp = COMMAND_HELP[name];
  // A synopsis line that starts with a space continues the one above it.
  const lines: string[] = h.usage.map((u, i) =>
    u.startsWith(' ') ? `              ${u}` : `${i === 0 ? 'usage:' : '      '} kvscope ${u}`,
  );
  lines.push('', h.summary.replace(/^./, (c) => c.toUpperCase()) + '.');
  if (h.description) lines.push('', ...h.description);
  if (h.arguments) lines.push('', ...table('Arguments', h.arguments));
  for (const g of [...h.groups, ...extraGroups, GLOBAL_OPTIONS]) lines.push('', ...table(g.title, g.options));
  if (h.details) lines.push('', ...(await h.details()));
  lines.push('', 'Examples:', ...h.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}

/** Flags padded to one column per table (capped so one long flag does not push every line right). */
const MAX_FLAG_COLUMN = 28;

function table(title: string, rows: readonly OptionHelp[]): string[] {
  const width = Math.min(MAX_FLAG_COLUMN, Math.max(...rows.map((r) => r.flags.length)));
  return [
    `${title}:`,
    ...rows.map((r) =>
      r.flags.length > width
        ? `  ${r.flags}\n  ${' '.repeat(width)}  ${r.description}`
        : `  ${r.flags.padEnd(width)}  ${r.description}`,
    ),
  ];
}
