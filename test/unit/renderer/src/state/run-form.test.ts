import { describe, expect, it } from 'vitest';
import { buildRunRequest, DEFAULT_RUN_FORM, type RunForm } from '../../../../../renderer/src/state/run-form';

const local = { kind: 'local' } as const;
const form = (patch: Partial<RunForm>): RunForm => ({ ...DEFAULT_RUN_FORM, ...patch });

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
    const built = buildRunRequest(form({ layers: 'sixteen', tps: '', budget: 'lots', intervalMs: '1.5' }), local);
    expect(built.ok).toBe(false);
    if (!built.ok) {
      expect(built.errors.layers).toBe('a whole number');
      expect(built.errors.tps).toBe('required');
      expect(built.errors.budget).toContain('cannot read "lots"');
      expect(built.errors.intervalMs).toBe('a whole number');
    }
  });

  it("applies the contract's limits and puts the message on the field", () => {
    const built = buildRunRequest(form({ layers: '0', intervalMs: '5' }), local);
    expect(built.ok).toBe(false);
    if (!built.ok) {
      expect(built.errors.layers).toBe('must be >=1');
      expect(built.errors.intervalMs).toBe('must be >=20');
    }
  });

  it('reports every problem at once: unreadable fields and the contract limits', () => {
    const built = buildRunRequest(form({ layers: '0', budget: 'two gigs' }), local);
    expect(built.ok).toBe(false);
    if (!built.ok) {
      expect(built.errors.layers).toBe('must be >=1');
      expect(built.errors.budget).toContain('cannot read "two gigs"');
    }
  });

  it('requires a window in window mode only', () => {
    const missing = buildRunRequest(form({ mode: 'window', window: '' }), local);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.errors.window).toBe('required');
    const given = buildRunRequest(form({ mode: 'window', window: '512' }), local);
    expect(given.ok && given.request.engine).toMatchObject({ demo: { mode: 'window', window: 512 } });
  });

  it('requires a target', () => {
    const built = buildRunRequest(DEFAULT_RUN_FORM, null);
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.errors.target).toBe('choose a target');
  });

  it('builds an engine command request with its optional fields', () => {
    const built = buildRunRequest(
      form({
        engineKind: 'command',
        command: "  llama-cli -c {ctx} -p 'hi'  ",
        commandCtx: '2048',
        commandKvType: 'q8_0',
        commandTokens: '256',
      }),
      local,
    );
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
    const empty = buildRunRequest(form({ engineKind: 'command', command: ' ' }), local);
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.errors.command).toBe('required');
  });

  it('passes the GGUF path, token pattern and keep-running, as the CLI’s --gguf, --token-regex and --keep-running', () => {
    const built = buildRunRequest(
      form({
        engineKind: 'command',
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
    const noCtx = buildRunRequest(form({ engineKind: 'command', command: 'llama-cli -c {ctx}' }), local);
    expect(noCtx.ok).toBe(false);
    if (!noCtx.ok) {
      expect(noCtx.errors.commandCtx).toBe('the command contains {ctx}: give the context size to put there');
      expect(JSON.stringify(noCtx.errors)).not.toMatch(/--/);
    }
    const badRegex = buildRunRequest(form({ engineKind: 'command', command: 'x', tokenRegex: '(' }), local);
    expect(badRegex.ok).toBe(false);
    if (!badRegex.ok) expect(badRegex.errors.tokenRegex).toMatch(/^not a valid pattern: /);
  });
});
