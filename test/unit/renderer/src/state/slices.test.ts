// The run form's slice: a field's error goes when the field changes; switching the engine kind or
// server mode clears every error of the last Start, since the same fields then mean other things.
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../../helpers/fake-api';
import { createMemoryRing } from '../../../../../renderer/src/live/ring-buffer';
import { createAppStore } from '../../../../../renderer/src/state/store';

function refusedServerSweep() {
  const store = createAppStore({ api: fakeApi({}).api, ring: createMemoryRing(10) });
  const state = store.getState();
  state.setFormField('engineKind', 'command');
  state.setFormField('command', './llama-server -c {ctx}');
  state.setFormField('serverMode', true);
  state.setFormField('sweep', '512, 1k');
  state.setFormField('budget', 'lots');
  return store;
}

describe('the run form slice', () => {
  it('clears only the edited field’s error', async () => {
    const store = refusedServerSweep();
    await store.getState().startRun();
    expect(store.getState().formErrors.sweep).toBe(
      'a sweep cannot run in server mode: profile one server per context size',
    );
    store.getState().setFormField('budget', '2 GiB');
    expect(store.getState().formErrors.budget).toBeUndefined();
    expect(store.getState().formErrors.sweep).toBeDefined();
  });

  it.each([
    ['engineKind', 'demo'],
    ['serverMode', false],
  ] as const)(
    'clears every error when %s changes: the demo form shows no server-mode complaint',
    async (field, value) => {
      const store = refusedServerSweep();
      await store.getState().startRun();
      expect(store.getState().formErrors.budget).toContain('cannot read "lots"');
      store.getState().setFormField(field, value);
      expect(store.getState().formErrors).toEqual({});
    },
  );
});
