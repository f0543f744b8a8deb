// Every way the real `kvscope` binary can fail on this machine: a non-zero exit status and exactly
// one line on stderr that says why (electron/node/cli/main.ts), whatever failed — the command line,
// a file, the network, the host key, the engine, or the kernel's OOM killer. Commands that show
// progress are run with --quiet (progress silenced, the failure still printed) and once without
// it, where the reason must be the last line and nothing looks like a stack trace.
//
// Real components: an sshd on loopback (test/helpers/sshd.ts), a closed loopback port, engines
// started by the real launcher, and a cgroup v1 memory group whose limit the kernel enforces
// (root, as in CI: docs/DEVELOPING.md "The test machine"). Needs `npm run build`.
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kvscopeBin, projectRoot, runCli, type CliResult } from '../../helpers/cli';
import { freePort, generateKey, startTrustedSshd, waitFor, writeKnownHosts, type Sshd } from '../../helpers/sshd';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-failing-'));
const at = (name: string) => join(dir, name);
/** The app's own store (known hosts…) in a temp dir, so no user file makes a host trusted. */
const env = { KVSCOPE_HOME: at('home'), KVSCOPE_DEBUG: '' };

let sshd: Sshd;
let wrongKnownHosts: string;
let closedPort: number;
/** A memory cgroup the engine moves itself into; the kernel kills it at the limit. */
const CGROUP = `/sys/fs/cgroup/memory/kvscope-failing-${process.pid}`;
/** Below the demo engine's peak at 8,000 tokens × 32 KiB (≈ 250 MiB + node): killed mid-run. */
const CGROUP_LIMIT_BYTES = 160 * 1024 * 1024;

beforeAll(async () => {
  const started = await startTrustedSshd();
  sshd = started.sshd;
  // The server's name with another key: what a reinstalled (or impostor) board looks like.
  const other = await generateKey(at('other_host_key'));
  wrongKnownHosts = await writeKnownHosts(at('wrong_known_hosts'), [`${sshd.knownHostsName} ${other.publicLine}`]);
  closedPort = await freePort();
  mkdirSync(CGROUP);
  writeFileSync(join(CGROUP, 'memory.limit_in_bytes'), String(CGROUP_LIMIT_BYTES));
  writeFileSync(at('session.kvscope'), 'not a session');
  writeFileSync(at('garbage.gguf'), 'GGUF but not really');
}, 30_000);

afterAll(async () => {
  await sshd?.stop();
  // The killed engine's group empties as soon as the kernel has reaped it.
  if (existsSync(CGROUP))
    await waitFor(() => {
      rmdirSync(CGROUP);
      return true;
    }, `removing ${CGROUP}`);
  rmSync(dir, { recursive: true, force: true });
});

function stderrLines(r: CliResult): string[] {
  return r.stderr.split('\n').filter((l) => l.trim() !== '');
}

/** Exit status non-zero (or exactly `code`), and the one stderr line is the expected reason. */
function expectOneLine(r: CliResult, reason: RegExp, code?: number) {
  const lines = stderrLines(r);
  expect(lines, `stderr was:\n${r.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(reason);
  if (code === undefined) expect(r.code).not.toBe(0);
  else expect(r.code).toBe(code);
}

interface FailingPath {
  what: string;
  args: () => string[];
  reason: RegExp;
  code?: number;
  /** The command prints progress before failing: checked with --quiet, and without it. */
  progress?: boolean;
}

const ssh = (knownHosts: () => string) => () => [
  `${sshd.user}@${sshd.host}:${sshd.port}`,
  '--identity',
  sshd.clientKey.privatePath,
  '--known-hosts',
  knownHosts(),
];

const PATHS: FailingPath[] = [
  { what: 'no command', args: () => [], reason: /^kvscope: missing command/, code: 2 },
  { what: 'unknown command', args: () => ['frobnicate'], reason: /^kvscope: unknown command "frobnicate"/, code: 2 },
  { what: 'help for an unknown command', args: () => ['help', 'nope'], reason: /^kvscope: no command "nope"/, code: 2 },
  {
    what: 'unknown option (with a suggestion)',
    args: () => ['profile', 'local', '--demo', '--interval-m', '50'],
    reason: /^kvscope profile: unknown option --interval-m \(did you mean --interval-ms\?\)$/,
    code: 2,
  },
  {
    what: 'unknown option',
    args: () => ['report', 'x', '--bogus'],
    reason: /^kvscope report: unknown option --bogus$/,
    code: 2,
  },
  {
    what: 'option without its value',
    args: () => ['report', at('session.kvscope'), '-o'],
    reason: /^kvscope report: --output needs a value$/,
    code: 2,
  },
  {
    what: 'missing argument',
    args: () => ['probe'],
    reason: /^kvscope probe: expected exactly one target/,
    code: 2,
  },
  {
    what: 'an argument too many',
    args: () => ['web', 'extra'],
    reason: /^kvscope web: unexpected argument "extra"/,
    code: 2,
  },
  {
    what: 'bad size',
    args: () => ['profile', 'local', '--demo', '--budget', 'lots'],
    reason: /^kvscope profile: --budget: cannot read "lots"/,
    code: 2,
  },
  {
    what: 'a number past its limit, in the option words (not the request schema)',
    args: () => ['profile', 'local', '--demo', '--interval-ms', '70000'],
    reason: /^kvscope profile: --interval-ms: at most 60000$/,
    code: 2,
  },
  {
    what: 'bad number',
    args: () => ['kv', '--layers', 'x', '--kv-heads', '8', '--head-dim', '64'],
    reason: /^kvscope kv: --layers: expected a whole number/,
    code: 2,
  },
  {
    what: 'bad choice',
    args: () => ['demo-engine', '--mode', 'sideways'],
    reason: /^kvscope demo-engine: --mode: expected one of growth, reserved, window, got "sideways"$/,
    code: 2,
  },
  {
    what: "a demo number out of range, in the option's words (was 'demo option tps: Too small: expected number to be >=0.1')",
    args: () => ['profile', 'local', '--demo', '--tps', '0'],
    reason: /^kvscope profile: --tps: at least 0\.1, got "0"$/,
    code: 2,
  },
  {
    what: "a demo number that is not one (was 'demo option tps: Invalid input: expected number, received NaN'; 0x10 was read as 16)",
    args: () => ['demo-engine', '--weights-mb', '0x10'],
    reason: /^kvscope demo-engine: --weights-mb: expected a number, got "0x10"$/,
    code: 2,
  },
  {
    what: "an exclusive minimum said as one (was '--duration: at least 0' for --duration 0)",
    args: () => ['profile', 'local', '--demo', '--duration', '0'],
    reason: /^kvscope profile: --duration: more than 0$/,
    code: 2,
  },
  {
    what: 'unknown report format',
    args: () => ['report', at('session.kvscope'), '--format', 'xml', '-o', at('r.xml')],
    reason: /^kvscope report: unknown format "xml" \(expected one of .*prometheus/,
    code: 2,
  },
  {
    what: 'bad port',
    args: () => ['web', '--port', '99999'],
    reason: /^kvscope web: --port: expected 0–65535/,
    code: 2,
  },
  {
    what: "import from stdin (was 'cannot read -: no such file', exit 1)",
    args: () => ['import', 'tegrastats', '-', '--out', at('stdin.kvscope')],
    reason: /^kvscope import: import reads a file, not stdin \("-"\): save the log first/,
    code: 2,
  },
  {
    what: 'recover without a target',
    args: () => ['recover'],
    reason: /^kvscope recover: expected exactly one target/,
    code: 2,
  },
  {
    what: 'unreadable session file',
    args: () => ['report', at('missing.kvscope'), '-o', at('r.html')],
    reason: /^kvscope report: .*missing\.kvscope: no such file/,
    code: 1,
  },
  {
    what: 'a file that is not a session',
    args: () => ['compare', at('session.kvscope'), at('session.kvscope'), '-o', at('c.md')],
    reason: /^kvscope compare: .*session\.kvscope/,
    code: 1,
  },
  {
    what: 'unreadable capture',
    args: () => ['parse', 'perf', at('missing.txt')],
    reason: /^kvscope parse: cannot read ".*missing\.txt": no such file$/,
    code: 1,
  },
  {
    what: 'a model file that is not GGUF',
    args: () => ['kv', '--gguf', at('garbage.gguf')],
    reason: /^kvscope kv: /,
    code: 1,
  },
  {
    what: 'a session that cannot be created',
    args: () => ['profile', 'local', '--demo', '--out', at('no/such/dir/x.kvscope')],
    reason: /^kvscope profile: --out: /,
    code: 2,
  },
  {
    what: 'unreachable host (a closed loopback port)',
    args: () => ['probe', `root@127.0.0.1:${closedPort}`],
    reason: /^kvscope probe: cannot reach host root@127\.0\.0\.1:\d+: connection refused/,
    code: 1,
    progress: true,
  },
  {
    what: 'refused host key (known_hosts holds another key)',
    args: () => ['probe', ...ssh(() => wrongKnownHosts)()],
    reason: /^kvscope probe: HOST KEY CHANGED for \[127\.0\.0\.1\]:\d+: .*; refused/,
    code: 1,
    progress: true,
  },
  {
    what: 'unknown host key without --accept-new-host-key',
    args: () => ['probe', ...ssh(() => at('empty_known_hosts'))()],
    reason: /^kvscope probe: host key of \[127\.0\.0\.1\]:\d+ is not known .*--accept-new-host-key/,
    code: 1,
    progress: true,
  },
  {
    what: 'profile over SSH with a refused host key',
    args: () => ['profile', ...ssh(() => wrongKnownHosts)(), '--demo', '--tokens', '10'],
    reason: /^kvscope profile: HOST KEY CHANGED for \[127\.0\.0\.1\]:\d+: .*; refused/,
    code: 1,
    progress: true,
  },
  {
    what: 'engine that cannot start',
    args: () => ['profile', 'local', '--engine', '/nonexistent/engine --serve'],
    reason: /^kvscope profile: engine exited with status 127: .*\/nonexistent\/engine/,
    code: 1,
    progress: true,
  },
  {
    what: 'engine that fails',
    args: () => ['profile', 'local', '--engine', "sh -c 'echo tok; echo model not found >&2; exit 3'"],
    reason: /^kvscope profile: engine exited with status 3: model not found$/,
    code: 1,
    progress: true,
  },
  {
    what: 'engine killed by SIGKILL (no kernel OOM line)',
    args: () => ['profile', 'local', '--engine', "sh -c 'echo tok; sleep 1; kill -9 $$'"],
    reason: /^kvscope profile: the engine was killed by SIGKILL after 1 token[ ,].*not by kvscope/,
    code: 1,
    progress: true,
  },
];

describe('every failing path: non-zero exit, one line on stderr', () => {
  beforeAll(() => writeKnownHosts(at('empty_known_hosts'), []));

  for (const path of PATHS) {
    it(
      path.what,
      async () => {
        const args = path.args();
        if (!path.progress) {
          expectOneLine(await runCli(args, { env }), path.reason, path.code);
          return;
        }
        const quiet = await runCli([...args, '--quiet'], { env });
        expectOneLine(quiet, path.reason, path.code);
        const loud = await runCli(args, { env });
        expect(loud.code).toBe(quiet.code);
        const lines = stderrLines(loud);
        // The same reason (its numbers, e.g. peak RSS, differ from run to run).
        expect(lines.at(-1)).toMatch(path.reason);
        for (const line of lines) expect(line).not.toMatch(/^\s+at |Error:|node:internal/);
      },
      60_000,
    );
  }

  it('an OOM kill in a memory cgroup: the summary says it and so does the one stderr line', async () => {
    const engine = `sh -c 'echo $$ > ${CGROUP}/cgroup.procs && exec ${process.execPath} ${kvscopeBin} demo-engine --tokens 8000 --tps 4000 --weights-mb 8'`;
    const r = await runCli(['profile', 'local', '--engine', engine, '--budget', '160MiB', '--json', '--quiet'], {
      env,
    });
    expectOneLine(
      r,
      /^kvscope profile: the engine was killed by the kernel's OOM killer after [\d,]+ tokens \(peak RSS [\d.]+ MiB of a 160 MiB budget\)$/,
      1,
    );
    const summary = JSON.parse(r.stdout) as {
      engine: { oomKilled: boolean; signal: string };
      events: Array<{ kind: string }>;
    };
    expect(summary.engine.oomKilled).toBe(true);
    expect(summary.engine.signal).toBe('SIGKILL');
    expect(summary.events.some((e) => e.kind === 'oom')).toBe(true);
  }, 60_000);

  it('KVSCOPE_DEBUG=1 adds the stack trace after the line', async () => {
    const r = await runCli(['report', at('missing.kvscope'), '-o', at('r.html')], {
      env: { ...env, KVSCOPE_DEBUG: '1' },
    });
    expect(r.code).toBe(1);
    const lines = stderrLines(r);
    expect(lines[0]).toMatch(/^kvscope report: .*no such file/);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).some((l) => /^\s+at /.test(l))).toBe(true);
  });
});

describe('a reader that stops reading', () => {
  it('ends the command quietly, as SIGPIPE ends a Unix tool (kvscope parse … | head -1)', async () => {
    // 200,000 lines of NDJSON: far more than a pipe buffer, so writes meet the closed pipe.
    writeFileSync(at('big.txt'), 'not meminfo\n'.repeat(200_000));
    const child = spawn(process.execPath, [kvscopeBin, 'parse', 'meminfo', at('big.txt')], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});
