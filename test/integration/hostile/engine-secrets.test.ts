// Secrets typed into an engine command line (an API key, a Hugging Face token, a password in a
// variable or a URL) run as typed but are never printed, stored or exported: the real CLI runs a
// real engine that also echoes its token, and every byte it leaves behind is searched.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileArgs, runCli, type CliResult } from '../../helpers/cli';
import { openaiServerCommand } from '../../helpers/llama-engine';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-engine-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

/** `profile local <engine>` at 50 ms into at(<name>.kvscope), with its report at(<name>.md), --json. */
const profileWithReport = (name: string, engine: string, env?: Record<string, string>) =>
  runCli(
    profileArgs(
      'local',
      engine,
      '--interval-ms',
      '50',
      '--out',
      at(`${name}.kvscope`),
      '--report',
      at(`${name}.md`),
      '--json',
    ),
    env ? { env } : undefined,
  );

/** The session at(<name>.kvscope) was closed whole and neither it nor its report holds what `leakedIn` looks for. */
function expectNothingLeftIn(name: string, leakedIn: (text: string) => string[]): void {
  expect(existsSync(at(`${name}.kvscope-wal`))).toBe(false);
  for (const file of [`${name}.kvscope`, `${name}.md`])
    expect([file, leakedIn(readFileSync(at(file)).toString('latin1'))]).toEqual([file, []]);
}

const SECRETS = ['tok-Zq81secret', 'sk-Zq82secret', 'pw-Zq83secret', 'url-Zq84secret'];
const ENGINE = [
  `API_TOKEN=${SECRETS[0]} sh -c`,
  `'printf %s "$API_TOKEN" > ${at('engine-got')}; echo "auth with $API_TOKEN and $2" >&2; sleep 1.2; exit 3'`,
  `engine --api-key ${SECRETS[1]} --password=${SECRETS[2]} --url https://me:${SECRETS[3]}@example.org/v1`,
].join(' ');
const leaked = (text: string) => SECRETS.filter((s) => text.includes(s));

let profiled: CliResult;
beforeAll(async () => {
  profiled = await runCli(
    profileArgs('local', ENGINE, '--interval-ms', '50', '--out', at('s.kvscope'), '--report', at('r.html'), '--json'),
  );
});

describe('secrets in an engine command line', () => {
  it('the engine gets them as typed', () => {
    expect(readFileSync(at('engine-got'), 'utf8')).toBe(SECRETS[0]);
  });

  it('profile --json and stderr show the command masked, the failure line too', () => {
    expect(profiled.code).toBe(1);
    const summary = JSON.parse(profiled.stdout) as { engine: { command: string } };
    expect(summary.engine.command).toBe(
      ENGINE.replaceAll(SECRETS[0] as string, '***')
        .replaceAll(SECRETS[1] as string, '***')
        .replaceAll(SECRETS[2] as string, '***')
        .replaceAll(SECRETS[3] as string, '***'),
    );
    expect(leaked(profiled.stdout)).toEqual([]);
    expect(leaked(profiled.stderr)).toEqual([]);
  });

  it('the session file and every export of it hold none of them', async () => {
    const files = ['s.kvscope', 'r.html'];
    for (const [format, file] of [
      ['md', 'r.md'],
      ['csv', 'r.csv'],
      ['json', 'r.json'],
      ['perfetto', 'r.trace.json'],
      ['prometheus', 'r.prom'],
    ] as const) {
      const r = await runCli(['report', at('s.kvscope'), '--format', format, '-o', at(file)]);
      expect([format, r.code, leaked(r.stderr)]).toEqual([format, 0, []]);
      files.push(file);
    }
    expect(existsSync(at('s.kvscope-wal'))).toBe(false);
    for (const file of readdirSync(dir).filter((f) => files.includes(f)))
      expect([file, leaked(readFileSync(at(file)).toString('latin1'))]).toEqual([file, []]);
    // The engine's own echo of the token is in the report, masked.
    expect(readFileSync(at('r.md'), 'utf8')).toContain('auth with *** and ***');
  });
});

// An engine on this computer inherits KVScope's environment: a token kept there (HF_TOKEN for a
// gated model, an API key for a server) is the engine's to use, and one that prints it (an auth
// error, a wrapper's `env`) must not put it into the session, the report or the terminal.
describe('secrets in the environment an engine on this computer inherits', () => {
  const ENV_SECRETS = { HF_TOKEN: 'hf_Zq85envtoken', OPENAI_API_KEY: 'sk-Zq86envkey' };
  const leakedEnv = (text: string) => Object.values(ENV_SECRETS).filter((s) => text.includes(s));

  it('are masked in stderr, --json, the session and its report', async () => {
    const engine = `sh -c 'echo "401 for HF_TOKEN=$HF_TOKEN, key $OPENAI_API_KEY" >&2; sleep 1.2; exit 3'`;
    const res = await profileWithReport('env', engine, ENV_SECRETS);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('engine exited with status 3: 401 for HF_TOKEN=***, key ***');
    expect([leakedEnv(res.stdout), leakedEnv(res.stderr)]).toEqual([[], []]);
    expectNothingLeftIn('env', leakedEnv);
  });
});

// A token KVScope never saw (the engine reads it from a file, a credential helper) is masked by its
// shape: a Hugging Face token, an OpenAI key, a GitHub token, each of its issuer's documented form.
describe('a token the engine read from a file and printed', () => {
  const UNSEEN = [
    `hf_${'Zq90unseenTokenAbcdefghijklmnop'}abc`,
    `sk-proj-${'Zq91unseenKey_0123456789abcdef'}`,
    `ghp_${'Zq92'.repeat(9)}`,
  ];
  const leakedUnseen = (text: string) => UNSEEN.filter((s) => text.includes(s));

  it('is masked in stderr, --json, the session and its report', async () => {
    const tokenFile = at('unseen-token');
    writeFileSync(tokenFile, UNSEEN.join(' '));
    const engine = `sh -c 'echo "401 Unauthorized with $(cat ${tokenFile}) (sk-learn stays)" >&2; sleep 1.2; exit 3'`;
    const res = await profileWithReport('unseen', engine);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('engine exited with status 3: 401 Unauthorized with *** *** *** (sk-learn stays)');
    expect([leakedUnseen(res.stdout), leakedUnseen(res.stderr)]).toEqual([[], []]);
    expectNothingLeftIn('unseen', leakedUnseen);
  });
});

describe('a password in a URL of the environment an engine on this computer inherits', () => {
  it('is masked in stderr, --json and the session (a proxy setting the engine prints)', async () => {
    const password = 'px-Zq89secret';
    const engine = `sh -c 'echo "proxy $HTTPS_PROXY refused" >&2; sleep 1.2; exit 3'`;
    const res = await runCli(
      profileArgs('local', engine, '--interval-ms', '50', '--out', at('proxy.kvscope'), '--json'),
      {
        env: { HTTPS_PROXY: `http://me:${password}@proxy.example:3128` },
      },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('proxy http://me:***@proxy.example:3128 refused');
    expect([res.stdout.includes(password), res.stderr.includes(password)]).toEqual([false, false]);
    expect(existsSync(at('proxy.kvscope-wal'))).toBe(false);
    expect(readFileSync(at('proxy.kvscope')).toString('latin1')).not.toContain(password);
  });
});

// Server mode keeps the server's address in the profile (--json, the session, reports): a
// password in it (`http://user:…@host/v1`) or a key in its query must not come along.
describe('secrets in a server-mode address', () => {
  const URL_SECRETS = ['srv-Zq87secret', 'key-Zq88secret'];
  const leakedUrl = (text: string) => URL_SECRETS.filter((s) => text.includes(s));

  it('are masked in stderr, --json, the session and its report', async () => {
    const res = await runCli(
      profileArgs(
        'local',
        openaiServerCommand({ ctx: 512 }),
        '--server-url',
        `http://me:${URL_SECRETS[0]}@127.0.0.1:0/v1?api_key=${URL_SECRETS[1]}`,
        '--tokens',
        '8',
        '--out',
        at('server.kvscope'),
        '--report',
        at('server.md'),
        '--json',
      ),
    );
    expect(res.code, res.stderr).toBe(0);
    const summary = JSON.parse(res.stdout) as { server: { url: string } };
    expect(summary.server.url).toMatch(/^http:\/\/me:\*\*\*@127\.0\.0\.1:\d+\/v1\?api_key=\*\*\*$/);
    expect([leakedUrl(res.stdout), leakedUrl(res.stderr)]).toEqual([[], []]);
    expect(existsSync(at('server.kvscope-wal'))).toBe(false);
    for (const file of ['server.kvscope', 'server.md'])
      expect([file, leakedUrl(readFileSync(at(file)).toString('latin1'))]).toEqual([file, []]);
  });
});
