// The small slices of the app store: connection/app info, targets, and the run form. The live
// run (the busy one) is in live-run-slice.ts. Each slice is a function of the store's set/get
// and the injected dependencies, so the whole store is testable without React or a server.
import { DEFAULT_RUN_FORM } from './run-form';
import type { AppSlice, RunFormSlice, SliceCreator, TargetsSlice } from './types';

export const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)) || 'unknown error';

// ---- connection and app info ----
export const createAppSlice: SliceCreator<AppSlice> = (set, _get, { api }) => ({
  connection: 'connecting',
  appInfo: null,
  setConnection: (connection) => set({ connection }),
  async loadAppInfo() {
    try {
      set({ appInfo: await api.appInfo({}) });
    } catch {
      // Cosmetic (version in the header): the views that matter report their own errors.
    }
  },
});

// ---- targets ----
export const createTargetsSlice: SliceCreator<TargetsSlice> = (set, get, { api }) => ({
  targets: [],
  targetsStatus: 'idle',
  targetsError: null,
  selectedTargetId: null,
  async loadTargets() {
    set({ targetsStatus: 'loading', targetsError: null });
    try {
      const targets = await api.listTargets({});
      const selected = get().selectedTargetId;
      set({
        targets,
        targetsStatus: 'ready',
        selectedTargetId: targets.some((t) => t.id === selected) ? selected : (targets[0]?.id ?? null),
      });
    } catch (error) {
      set({ targetsStatus: 'error', targetsError: errorText(error) });
    }
  },
  selectTarget(id) {
    if (get().targets.some((t) => t.id === id)) set({ selectedTargetId: id });
  },
});

// ---- run form ----
export const createRunFormSlice: SliceCreator<RunFormSlice> = (set) => ({
  form: DEFAULT_RUN_FORM,
  formErrors: {},
  setFormField(field, value) {
    set((state) => {
      const { [field]: _cleared, general: _general, ...rest } = state.formErrors;
      return { form: { ...state.form, [field]: value }, formErrors: rest };
    });
  },
});
