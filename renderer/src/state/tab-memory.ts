// What this browser tab (or desktop window) remembers across a reload, in sessionStorage: the run
// form, the selected target, which target each run started here ran on, the screen (the view and
// the session open in the dashboard), the sessions picked for comparison and the KV calculator's
// form (with the GGUF header it read). A reload while a run goes on then shows the settings the
// run was started with, on the right target — not defaults; a reload while a recorded session is
// open shows that session again, not the newest run; a reload of a comparison compares the same
// sessions the same way. And the import its Import dialog had under way, which the reload stops.
import { KvTypeSchema } from '../../../shared/api/schemas';
import { ModelHeaderSchema } from '../../../shared/api/session-schemas';
import type { AppStore } from './store';
import { DEFAULT_KV_FORM } from './kv-slice';
import { COLLECTORS } from '../../../shared/collectors/registry';
import { DEFAULT_RUN_FORM, type RunForm } from './run-form';
import type { CompareAlign, KvForm, MainView, RememberedScreen, RunTarget } from './view-types';

const FORM_KEY = 'kvscope.runForm.v1';
const RUN_TARGETS_KEY = 'kvscope.runTargets.v1';
const SCREEN_KEY = 'kvscope.screen.v1';
const COMPARE_KEY = 'kvscope.compare.v1';
const KV_FORM_KEY = 'kvscope.kvForm.v1';
/** The GGUF header the KV calculator read, with the target and path it was read from. */
const KV_HEADER_KEY = 'kvscope.kvHeader.v1';
/** The key of the log import this tab's dialog has under way (see leftImport). */
const IMPORT_KEY = 'kvscope.importUnderWay.v1';
const VIEWS: ReadonlySet<string> = new Set<MainView>(['run', 'sessions', 'compare', 'kv']);
const ALIGNS: ReadonlySet<string> = new Set<CompareAlign>(['tokens', 'time']);
/** Runs whose target is remembered; older ones are forgotten (a tab seldom starts more). */
const MAX_REMEMBERED_RUNS = 50;

function readJson(storage: Storage, key: string): unknown {
  try {
    const text = storage.getItem(key);
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

function writeJson(storage: Storage, key: string, value: unknown): void {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the tab simply forgets.
  }
}

/** A remembered form, field by field: anything of the wrong type (an older version) keeps its default. */
function restoredFields<T extends object>(saved: unknown, defaults: T): T {
  if (!saved || typeof saved !== 'object') return defaults;
  const form: T = { ...defaults };
  for (const key of Object.keys(defaults) as Array<keyof T>) {
    const value = (saved as Record<string, unknown>)[key as string];
    if (typeof value === typeof defaults[key]) (form as Record<keyof T, unknown>)[key] = value;
  }
  return form;
}

export function restoredForm(saved: unknown): RunForm {
  const form = restoredFields(saved, DEFAULT_RUN_FORM);
  form.collectors = restoredCollectors(form.collectors);
  return form;
}

/** The remembered collector settings: entries of collectors this version knows, each well formed. */
function restoredCollectors(saved: unknown): RunForm['collectors'] {
  const out: RunForm['collectors'] = {};
  if (!saved || typeof saved !== 'object') return out;
  for (const def of COLLECTORS) {
    const entry: unknown = Object.hasOwn(saved, def.id) ? (saved as Record<string, unknown>)[def.id] : undefined;
    if (!entry || typeof entry !== 'object') continue;
    const { off, intervalMs } = entry as { off?: unknown; intervalMs?: unknown };
    out[def.id] = { off: off === true, intervalMs: typeof intervalMs === 'string' ? intervalMs : '' };
  }
  return out;
}

export function restoredKvForm(saved: unknown): KvForm {
  const form = restoredFields(saved, DEFAULT_KV_FORM);
  // The two choices among fixed values: one that is not (any more) among them keeps its default.
  if (!KvTypeSchema.safeParse(form.kvType).success) form.kvType = DEFAULT_KV_FORM.kvType;
  if (form.source !== 'gguf' && form.source !== 'manual') form.source = DEFAULT_KV_FORM.source;
  return form;
}

export function rememberedRunTargets(storage: Storage): Record<string, RunTarget> {
  const saved = readJson(storage, RUN_TARGETS_KEY);
  return saved && typeof saved === 'object' ? (saved as Record<string, RunTarget>) : {};
}

/** The screen this tab showed before a reload, or null (a new tab, or nothing readable). */
export function rememberedScreen(storage: Storage): RememberedScreen | null {
  const saved = readJson(storage, SCREEN_KEY) as { view?: unknown; sessionId?: unknown; runIndex?: unknown } | null;
  if (!saved || typeof saved.view !== 'string' || !VIEWS.has(saved.view)) return null;
  const screen: RememberedScreen = {
    view: saved.view as MainView,
    sessionId: typeof saved.sessionId === 'string' ? saved.sessionId : null,
  };
  if (screen.sessionId !== null && Number.isSafeInteger(saved.runIndex) && (saved.runIndex as number) >= 0)
    screen.runIndex = saved.runIndex as number;
  const compare = readJson(storage, COMPARE_KEY) as { ids?: unknown; align?: unknown; names?: unknown } | null;
  const ids = Array.isArray(compare?.ids) ? compare.ids.filter((id): id is string => typeof id === 'string') : [];
  const savedNames = typeof compare?.names === 'object' && compare.names !== null ? compare.names : {};
  const names = Object.fromEntries(
    ids.flatMap((id) => {
      const name: unknown = Object.hasOwn(savedNames, id) ? (savedNames as Record<string, unknown>)[id] : undefined;
      return typeof name === 'string' ? [[id, name]] : [];
    }),
  );
  if (ids.length > 0)
    screen.compare = {
      ids,
      align:
        typeof compare?.align === 'string' && ALIGNS.has(compare.align) ? (compare.align as CompareAlign) : 'tokens',
      names,
    };
  return screen;
}

/**
 * The key of an import this tab had under way when it was reloaded, taken out of the storage, or
 * null. A reload closes the Import dialog, and closing it stops its import (closeFileDialog): the
 * page that comes back cancels it (cancelImport), so it neither goes on unseen nor writes a session
 * later that a second import of the same log would duplicate.
 */
export function leftImport(storage: Storage): string | null {
  const key = readJson(storage, IMPORT_KEY);
  try {
    storage.removeItem(IMPORT_KEY);
  } catch {
    // Storage disabled: there was nothing to take.
  }
  return typeof key === 'string' ? key : null;
}

/**
 * The names of the picked sessions: as listed (a rename shows there first), else as loaded for the
 * comparison, else as remembered before (a pick not listed or loaded yet keeps the name it had).
 */
function pickedNames(state: ReturnType<AppStore['getState']>, saved: unknown): Record<string, string> {
  const before = (saved as { names?: unknown } | null)?.names;
  const remembered = typeof before === 'object' && before !== null ? (before as Record<string, unknown>) : {};
  const names: Record<string, string> = {};
  for (const id of state.compareIds) {
    const loaded = state.compared[id];
    const name =
      state.sessions.find((s) => s.id === id)?.name ??
      (loaded?.status === 'ready' ? loaded.name : undefined) ??
      (Object.hasOwn(remembered, id) && typeof remembered[id] === 'string' ? remembered[id] : undefined);
    if (name !== undefined) names[id] = name;
  }
  return names;
}

/**
 * Restores the form and selected target (call before the targets load: loadTargets keeps a
 * selection that still exists) and keeps them saved, with the screen as shown (read it with
 * rememberedScreen first: the start-up's own changes overwrite it); returns an unsubscribe.
 */
export function keepTabMemory(store: AppStore, storage: Storage): () => void {
  const saved = readJson(storage, FORM_KEY) as { form?: unknown; selectedBoardId?: unknown } | null;
  const savedKvForm = readJson(storage, KV_FORM_KEY);
  store.setState({ runTargets: rememberedRunTargets(storage) });
  if (savedKvForm) {
    const kvForm = restoredKvForm(savedKvForm);
    // The header read for this very file comes back with it (read again, it would reach the board).
    const read = readJson(storage, KV_HEADER_KEY) as { target?: unknown; path?: unknown; header?: unknown } | null;
    const header = ModelHeaderSchema.safeParse(read?.header);
    const sameFile = read?.target === kvForm.ggufTarget && read.path === kvForm.ggufPath.trim();
    store.setState({
      kvForm,
      ...(header.success && sameFile ? { kvHeader: { status: 'ready', header: header.data } } : {}),
    });
  }
  if (saved) {
    store.setState({
      form: restoredForm(saved.form),
      ...(typeof saved.selectedBoardId === 'string' ? { selectedBoardId: saved.selectedBoardId } : {}),
    });
  }
  let shown = rememberedScreen(storage);
  return store.subscribe((state, previous) => {
    if (state.form !== previous.form || state.selectedBoardId !== previous.selectedBoardId)
      writeJson(storage, FORM_KEY, { form: state.form, selectedBoardId: state.selectedBoardId });
    if (state.kvForm !== previous.kvForm) writeJson(storage, KV_FORM_KEY, state.kvForm);
    const importKey = state.fileDialog?.importKey;
    if (importKey !== previous.fileDialog?.importKey) {
      if (importKey) writeJson(storage, IMPORT_KEY, importKey);
      else leftImport(storage);
    }
    if (state.kvHeader !== previous.kvHeader && state.kvHeader.status === 'ready') {
      const { ggufTarget, ggufPath } = state.kvForm;
      writeJson(storage, KV_HEADER_KEY, { target: ggufTarget, path: ggufPath.trim(), header: state.kvHeader.header });
    }
    // With the picks' names, so a pick deleted elsewhere before a reload is named, not shown by its
    // id; written again when a name may have changed (a rename), while something is picked (the
    // start-up's empty picks never overwrite the remembered ones).
    const namesMayChange =
      state.compareIds.length > 0 && (state.sessions !== previous.sessions || state.compared !== previous.compared);
    if (state.compareIds !== previous.compareIds || state.compareAlign !== previous.compareAlign || namesMayChange)
      writeJson(storage, COMPARE_KEY, {
        ids: state.compareIds,
        align: state.compareAlign,
        names: pickedNames(state, readJson(storage, COMPARE_KEY)),
      });
    // The screen is mirrored as it is, not only when it changes: a start-up that showed something
    // else than what was remembered (a run going on won) must not leave the old session to come back.
    const sessionId = state.viewedSession?.id ?? null;
    // Another run than the last of a sweep session: which one.
    const picked = state.viewedRuns?.sessionId === sessionId ? state.viewedRuns : null;
    const runIndex = picked && picked.shown !== picked.runs.length - 1 ? picked.shown : undefined;
    if (state.view !== shown?.view || sessionId !== shown.sessionId || runIndex !== shown.runIndex) {
      shown = { view: state.view, sessionId, ...(runIndex !== undefined ? { runIndex } : {}) };
      writeJson(storage, SCREEN_KEY, shown);
    }
    // A run id appears once startRun is answered: the selected target is the one it runs on.
    const runId = state.run.runId;
    // ('stopping' without an id: Stop was pressed before the answer, live-run-slice.ts sends it then.)
    const startedHere = !previous.run.runId && (previous.run.phase === 'starting' || previous.run.phase === 'stopping');
    if (runId && runId !== previous.run.runId && startedHere && state.selectedBoardId) {
      const target = state.boards.find((t) => t.id === state.selectedBoardId);
      if (target) {
        const entries = Object.entries(rememberedRunTargets(storage)).slice(-(MAX_REMEMBERED_RUNS - 1));
        const runTargets = { ...Object.fromEntries(entries), [runId]: { targetId: target.id, label: target.label } };
        writeJson(storage, RUN_TARGETS_KEY, runTargets);
        store.setState({ runTargets });
      }
    }
  });
}
