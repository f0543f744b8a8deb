// The small slices of the app store: connection/app info, the board list, and the run form. The live
// run (the busy one) is in live-run-slice.ts. Each slice is a function of the store's set/get
// and the injected dependencies, so the whole store is testable without React or a server.
import { DEFAULT_RUN_FORM, type RunFormErrors, type RunFormField } from './run-form';
import type { AppSlice, RunFormSlice, SliceCreator, BoardListSlice } from './types';

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

// ---- board list ----
export const createBoardListSlice: SliceCreator<BoardListSlice> = (set, get, { api }) => ({
  boards: [],
  boardsStatus: 'idle',
  boardsError: null,
  selectedBoardId: null,
  async loadBoards() {
    set({ boardsStatus: 'loading', boardsError: null });
    try {
      const boards = await api.listBoards({});
      const selected = get().selectedBoardId;
      set({
        boards,
        boardsStatus: 'ready',
        selectedBoardId: boards.some((b) => b.id === selected) ? selected : (boards[0]?.id ?? null),
      });
      // The KV calculator's "Where" falls back the same way: its select showed the first board
      // while Read header went on asking for the removed one ("no saved board"), and choosing the
      // board it showed changed nothing.
      const kvTarget = get().kvForm.ggufTarget;
      const first = boards[0];
      if (first && !boards.some((b) => b.id === kvTarget)) get().setKvField('ggufTarget', first.id);
    } catch (error) {
      set({ boardsStatus: 'error', boardsError: errorText(error) });
    }
  },
  selectBoard(id) {
    if (get().boards.some((b) => b.id === id)) set({ selectedBoardId: id });
  },
});

// ---- run form ----
export const createRunFormSlice: SliceCreator<RunFormSlice> = (set) => ({
  form: DEFAULT_RUN_FORM,
  formErrors: {},
  refusedStarts: 0,
  setFormField(field, value) {
    set((state) => {
      // Another engine kind or server mode asks other questions of the same fields (a sweep is
      // refused in server mode only): the last Start's answers no longer hold; the next Start checks.
      if (field === 'engineKind' || field === 'serverMode')
        return { form: { ...state.form, [field]: value }, formErrors: {} };
      const { [field]: _cleared, general: _general, ...rest } = state.formErrors;
      // The collectors' settings are one field of the form and one error per collector.
      const errors: RunFormErrors = rest;
      if (field === 'collectors')
        for (const key of Object.keys(errors) as RunFormField[]) if (key.startsWith('collector-')) delete errors[key];
      return { form: { ...state.form, [field]: value }, formErrors: errors };
    });
  },
});
