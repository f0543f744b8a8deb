// Runs an app that died left on a board (electron/node/run/run-recovery.ts): listed after each
// successful probe of the board, offered with their age, recovered into a session of the library
// (which then lists it) or discarded after a confirmation. A run that still runs there with no
// window of this app following it (kept running by an app that closed since) is listed too, to
// stop after a confirmation: it is then one to recover.
import { errorText } from './slices';
import type { LeftRunsSlice, LeftRunsState, SliceCreator } from './types';

const EMPTY: LeftRunsState = { status: 'ready', runs: [], listedAtMs: 0, busyDir: null, error: null, notice: null };

export const createLeftRunsSlice: SliceCreator<LeftRunsSlice> = (set, get, { api }) => {
  const patch = (boardId: string, change: Partial<LeftRunsState>) =>
    set((s) => ({ leftRuns: { ...s.leftRuns, [boardId]: { ...(s.leftRuns[boardId] ?? EMPTY), ...change } } }));
  const without = (boardId: string, dir: string) => (get().leftRuns[boardId]?.runs ?? []).filter((r) => r.dir !== dir);
  return {
    leftRuns: {},
    confirmDiscard: null,
    confirmStopLeftRun: null,

    async loadLeftRuns(boardId) {
      patch(boardId, { status: 'loading', error: null });
      try {
        const runs = await api.listLeftRuns({ boardId });
        patch(boardId, { status: 'ready', runs, listedAtMs: Date.now() });
      } catch (error) {
        patch(boardId, { status: 'error', error: errorText(error) });
      }
    },

    async recoverLeftRun(boardId, dir) {
      patch(boardId, { busyDir: dir, error: null, notice: null });
      try {
        const recovered = await api.recoverLeftRun({ boardId, dir });
        patch(boardId, {
          busyDir: null,
          runs: without(boardId, dir),
          notice:
            `Recovered "${recovered.label}" (${recovered.samples} samples) into the session list.` +
            (recovered.previousSessionId
              ? ` The app's own recording of it, cut where the app stopped, is kept as ${recovered.previousSessionId}.`
              : ''),
        });
        await get().loadSessions();
      } catch (error) {
        patch(boardId, { busyDir: null, error: errorText(error) });
      }
    },

    askDiscardLeftRun(boardId, dir) {
      const run = get().leftRuns[boardId]?.runs.find((r) => r.dir === dir);
      if (run) set({ confirmDiscard: { boardId, run } });
    },

    cancelDiscardLeftRun() {
      set({ confirmDiscard: null });
    },

    async discardLeftRun() {
      const pending = get().confirmDiscard;
      if (!pending) return;
      const { boardId, run } = pending;
      set({ confirmDiscard: null });
      patch(boardId, { busyDir: run.dir, error: null, notice: null });
      try {
        await api.discardLeftRun({ boardId, dir: run.dir });
        patch(boardId, { busyDir: null, runs: without(boardId, run.dir), notice: `Discarded ${run.dir}.` });
      } catch (error) {
        patch(boardId, { busyDir: null, error: errorText(error) });
      }
    },

    askStopLeftRun(boardId, dir) {
      const run = get().leftRuns[boardId]?.runs.find((r) => r.dir === dir && r.running);
      if (run) set({ confirmStopLeftRun: { boardId, run } });
    },

    cancelStopLeftRun() {
      set({ confirmStopLeftRun: null });
    },

    async stopLeftRun() {
      const pending = get().confirmStopLeftRun;
      if (!pending) return;
      const { boardId, run } = pending;
      set({ confirmStopLeftRun: null });
      patch(boardId, { busyDir: run.dir, error: null, notice: null });
      try {
        await api.stopLeftRun({ boardId, dir: run.dir });
        const runs = await api.listLeftRuns({ boardId });
        patch(boardId, {
          busyDir: null,
          runs,
          listedAtMs: Date.now(),
          notice: `Stopped "${run.label ?? run.dir}" on the board: its run has ended, and Recover makes a session of it.`,
        });
      } catch (error) {
        patch(boardId, { busyDir: null, error: errorText(error) });
      }
    },
  };
};
