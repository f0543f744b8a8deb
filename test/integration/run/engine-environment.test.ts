// Secrets in the environment an engine on a board inherits (electron/node/run/engine-environment.ts):
// a token exported by the board's login (here sshd's SetEnv, as ~/.profile or /etc/environment
// would) or typed before the command (`HF_TOKEN=… ./llama-cli …`). An engine that prints them (an
// auth error) put the login's into the failure line, --json, the session and every report; a run
// on this computer masked its own environment's already. Real sshd on loopback, the real CLI, a
// shell one-liner as the engine; every byte left behind is searched, the session as sqlite3 dumps it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileArgs, runCli, type CliResult } from '../../helpers/cli';
import { makeTempDir, sshCliTarget, startTrustedSshd, type Sshd } from '../../helpers/sshd';

const LOGIN_SECRETS = { HF_TOKEN: 'hf_Zq91loginTok', OPENAI_API_KEY: 'sk-Zq92loginKey' };
const TYPED_SECRET = 'hf_Zq93typedTok';
const SECRETS = [...Object.values(LOGIN_SECRETS), TYPED_SECRET];
const leaked = (text: string) => SECRETS.filter((s) => text.includes(s));

let sshd: Sshd;
let dir: string;
let profiled: CliResult;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await makeTempDir('kvscope-engine-env-');
  const trusted = await startTrustedSshd({
    extraConfig: [
      `SetEnv ${Object.entries(LOGIN_SECRETS)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    ],
  });
  sshd = trusted.sshd;
  const engine =
    `TYPED_TOKEN=${TYPED_SECRET} sh -c ` +
    `'echo "401 for HF_TOKEN=$HF_TOKEN key $OPENAI_API_KEY typed $TYPED_TOKEN" >&2; sleep 1.2; exit 3'`;
  profiled = await runCli(
    profileArgs(
      sshCliTarget(sshd, trusted.knownHosts),
      engine,
      '--interval-ms',
      '100',
      '--out',
      at('s.kvscope'),
      '--json',
    ),
    { env: { KVSCOPE_HOME: at('home') } },
  );
}, 120_000);

afterAll(async () => {
  await sshd?.stop();
});

/** Every file under a folder, as text. */
function filesUnder(root: string): Array<[string, string]> {
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((name) => {
    const p = join(root, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [[p, readFileSync(p).toString('latin1')] as [string, string]];
  });
}

describe('secrets in the environment of an engine on a board (SSH)', () => {
  it("the engine's failure line, --json and stderr say what it printed, masked", () => {
    expect(profiled.code).toBe(1);
    expect(profiled.stderr.trimEnd().split('\n').at(-1)).toBe(
      'kvscope profile: engine exited with status 3: 401 for HF_TOKEN=*** key *** typed ***',
    );
    expect(JSON.parse(profiled.stdout)).toMatchObject({ engine: { exitCode: 3 } });
    expect([leaked(profiled.stdout), leaked(profiled.stderr)]).toEqual([[], []]);
  });

  it('the session (sqlite3 .dump), every report of it and the app folder hold none of them', async () => {
    const dump = execFileSync('sqlite3', [at('s.kvscope'), '.dump'], { encoding: 'utf8' });
    expect(dump).toContain('401 for HF_TOKEN=*** key *** typed ***');
    expect(leaked(dump)).toEqual([]);
    const places: Array<[string, string]> = [];
    for (const format of ['html', 'md', 'json', 'csv']) {
      const r = await runCli(['report', at('s.kvscope'), '--format', format, '-o', '-']);
      expect([format, r.code, leaked(r.stderr)]).toEqual([format, 0, []]);
      places.push([format, r.stdout]);
    }
    places.push(...filesUnder(at('home')));
    for (const [where, text] of places) expect([where, leaked(text)]).toEqual([where, []]);
  });
});
