// Saved boards in the store: the add/edit dialog, removing, importing ~/.ssh/config entries, and
// "Test & probe" (connect, read the board's facts and findings). Connection questions that come
// up while probing (host key, password) arrive as events and are handled by prompts-slice.ts.
import { buildBoard, draftFromBoard, EMPTY_BOARD } from './board-form';
import { errorText } from './slices';
import type { BoardsSlice, SliceCreator } from './types';

export const createBoardsSlice: SliceCreator<BoardsSlice> = (set, get, { api }) => ({
  editor: null,
  importer: null,
  probes: {},

  openEditor(boardId) {
    const board = boardId ? get().boards.find((b) => b.id === boardId && b.spec.kind === 'ssh') : undefined;
    set({
      editor: board
        ? { mode: 'edit', id: board.id, draft: draftFromBoard(board), errors: {}, saving: false }
        : { mode: 'add', id: null, draft: EMPTY_BOARD, errors: {}, saving: false },
    });
  },

  setBoardField(field, value) {
    const editor = get().editor;
    if (!editor) return;
    const { [field]: _cleared, general: _general, ...errors } = editor.errors;
    set({ editor: { ...editor, draft: { ...editor.draft, [field]: value }, errors } });
  },

  async saveBoard() {
    const editor = get().editor;
    if (!editor || editor.saving) return false;
    const built = buildBoard(editor.draft, editor.id);
    if (!built.ok) {
      set({ editor: { ...editor, errors: built.errors } });
      return false;
    }
    // The spec as it was, read through the same form (same keys, same order) to compare with.
    const before = editor.id ? get().boards.find((b) => b.id === editor.id) : undefined;
    const beforeBuilt = before ? buildBoard(draftFromBoard(before), before.id) : null;
    const readdressed =
      beforeBuilt !== null &&
      (!beforeBuilt.ok || JSON.stringify(beforeBuilt.input.spec) !== JSON.stringify(built.input.spec));
    set({ editor: { ...editor, saving: true, errors: {} } });
    try {
      const saved = await api.saveBoard(built.input);
      // A probe describes the machine at the old address: after a change of host, port, user or
      // jump hosts its card would show another board's facts (a rename keeps it).
      if (readdressed) {
        const { [saved.id]: _stale, ...probes } = get().probes;
        set({ probes });
      }
      await get().loadBoards();
      get().selectBoard(saved.id);
      set({ editor: null });
      return true;
    } catch (error) {
      const current = get().editor;
      if (current) set({ editor: { ...current, saving: false, errors: { general: errorText(error) } } });
      return false;
    }
  },

  closeEditor() {
    set({ editor: null });
  },

  async removeBoard(boardId) {
    const editor = get().editor;
    try {
      await api.removeBoard({ id: boardId });
      const { [boardId]: _gone, ...probes } = get().probes;
      set({ probes, editor: editor?.id === boardId ? null : editor });
      await get().loadBoards();
    } catch (error) {
      if (editor) set({ editor: { ...editor, errors: { general: errorText(error) } } });
    }
  },

  async forgetSecrets(boardId) {
    try {
      await api.forgetSecrets({ boardId });
    } finally {
      await get().loadBoards();
    }
  },

  async openImporter() {
    set({ importer: { status: 'loading', path: null, found: false, hosts: [], error: null, adding: [] } });
    try {
      const result = await api.importSshConfig({});
      set({
        importer: {
          status: 'ready',
          path: result.path,
          found: result.found,
          hosts: result.hosts,
          error: null,
          adding: [],
        },
      });
    } catch (error) {
      set({ importer: { status: 'error', path: null, found: false, hosts: [], error: errorText(error), adding: [] } });
    }
  },

  async importHost(alias) {
    const importer = get().importer;
    const host = importer?.hosts.find((h) => h.alias === alias);
    if (!importer || !host?.spec || host.savedBoardId || importer.adding.includes(alias)) return;
    set({ importer: { ...importer, adding: [...importer.adding, alias] } });
    /** The host is no longer being added; `change` records how it went. */
    const finish = (change: Partial<(typeof importer.hosts)[number]>) => {
      const now = get().importer;
      if (!now) return;
      set({
        importer: {
          ...now,
          adding: now.adding.filter((a) => a !== alias),
          hosts: now.hosts.map((h) => (h.alias === alias ? { ...h, ...change } : h)),
        },
      });
    };
    try {
      const saved = await api.saveBoard({ label: alias, spec: host.spec });
      finish({ savedBoardId: saved.id });
      await get().loadBoards();
    } catch (error) {
      finish({ problem: errorText(error) });
    }
  },

  closeImporter() {
    set({ importer: null });
  },

  async probeBoard(boardId) {
    if (get().probes[boardId]?.status === 'probing') return;
    set((s) => ({ probes: { ...s.probes, [boardId]: { status: 'probing', startedAt: Date.now() } } }));
    try {
      const result = await api.probeBoard({ boardId });
      set((s) => ({ probes: { ...s.probes, [boardId]: { status: 'done', result } } }));
      // The board answered: offer what a dead app left on it (left-runs-slice.ts).
      void get().loadLeftRuns(boardId);
    } catch (error) {
      set((s) => ({
        probes: { ...s.probes, [boardId]: { status: 'error', error: errorText(error), at: Date.now() } },
      }));
    }
  },
});
