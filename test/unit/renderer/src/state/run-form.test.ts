import { describe, expect, it } from 'vitest';
import {
  buildRunRequest,
  DEFAULT_RUN_FORM,
  type RunForm,
  type RunFormErrors,
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
    });
  });

  it('sends no budget when the field is empty', () => {
    const built = buildRunRequest(form({ budget: '' }), local);
    expect(built.ok && built.request.budgetBytes).toBeUndefined();
  });

  it('names each field it cannot read', () => {
    const errors = refused(form({ layers: 'sixteen', tps: '', budget: 'lots', intervalMs: '1.5' }));
    expect(errors.layers).toBe('a whole number');
    expect(errors.tps).toBe('required');
    expect(errors.budget).toContain('cannot read "lots"');
    expect(errors.intervalMs).toBe('a whole number');
  });

  it("applies the contract's limits and puts the message on the field", () => {
    const errors = refused(form({ layers: '0', intervalMs: '5' }));
    expect(errors.layers).toBe('must be >=1');
    expect(errors.intervalMs).toBe('must be >=20');
  });

  it('reports every problem at once: unreadable fields and the contract limits', () => {
    const errors = refused(form({ layers: '0', budget: 'two gigs' }));
    expect(errors.layers).toBe('must be >=1');
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
    });
  });

  it('says on the field what is missing or wrong, in the form’s words rather than the CLI’s', () => {
    const noCtx = refused(commandForm({ command: 'llama-cli -c {ctx}' }));
    expect(noCtx.commandCtx).toBe('the command contains {ctx}: give the context size to put there');
    expect(JSON.stringify(noCtx)).not.toMatch(/--/);
    expect(refused(commandForm({ command: 'x', tokenRegex: '(' })).tokenRegex).toMatch(/^not a valid pattern: /);
  });
});
