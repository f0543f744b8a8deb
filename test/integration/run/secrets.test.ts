// Issue #3: after runs that log in with a password and with a passphrase-protected key, no
// secret appears in anything KVScope wrote: CLI output, the session file, the report, the app's
// data folder (known hosts, saved boards).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestUser, generateKey, makeTempDir, startSshd, type Sshd } from '../../helpers/sshd';
import { runCli } from '../../helpers/cli';
import { readSession } from '../../../electron/node/session/session-store';

let sshd: Sshd;
let dir: string;
let knownHosts: string;
let passphraseKey: string;
const PASSPHRASE = `pass phrase 'with' "quotes" $HOME ${Date.now().toString(36)}`;

beforeAll(async () => {
  dir = await makeTempDir('kvscope-secrets-');
  const key = await generateKey(join(dir, 'encrypted_ed25519'), { passphrase: PASSPHRASE });
  passphraseKey = key.privatePath;
  sshd = await startSshd({ passwordAuthentication: true, authorizedKeys: [key.publicLine] });
  knownHosts = join(dir, 'known_hosts');
  await writeFile(knownHosts, sshd.knownHostsLine + '\n');
});

afterAll(async () => {
  await sshd?.stop();
});

/** Every file under a folder, as bytes. */
function filesUnder(root: string): Array<{ path: string; bytes: Buffer }> {
  const out: Array<{ path: string; bytes: Buffer }> = [];
  if (!existsSync(root)) return out; // nothing written there (known hosts came from --known-hosts)
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push({ path: p, bytes: readFileSync(p) });
  }
  return out;
}

function expectNoSecret(secret: string, places: Array<{ path: string; bytes: Buffer | string }>) {
  // The whole secret, and its longest word (a secret split by quoting must not leak in parts).
  const longestPart = secret.split(/[\s'"$]+/).sort((a, b) => b.length - a.length)[0] ?? secret;
  const needles = [secret, longestPart];
  for (const { path, bytes } of places) {
    const text = Buffer.isBuffer(bytes) ? bytes.toString('latin1') + bytes.toString('utf8') : bytes;
    for (const n of needles) expect(text.includes(n), `${n} found in ${path}`).toBe(false);
  }
}

const DEMO_WORKLOAD = ['--demo', '--tokens', '300', '--tps', '300', '--weights-mb', '4'];

async function profileRun(
  name: string,
  target: string,
  auth: string[],
  env: Record<string, string>,
  workload = DEMO_WORKLOAD,
) {
  const home = join(dir, `${name}-home`);
  const out = join(dir, `${name}.kvscope`);
  const report = join(dir, `${name}.html`);
  const r = await runCli(
    [
      'profile',
      target,
      ...auth,
      '--known-hosts',
      knownHosts,
      ...workload,
      '--interval-ms',
      '100',
      '--out',
      out,
      '--report',
      report,
      '--json',
    ],
    { env: { KVSCOPE_HOME: home, ...env } },
  );
  expect(r.code, r.stderr).toBe(0);
  if (workload === DEMO_WORKLOAD) expect(JSON.parse(r.stdout).throughput.tokens).toBe(300);
  return [
    { path: 'stdout', bytes: r.stdout },
    { path: 'stderr', bytes: r.stderr },
    ...filesUnder(home),
    { path: out, bytes: readFileSync(out) },
    { path: report, bytes: readFileSync(report) },
  ];
}

describe('secrets never land in output, sessions or reports', () => {
  it('password login (--password-env)', async () => {
    const { user, password } = await ensureTestUser('kvscope-secret');
    const places = await profileRun('pw', `${user}@${sshd.host}:${sshd.port}`, ['--password-env', 'KVSCOPE_TEST_PW'], {
      KVSCOPE_TEST_PW: password,
    });
    expectNoSecret(password, places);
    // The variable's name may appear (it is how the run was asked to log in); its value never.
    expect(places.some((p) => String(p.bytes).includes(password))).toBe(false);
  });

  it('an API key and a token in the engine command line, echoed by the engine on the board', async () => {
    const { user, password } = await ensureTestUser('kvscope-secret');
    const apiKey = `sk-${Date.now().toString(36)}-board`;
    const token = `hf_${Date.now().toString(36)}board`;
    const engine = `HF_TOKEN=${token} sh -c 'echo "token $HF_TOKEN key $2" >&2; sleep 1' engine --api-key ${apiKey}`;
    const places = await profileRun(
      'engine',
      `${user}@${sshd.host}:${sshd.port}`,
      ['--password-env', 'KVSCOPE_TEST_PW'],
      { KVSCOPE_TEST_PW: password },
      ['--engine', engine],
    );
    expectNoSecret(apiKey, places);
    expectNoSecret(token, places);
    expectNoSecret(password, places);
    // What the engine said is kept, masked.
    expect(readSession(join(dir, 'engine.kvscope')).runs[0]?.outcome?.stderrTail).toContain('token *** key ***');
  });

  it('passphrase-protected key (--identity + --passphrase-env)', async () => {
    const user = (await ensureTestUser('kvscope-secret')).user;
    const places = await profileRun(
      'pp',
      `${user}@${sshd.host}:${sshd.port}`,
      ['--identity', passphraseKey, '--passphrase-env', 'KVSCOPE_TEST_PP'],
      { KVSCOPE_TEST_PP: PASSPHRASE },
    );
    expectNoSecret(PASSPHRASE, places);
    // No key material either: the private key's base64 body never appears.
    const body = readFileSync(passphraseKey, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('-----'))
      .join('');
    expectNoSecret(body.slice(0, 40), places);
  });
});
