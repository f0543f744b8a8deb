// The secrets an engine command line carries (scrub.ts commandLineSecrets): what a user types in
// `--engine` to start a server or fetch a model, and what must not be mistaken for one.
import { describe, expect, it } from 'vitest';
import { commandLineSecrets, environmentSecrets } from '../../../../../electron/node/session/scrub';

describe('commandLineSecrets', () => {
  it.each([
    ['llama-server -m m.gguf --api-key sk-live-123 --port 8080', ['sk-live-123']],
    ['llama-server --api-key=sk-live-123', ['sk-live-123']],
    ['llama-cli -hf org/model -hft hf_abcdef', ['hf_abcdef']],
    ['llama-cli --hf-token hf_abcdef -p hi', ['hf_abcdef']],
    ['HF_TOKEN=hf_abcdef OPENAI_API_KEY="sk two words" ./engine', ['hf_abcdef', 'sk two words']],
    ["DB='host=db password=pg-secret user=me' ./engine", ['pg-secret']],
    ['./engine --url "https://me:url-pass@example.org/v1?token=q-secret&x=1"', ['url-pass', 'q-secret']],
    ['curl -H "Authorization: Bearer tok-123" http://x', ['tok-123']],
    ["curl -H 'x-api-key: key-456' http://x", ['key-456']],
    ['./engine --password=pw_SECRET3 --passphrase "two words"', ['pw_SECRET3', 'two words']],
  ])('%s', (command, secrets) => {
    expect(commandLineSecrets(command).sort()).toEqual([...secrets].sort());
  });

  it.each([
    'llama-cli -m /models/m.gguf -c 4096 -n 256 -p "count every token" --token-regex "\\S+"',
    'llama-server --api-key-file /etc/keys --password-env PW --tokens 100 -ctk q8_0',
    'llama-server --no-token -m m.gguf',
    './engine --api-key ab',
  ])('nothing in %s', (command) => {
    expect(commandLineSecrets(command)).toEqual([]);
  });
});

describe('environmentSecrets', () => {
  it('takes the password of a URL in any variable (a proxy, a database), not a URL without one', () => {
    expect(
      environmentSecrets({
        HTTPS_PROXY: 'http://me:proxy-pw-1@proxy.example:3128',
        DATABASE_URL: 'postgres://app:db-pw-2@db/x',
        MIRRORS: 'https://a.example/x, https://u:mirror-pw-3@b.example/y',
        HF_ENDPOINT: 'https://huggingface.co',
        NO_PROXY: 'localhost,127.0.0.1',
      }),
    ).toEqual(['proxy-pw-1', 'db-pw-2', 'mirror-pw-3']);
  });

  it('takes the values of secret-named variables, not flags, paths or the names of variables', () => {
    expect(
      environmentSecrets({
        HF_TOKEN: 'hf_abcdef123456',
        OPENAI_API_KEY: 'sk-proj-123456',
        AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI',
        DB_PASSWORD: 'hunter22',
        USE_AUTH_TOKEN: 'true',
        HF_HUB_DISABLE_TOKEN: '1',
        TOKENIZERS_PARALLELISM: 'false',
        KVSCOPE_PASSWORD_ENV: 'BOARD_PW',
        PATH: '/usr/local/bin:/usr/bin',
        EMPTY_SECRET: undefined,
      }),
    ).toEqual(['hf_abcdef123456', 'sk-proj-123456', 'wJalrXUtnFEMI', 'hunter22']);
  });
});
