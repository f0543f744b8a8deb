// Secret redaction and the app data dir.
import { describe, expect, it, afterEach } from 'vitest';
import { redact, redactError, redactJson, redactValue, registerSecret } from '../../../../../electron/node/util/redact';
import { appDataDir, appKnownHostsPath, setAppDataDir } from '../../../../../electron/node/config/app-paths';

describe('redact', () => {
  it('replaces every registered secret, also JSON-escaped and URL-encoded forms', () => {
    const secret = `pa"ss word/${Date.now()}`;
    expect(redact(`x ${secret} y`)).toBe(`x ${secret} y`); // not registered yet
    registerSecret(secret);
    expect(redact(`login with ${secret} failed, again: ${secret}`)).toBe('login with *** failed, again: ***');
    expect(redact(JSON.stringify({ password: secret }))).toBe('{"password":"***"}');
    expect(redact(`https://u:${encodeURIComponent(secret)}@h/`)).toBe('https://u:***@h/');
  });

  it('redactError keeps class, code and plain fields, drops objects that could hold key material', () => {
    const secret = `s3cr3t-${Date.now()}`;
    registerSecret(secret);
    class MyError extends Error {
      code = 'E_X';
      level = `auth ${secret}`;
      key = Buffer.from('PRIVATE KEY');
    }
    const e = redactError(new MyError(`bad ${secret}`));
    expect(e).toBeInstanceOf(MyError);
    expect(e.message).toBe('bad ***');
    expect((e as MyError).code).toBe('E_X');
    expect((e as MyError).level).toBe('auth ***');
    expect((e as MyError).key).toBeUndefined();
    expect(e.stack).not.toContain(secret);
    expect(redactError('plain ' + secret).message).toBe('plain ***');
  });

  it("masks tokens by their issuer's shape, never registered; leaves words that only start alike", () => {
    const hf = 'hf_' + 'AbCdEfGhIjKlMnOpQrStUvWxYz01234567';
    const openai = 'sk-proj-' + 'x1Y2z3'.repeat(8);
    const github = 'ghp_' + 'a1B2c3D4e5F6'.repeat(3);
    const aws = 'AKIA' + 'IOSFODNN7EXAMPLE';
    expect(redact(`token=${hf}, key "${openai}" gh ${github} id ${aws}`)).toBe('token=***, key "***" gh *** id ***');
    expect(redactJson({ m: `Bearer ${hf}` })).toBe('{"m":"Bearer ***"}');
    const words = 'sk-learn, hf_hub_download, ghp_short, AKIA1234, mask-hf_' + 'x'.repeat(10);
    expect(redact(words)).toBe(words);
  });

  it('masks a short secret where it stands alone, not inside a longer word or number', () => {
    registerSecret('pw');
    registerSecret('1234');
    expect(redact('ssh u:pw@board, --password=pw, "pw", PIN 1234.')).toBe(
      'ssh u:***@board, --password=***, "***", PIN ***.',
    );
    const chance = '/tmp/kvscope-api-XaZmpw/ssh_config, /home/pwilson, 912345 bytes, über1234';
    expect(redact(chance)).toBe(chance);
    // Six characters and more: anywhere, as before.
    registerSecret('hunter2');
    expect(redact('xhunter2y')).toBe('x***y');
  });

  it('ignores empty secrets (they would match everywhere)', () => {
    registerSecret('');
    registerSecret(undefined);
    expect(redact('unchanged text')).toBe('unchanged text');
  });
});

describe('appDataDir', () => {
  afterEach(() => setAppDataDir(undefined));
  it('override, then $KVSCOPE_HOME, then $XDG_CONFIG_HOME/kvscope, then ~/.config/kvscope', () => {
    expect(appDataDir({ KVSCOPE_HOME: '/k', XDG_CONFIG_HOME: '/x' })).toBe('/k');
    expect(appDataDir({ XDG_CONFIG_HOME: '/x' })).toBe('/x/kvscope');
    expect(appDataDir({})).toMatch(/\/\.config\/kvscope$/);
    setAppDataDir('/electron/userData');
    expect(appDataDir({ KVSCOPE_HOME: '/k' })).toBe('/electron/userData');
    expect(appKnownHostsPath({})).toBe('/electron/userData/known_hosts');
  });
});

describe('redactValue', () => {
  it('masks strings at any depth of arrays and plain objects, leaves numbers and class instances, keeps what holds none', () => {
    registerSecret('pw-Zq93value');
    const typed = new Float64Array([1, 2]);
    const clean = { a: ['x', 1], n: 3 };
    const value = { run: { command: 'x --password pw-Zq93value', tail: ['ok', 'pw-Zq93value!'] }, typed, clean };
    const out = redactValue(value);
    expect(out).toEqual({ run: { command: 'x --password ***', tail: ['ok', '***!'] }, typed, clean });
    expect(out.typed).toBe(typed);
    expect(out.clean).toBe(clean);
    expect(value.run.command).toBe('x --password pw-Zq93value');
  });
});
