// The KV calculator's inputs as the user types them: where the model's shape comes from (a GGUF
// on this computer or a board, read by the main side: readModelHeader; or a shape typed by hand),
// the KV type, context, window, parallel sequences and a memory budget (typed, or a board
// preset's RAM from shared/analysis/presets.ts). The numbers are computed from these by
// ui/kv-calculator/kv-calculation.ts with shared/kv/kv-theory.ts.
import type { KvType } from '../../../shared/api/schemas';
import type { ModelHeader } from '../../../shared/api/session-schemas';
import { kvBytesPerToken } from '../../../shared/kv/kv-theory';
import { formatBytesPerToken, formatCount } from '../../../shared/format/units';
import { errorText } from './slices';
import type { SliceCreator } from './types';
import type { KvForm, KvSlice } from './view-types';

export type { KvForm, KvFormField, KvHeaderState } from './view-types';

/** A Llama-3.2-1B-like shape, as the run form's demo (16 layers, 8 KV heads, head dim 64, f16). */
export const DEFAULT_KV_FORM: KvForm = {
  source: 'manual',
  ggufTarget: 'local',
  ggufPath: '',
  layers: '16',
  kvHeads: '8',
  headDimK: '64',
  headDimV: '',
  kvType: 'f16',
  ctx: '4096',
  window: '',
  nSeq: '1',
  budget: '2 GiB',
  presetId: '',
};

/** One line about a model for the run form: what it is and what its KV cache costs per token. */
export function describeModelHeader(header: ModelHeader, kvType: KvType): string {
  const m = header.summary;
  const heads = Array.isArray(m.nHeadKv) ? `${Math.min(...m.nHeadKv)}–${Math.max(...m.nHeadKv)}` : String(m.nHeadKv);
  let perToken: string;
  try {
    perToken = `${formatBytesPerToken(kvBytesPerToken({ ...header.shape, typeK: kvType, typeV: kvType }))} at ${kvType}`;
  } catch (error) {
    perToken = `${kvType} is not possible: ${(error as Error).message}`;
  }
  return [
    `${m.name ?? header.path.split('/').pop() ?? header.path} (${m.architecture})`,
    `${m.nLayer} layers × ${heads} KV heads × head dim ${m.headDimK}/${m.headDimV}`,
    m.nCtxTrain ? `trained context ${formatCount(m.nCtxTrain)}` : null,
    m.slidingWindow ? `sliding window ${formatCount(m.slidingWindow)} on ${m.swaLayers} layers` : null,
    perToken,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Both forms name the same GGUF file: the same target and path (surrounding spaces aside). */
function sameGgufFile(a: KvForm, b: KvForm): boolean {
  return a.ggufTarget === b.ggufTarget && a.ggufPath.trim() === b.ggufPath.trim();
}

export const createKvSlice: SliceCreator<KvSlice> = (set, get, { api }) => ({
  kvForm: DEFAULT_KV_FORM,
  kvHeader: { status: 'idle' },
  runGgufHeader: null,

  setKvField(field, value) {
    set((s) => {
      const kvForm = { ...s.kvForm, [field]: value };
      // The header read (or its error) is of the file named when Read header was pressed: another
      // path or target leaves it, so the numbers never stand beside a path they were not read from.
      return sameGgufFile(kvForm, s.kvForm) ? { kvForm } : { kvForm, kvHeader: { status: 'idle' } };
    });
  },

  async readKvHeader() {
    const { ggufTarget, ggufPath } = get().kvForm;
    if (ggufPath.trim() === '') {
      set({ kvHeader: { status: 'error', error: 'type the path of a .gguf file first' } });
      return;
    }
    const asked = get().kvForm;
    set({ kvHeader: { status: 'loading' } });
    // An answer for a file the form no longer names (the path was changed meanwhile) is dropped.
    const stillAsked = () => get().kvHeader.status === 'loading' && sameGgufFile(get().kvForm, asked);
    try {
      const header = await api.readModelHeader({ boardId: ggufTarget, path: ggufPath.trim() });
      if (stillAsked()) set({ kvHeader: { status: 'ready', header } });
    } catch (error) {
      if (stillAsked()) set({ kvHeader: { status: 'error', error: errorText(error) } });
    }
  },

  async readRunGgufHeader() {
    const { form, selectedBoardId } = get();
    const path = form.gguf.trim();
    if (!path || !selectedBoardId) return;
    const at = { path, targetId: selectedBoardId };
    set({ runGgufHeader: { ...at, status: 'loading' } });
    try {
      const header = await api.readModelHeader({ boardId: selectedBoardId, path });
      set({
        runGgufHeader: { ...at, status: 'ready', summary: describeModelHeader(header, form.commandKvType || 'f16') },
      });
    } catch (error) {
      set({ runGgufHeader: { ...at, status: 'error', error: `Could not read the header: ${errorText(error)}` } });
    }
  },
});
