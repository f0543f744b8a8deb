import { describe, expect, it } from 'vitest';
import {
  buildRunRequest,
  DEFAULT_RUN_FORM,
  promptLines,
  type RunForm,
  type RunFormErrors,
  type RunFormField,
} from '../../../../../renderer/src/state/run-form';

const local = { kind: 'local' } as const;
const form = (patch: Partial<RunForm>): RunForm => ({ ...DEFAULT_RUN_FORM, ...patch });
/** The form with "Engine command" chosen. */
const commandForm = (patch: Partial<RunForm>): RunForm => form({ engineKind: 'command', ...patch });

/** The field errors of a form that must not make a request (fails the test if it does). */
function refused(f: RunForm, target: Parameters<typeof buildRunRequest>[1] = local): RunFormErrors {
  const built = buildRunRequest(f, target);
  if (built.ok) throw new Error(`expected the form to be refused, got ${JSON.stringify(built.request)}`);
  return built.errors;
}

describe('buildRunRequest', () => {
  it('turns the default demo form into a valid request', () => {
    const built = buildRunRequest(DEFAULT_RUN_FORM, local);
    expect(built).toEqual({
      ok: true,
      request: {
        target: local,
        engine: {
          kind: 'demo',
          demo: {
            layers: 16,
            kvHeads: 8,
            headDim: 64,
            kvType: 'f16',
            tokens: 2000,
            tps: 40,
            mode: 'growth',
            ctx: 4096,
            block: 16,
            weightsMb: 64,
          },
        },
        budgetBytes: 2 * 1024 ** 3,
        intervalMs: 200,
      },
      sweepSizes: null,
    });
  });

  it('sends the collector settings that differ from the defaults, as the CLI switches do', () => {
    const built = buildRunRequest(
      form({
        collectors: {
          perf: { off: true, intervalMs: '' },
          pmap: { off: false, intervalMs: ' 2000 ' },
          // Its default (1000 ms): nothing to send.
          tegrastats: { off: false, intervalMs: '1000' },
          // Off wins over an interval left in its field.
          vcgencmd: { off: true, intervalMs: '99' },
          // Samples at the run's interval: an interval of its own is not asked.
          procfs: { off: false, intervalMs: '5' },
        },
      }),
      local,
    );
    expect(built.ok && built.request.collectors).toEqual({
      vcgencmd: { enabled: false },
      perf: { enabled: false },
      pmap: { intervalMs: 2000 },
    });
  });

  it("puts a collector's interval outside its range on its own field", () => {
    const errors = refused(
      form({ collectors: { pmap: { off: false, intervalMs: '100' }, perf: { off: false, intervalMs: '1s' } } }),
    );
    // pmap: 1000..300000 ms (shared/collectors/pmap-collector.ts).
    expect(errors['collector-pmap']).toBe('a whole number from 1,000 to 300,000 ms');
    expect(errors['collector-perf']).toBe('a whole number from 100 to 60,000 ms');
  });

  it('sends no budget when the field is empty', () => {
    const built = buildRunRequest(form({ budget: '' }), local);
    expect(built.ok && built.request.budgetBytes).toBeUndefined();
  });

  it('names each field it cannot read', () => {
    const errors = refused(form({ layers: 'sixteen', tps: '', budget: 'lots', intervalMs: '1.5' }));
    expect(errors.layers).toBe('a whole number from 1 to 512');
    expect(errors.tps).toBe('required');
    expect(errors.budget).toContain('cannot read "lots"');
    expect(errors.intervalMs).toBe('a whole number from 20 to 60,000 ms');
  });

  it("applies the contract's limits and puts the message on the field", () => {
    const errors = refused(form({ layers: '0', intervalMs: '5' }));
    expect(errors.layers).toBe('a whole number from 1 to 512');
    expect(errors.intervalMs).toBe('a whole number from 20 to 60,000 ms');
  });

  // Each number field past its limit says, in the field's words and with its unit, what it takes
  // (the limits of shared/api/schemas.ts): it said zod's "must be <=60000".
  it.each<[RunFormField, Partial<RunForm>, string]>([
    ['layers', { layers: '513' }, 'a whole number from 1 to 512'],
    ['kvHeads', { kvHeads: '1025' }, 'a whole number from 1 to 1,024'],
    ['headDim', { headDim: '4097' }, 'a whole number from 1 to 4,096'],
    ['tokens', { tokens: '10000001' }, 'a whole number from 1 to 10,000,000 tokens'],
    ['tokens', { tokens: '2.5' }, 'a whole number from 1 to 10,000,000 tokens'],
    ['tps', { tps: '0.05' }, 'a number from 0.1 to 100,000 tokens/s'],
    ['ctx', { ctx: '0' }, 'a whole number from 1 to 10,000,000 tokens'],
    ['block', { block: '65537' }, 'a whole number from 1 to 65,536 tokens'],
    ['window', { mode: 'window', window: '0' }, 'a whole number from 1 to 10,000,000 tokens'],
    ['weightsMb', { weightsMb: '70000' }, 'a number from 0 to 65,536 MB'],
    ['intervalMs', { intervalMs: '60001' }, 'a whole number from 20 to 60,000 ms'],
    [
      'commandCtx',
      { engineKind: 'command', command: 'x', commandCtx: '0' },
      'a whole number from 1 to 10,000,000 tokens',
    ],
    [
      'commandTokens',
      { engineKind: 'command', command: 'x', commandTokens: '0' },
      'a whole number of tokens, 1 or more',
    ],
  ])('says what %s allows, with its unit (%j)', (field, patch, message) => {
    const error = refused(form(patch))[field];
    expect(error).toBe(message);
    expect(error).not.toMatch(/[<>]=|Too (?:big|small)|expected/);
  });

  it('gives the field its own limit for a number past 2^53, never the safe-integer bound', () => {
    const errors = refused(form({ layers: '99999999999999999999', budget: '99999999999999999999' }));
    expect(errors.layers).toBe('a whole number from 1 to 512');
    expect(errors.budget).toBe('too large');
  });

  it('reports every problem at once: unreadable fields and the contract limits', () => {
    const errors = refused(form({ layers: '0', budget: 'two gigs' }));
    expect(errors.layers).toBe('a whole number from 1 to 512');
    expect(errors.budget).toContain('cannot read "two gigs"');
  });

  it('requires a window in window mode only', () => {
    const missing = buildRunRequest(form({ mode: 'window', window: '' }), local);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.errors.window).toBe('required');
    const given = buildRunRequest(form({ mode: 'window', window: '512' }), local);
    expect(given.ok && given.request.engine).toMatchObject({ demo: { mode: 'window', window: 512 } });
  });

  it('requires a target', () => {
    expect(refused(DEFAULT_RUN_FORM, null).target).toBe('choose a target');
  });

  it('builds an engine command request with its optional fields', () => {
    const withOptions = commandForm({
      command: "  llama-cli -c {ctx} -p 'hi'  ",
      commandCtx: '2048',
      commandKvType: 'q8_0',
      commandTokens: '256',
    });
    const built = buildRunRequest(withOptions, local);
    expect(built).toEqual({
      ok: true,
      request: {
        target: local,
        engine: { kind: 'command', command: "llama-cli -c {ctx} -p 'hi'", ctx: 2048, kvType: 'q8_0' },
        tokens: 256,
        budgetBytes: 2 * 1024 ** 3,
        intervalMs: 200,
      },
      sweepSizes: null,
    });
    expect(refused(commandForm({ command: ' ' })).command).toBe('required');
  });

  it('passes the GGUF path, token pattern and keep-running, as the CLI’s --gguf, --token-regex and --keep-running', () => {
    const built = buildRunRequest(
      commandForm({
        command: 'my-engine --ctx {ctx}',
        commandCtx: '1024',
        gguf: ' /models/m.gguf ',
        tokenRegex: String.raw`^tok\b`,
        keepRunning: true,
      }),
      local,
    );
    expect(built).toEqual({
      ok: true,
      request: {
        target: local,
        engine: {
          kind: 'command',
          command: 'my-engine --ctx {ctx}',
          ctx: 1024,
          gguf: '/models/m.gguf',
          tokenRegex: String.raw`^tok\b`,
        },
        budgetBytes: 2 * 1024 ** 3,
        intervalMs: 200,
        keepRunning: true,
      },
      sweepSizes: null,
    });
  });

  it('says on the field what is missing or wrong, in the form’s words rather than the CLI’s', () => {
    const noCtx = refused(commandForm({ command: 'llama-cli -c {ctx}' }));
    expect(noCtx.commandCtx).toBe('the command contains {ctx}: give the context size to put there');
    expect(JSON.stringify(noCtx)).not.toMatch(/--/);
    expect(refused(commandForm({ command: 'x', tokenRegex: '(' })).tokenRegex).toMatch(/^not a valid pattern: /);
  });
});

/** The error the form puts on `field`, or a failure naming what it built instead. */
function errorOn(patch: Partial<RunForm>, field: RunFormField): string | undefined {
  const built = buildRunRequest(form(patch), local);
  if (built.ok) throw new Error(`expected an error on ${field}, the form built ${JSON.stringify(built.request)}`);
  return built.errors[field];
}

const serverCommand: Partial<RunForm> = {
  engineKind: 'command',
  command: 'llama-server -m m.gguf -c 4096 --port 0',
  serverMode: true,
};

describe('buildRunRequest: a context sweep', () => {
  it('sweeps the demo: sizes ascending and distinct, 8k = 8192', () => {
    const built = buildRunRequest(form({ mode: 'reserved', sweep: '2048, 512 8k,512' }), local);
    expect(built.ok && built.sweepSizes).toEqual([512, 2048, 8192]);
  });

  it('sweeps an engine command with {ctx}, without asking for the Context field', () => {
    const built = buildRunRequest(
      form({ engineKind: 'command', command: 'llama-cli -c {ctx} -n 64', sweep: '512,1024' }),
      local,
    );
    expect(built.ok && built.sweepSizes).toEqual([512, 1024]);
    expect(built.ok && built.request.engine).toEqual({ kind: 'command', command: 'llama-cli -c {ctx} -n 64' });
  });

  it.each<[string, Partial<RunForm>, string]>([
    ['a word', { sweep: '512, lots' }, '"lots" is not a context size: list sizes like 512, 2048, 8k'],
    ['one size', { sweep: '512, 512' }, 'give at least two different sizes (or none for a single run)'],
    ['a size past the contract', { sweep: '512, 20000000' }, '"20000000" is more than 10,000,000 tokens'],
    ['too many sizes', { sweep: Array.from({ length: 33 }, (_, i) => String(i + 1)).join(',') }, 'at most 32 sizes'],
    [
      'a command without {ctx}',
      { engineKind: 'command', command: 'llama-cli -c 512', sweep: '512,1024' },
      'put {ctx} in the command where each context size goes',
    ],
    [
      'server mode',
      { ...serverCommand, sweep: '512,1024' },
      'a sweep cannot run in server mode: profile one server per context size',
    ],
  ])('refuses %s on the Context sweep field', (_case, patch, message) => {
    expect(errorOn(patch, 'sweep')).toBe(message);
  });
});

describe('buildRunRequest: server mode', () => {
  it('sends the defaults: port 0 (the one the server prints), chat, 128 tokens a turn, 120 s to answer', () => {
    const built = buildRunRequest(form(serverCommand), local);
    expect(built.ok && built.request.server).toEqual({
      url: 'http://127.0.0.1:0/v1',
      api: 'chat',
      prompts: [],
      maxTokens: 128,
      ignoreEos: false,
      readyTimeoutMs: 120_000,
    });
    // "Stop after" belongs to one-shot engines: a server's turns have their own token count.
    expect(built.ok && built.request.tokens).toBeUndefined();
  });

  it('sends the prompts one per line (blank lines skipped), the turns and the other settings', () => {
    const built = buildRunRequest(
      form({
        ...serverCommand,
        serverUrl: 'http://127.0.0.1:8080/v1',
        serverApi: 'completions',
        prompts: 'Tell me a story.\r\n\n  Now make it longer.  \n',
        turns: '3',
        serverTokens: '64',
        ignoreEos: true,
        serverTimeoutS: '2.5',
        commandTokens: '999',
      }),
      local,
    );
    expect(built.ok && built.request.server).toEqual({
      url: 'http://127.0.0.1:8080/v1',
      api: 'completions',
      prompts: ['Tell me a story.', 'Now make it longer.'],
      turns: 3,
      maxTokens: 64,
      ignoreEos: true,
      readyTimeoutMs: 2500,
    });
    expect(built.ok && built.request.tokens).toBeUndefined();
  });

  it('is no server mode for the demo workload, even with the box ticked earlier', () => {
    const built = buildRunRequest(form({ serverMode: true }), local);
    expect(built.ok && built.request.server).toBeUndefined();
  });

  it.each<[string, Partial<RunForm>, RunFormField, string]>([
    [
      'an address that is not http',
      { serverUrl: 'ftp://board/v1' },
      'serverUrl',
      'an address like http://127.0.0.1:8080/v1 (port 0: the one the server prints)',
    ],
    [
      'an address that is no address',
      { serverUrl: '127.0.0.1:8080' },
      'serverUrl',
      'an address like http://127.0.0.1:8080/v1 (port 0: the one the server prints)',
    ],
    ['zero turns', { turns: '0' }, 'turns', 'a whole number from 1 to 1,000'],
    ['too many turns', { turns: '1001' }, 'turns', 'a whole number from 1 to 1,000'],
    [
      'fewer turns than prompts',
      { prompts: 'one\ntwo\nthree', turns: '2' },
      'turns',
      '3 prompts need at least 3 turns (or leave empty: one per prompt)',
    ],
    // QA: a pasted document was refused in zod's words ("Too big: expected string to have <=100000 characters").
    [
      'a prompt over 100,000 characters',
      { prompts: `short\n${'x'.repeat(100_001)}` },
      'prompts',
      'prompt 2 is 100,001 characters: at most 100,000 per prompt (one prompt per line)',
    ],
    [
      'over 1,000 prompts',
      { prompts: Array.from({ length: 1001 }, (_, i) => `p${i}`).join('\n') },
      'prompts',
      '1,001 prompts: at most 1,000 (one per line)',
    ],
    ['no tokens per turn', { serverTokens: '' }, 'serverTokens', 'a whole number from 1 to 1,000,000 tokens'],
    ['a wait that is no number', { serverTimeoutS: 'long' }, 'serverTimeoutS', 'a number from 1 to 3,600 seconds'],
    ['a wait under a second', { serverTimeoutS: '0.5' }, 'serverTimeoutS', 'a number from 1 to 3,600 seconds'],
    [
      'too many tokens per turn',
      { serverTokens: '2000000' },
      'serverTokens',
      'a whole number from 1 to 1,000,000 tokens',
    ],
  ])('refuses %s on its field, in the form’s words', (_case, patch, field, message) => {
    const error = errorOn({ ...serverCommand, ...patch }, field);
    expect(error).toBe(message);
    expect(error).not.toMatch(/--/);
  });

  it('reads prompts one per line', () => {
    expect(promptLines(' a \r\n\n b\n\n')).toEqual(['a', 'b']);
  });
});
