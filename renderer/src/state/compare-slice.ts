// Comparing two or more recorded sessions (f16 vs q8_0 KV, fan vs no fan, board A vs board B):
// which sessions are picked, in what order (the first is the reference every delta is taken
// against), how the curves are aligned, and the sessions' content as openSession returned it.
// The numbers of the delta table come from shared/report/compare-model.ts (as `kvscope compare`).
import { unpackSessionData } from '../../../shared/api/packed-samples';
import { errorText } from './slices';
import type { SliceCreator } from './types';
import type { CompareSlice } from './view-types';

export type { CompareAlign, LoadedSession } from './view-types';

/** More curves than this on one chart stop being readable; the picker says so. */
export const MAX_COMPARED_SESSIONS = 6;

export const createCompareSlice: SliceCreator<CompareSlice> = (set, get, { api }) => {
  const load = async (id: string, fresh = false) => {
    if (!fresh && get().compared[id]?.status === 'ready') return;
    set((s) => ({ compared: { ...s.compared, [id]: { status: 'loading' } } }));
    try {
      const { listing, data } = await api.openSession({ id });
      const session = unpackSessionData(data);
      set((s) => ({ compared: { ...s.compared, [id]: { status: 'ready', name: listing.name, data: session } } }));
    } catch (error) {
      set((s) => ({ compared: { ...s.compared, [id]: { status: 'error', error: errorText(error) } } }));
    }
  };

  return {
    compareIds: [],
    compareAlign: 'tokens',
    compared: {},
    compareVanished: [],

    toggleCompare(id) {
      const ids = get().compareIds;
      if (ids.includes(id)) {
        set({ compareIds: ids.filter((x) => x !== id), compareVanished: [] });
        return;
      }
      if (ids.length >= MAX_COMPARED_SESSIONS) return;
      set({ compareIds: [...ids, id], compareVanished: [] });
      void load(id);
    },

    setCompareAlign(align) {
      set({ compareAlign: align });
    },

    makeReference(id) {
      const ids = get().compareIds;
      if (ids.includes(id)) set({ compareIds: [id, ...ids.filter((x) => x !== id)] });
    },

    compareSessions(ids) {
      const picked = ids.slice(0, MAX_COMPARED_SESSIONS);
      set({ compareIds: picked, view: 'compare', compareVanished: [] });
      // Fresh copies: a session may have been renamed or still been recording when last read.
      for (const id of picked) void load(id, true);
    },

    forgetCompared(ids) {
      const gone = new Set(ids.filter((id) => id in get().compared || get().compareIds.includes(id)));
      if (gone.size === 0) return;
      set((s) => ({
        compareIds: s.compareIds.filter((id) => !gone.has(id)),
        compared: Object.fromEntries(Object.entries(s.compared).filter(([id]) => !gone.has(id))),
      }));
    },

    dropVanishedPicks(ids, names) {
      const gone = ids.filter((id) => get().compareIds.includes(id));
      if (gone.length === 0) return;
      const named = gone.map((id) => {
        const loaded = get().compared[id];
        return loaded?.status === 'ready' ? loaded.name : (names.get(id) ?? id);
      });
      get().forgetCompared(gone);
      set((s) => ({ compareVanished: [...s.compareVanished, ...named] }));
    },

    restoreCompare(ids, align) {
      const picked = [...new Set(ids)].slice(0, MAX_COMPARED_SESSIONS);
      set({ compareIds: picked, compareAlign: align });
      for (const id of picked) void load(id);
    },
  };
};
