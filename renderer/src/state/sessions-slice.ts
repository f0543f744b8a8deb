// Which view the main column shows (the run dashboard, the session library, a comparison, the KV
// calculator) and the session library: every run started from the app is recorded by the main
// side (electron/node/session/session-library.ts); here they are listed, opened into the same
// dashboard (read-only), renamed, deleted after a confirmation, and exported. In the desktop app
// an export goes through the system's save dialog; in browser mode it arrives as a download.
import { STORED_PREVIEW_BUCKETS } from '../../../shared/api/packed-preview';
import { unpackSessionData, type PackedSessionData, type PackedSessionRun } from '../../../shared/api/packed-samples';
import type { SweepStatus } from '../../../shared/api/schemas';
import { sweepPointRow, sweepResultRow } from '../../../shared/api/sweep-rows';
import { sessionSweep } from '../../../shared/report/session-data';
import { LocalFilePathSchema, SessionNameSchema, type ExportedFile } from '../../../shared/api/session-schemas';
import { isActivePhase } from './live-run-slice';
import { errorText } from './slices';
import type { TargetFacts } from '../../../shared/run/target-facts';
import type { SliceCreator } from './types';
import type { FileDialogState, RecordedRunSnapshot, SessionsSlice } from './view-types';

export type { MainView } from './view-types';

/** `v` when it is a positive number, else null. */
function positiveOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

/** A stored run in the shape of getRun's answer, so the dashboard shows it like a live run (samples kept packed). */
export function snapshotOfStoredRun(
  run: PackedSessionRun,
  sessionTarget: TargetFacts | null = null,
): RecordedRunSnapshot {
  const exit = [...run.events].reverse().find((e) => e.kind === 'exit');
  const code = exit && typeof exit.data?.code === 'number' ? exit.data.code : null;
  return {
    status: {
      runId: run.id,
      state: run.state === 'done' || run.state === 'failed' ? run.state : 'done',
      label: run.label,
      ...(run.error ? { error: run.error } : {}),
      engineExitCode: run.outcome?.exitCode ?? code,
    },
    samples: run.samples,
    events: run.events,
    analysis: run.analysis,
    theory: {
      bytesPerToken: run.analysisInputs?.theoryBytesPerToken ?? run.engine?.theoryBytesPerToken ?? null,
      ctx: run.analysisInputs?.ctx ?? run.engine?.ctx ?? null,
      // A session file is untrusted: its model facts are taken only when they are what they say.
      trainedCtx: positiveOrNull(run.engine?.model?.nCtxTrain),
    },
    target: run.target ?? sessionTarget,
  };
}

/** A recorded sweep's points and fit, as the app showed them when the sweep ended (SweepProgress.tsx). */
function sweepTableOf(data: PackedSessionData): Pick<SweepStatus, 'points' | 'result'> | null {
  const sweep = sessionSweep(unpackSessionData(data));
  return sweep ? { points: sweep.summary.points.map(sweepPointRow), result: sweepResultRow(sweep.summary) } : null;
}

/** Hands an exported file to the user: a download in the browser. Returns what to say. */
export function deliverExport(file: ExportedFile, doc: Document = document): string {
  if (file.delivery === 'cancelled') return 'Export cancelled.';
  if (file.delivery === 'saved') return `Saved ${file.savedPath ?? file.fileName}.`;
  const bytes = file.encoding === 'base64' ? Uint8Array.from(atob(file.content), (c) => c.charCodeAt(0)) : file.content;
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mimeType }));
  const link = doc.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return `Downloaded ${file.fileName}.`;
}

export const createSessionsSlice: SliceCreator<SessionsSlice> = (set, get, { api }) => {
  /**
   * After a preview is drawn: every sample of the session, drawn in its place on the run on show
   * (the same time window and cursor), unless the user has moved on meanwhile (another session,
   * another run of the sweep shown again, the session left, a run started).
   */
  const completeViewedSession = async (sessionId: string) => {
    const asked = get().viewedPreview;
    try {
      const { data } = await api.openSession({ id: sessionId });
      const { viewedPreview, viewedRuns, viewedSession } = get();
      if (viewedPreview !== asked || viewedSession?.id !== sessionId) return;
      const shown = viewedRuns?.sessionId === sessionId ? viewedRuns.shown : data.runs.length - 1;
      const run = data.runs[shown];
      if (run && !get().replaceRecordedSamples(run.id, run.samples)) return;
      set({
        viewedPreview: null,
        viewedRuns:
          viewedRuns?.sessionId === sessionId
            ? { ...viewedRuns, runs: data.runs, sweep: sweepTableOf(data) }
            : viewedRuns,
      });
    } catch (error) {
      if (get().viewedPreview === asked)
        set({
          sessionActionError: `Only a preview of this session is drawn: reading all of its samples failed: ${errorText(error)}`,
        });
    }
  };

  return {
    view: 'run',
    runTargets: {},
    sessions: [],
    openOnStart: null,
    sessionsStatus: 'idle',
    sessionsError: null,
    viewedSession: null,
    viewedRuns: null,
    viewedPreview: null,
    startScreenShown: false,
    confirmDelete: null,
    renaming: null,
    lastExport: null,
    sessionActionError: null,

    setView(view) {
      set({ view });
      if (view === 'sessions' || view === 'compare') void get().loadSessions();
    },

    async loadSessions() {
      set({ sessionsStatus: 'loading', sessionsError: null });
      try {
        const { sessions, openOnStart } = await api.listSessions({});
        const before = new Map(get().sessions.map((s) => [s.id, s.name]));
        const viewed = get().viewedSession;
        set({
          sessions,
          openOnStart,
          sessionsStatus: 'ready',
          viewedSession: viewed ? (sessions.find((s) => s.id === viewed.id) ?? viewed) : null,
        });
        // Picks of sessions deleted in another tab (or moved on disk) go too, and the comparison says so.
        const listed = new Set(sessions.map((s) => s.id));
        get().dropVanishedPicks(
          get().compareIds.filter((id) => !listed.has(id)),
          before,
        );
      } catch (error) {
        set({ sessionsStatus: 'error', sessionsError: errorText(error) });
      }
    },

    async viewSession(id, runIndex) {
      set({ sessionActionError: null });
      try {
        const { listing, data, preview } = await api.openSession({ id, previewBuckets: STORED_PREVIEW_BUCKETS });
        const last = data.runs.length - 1;
        const shown = runIndex !== undefined && runIndex >= 0 && runIndex < last ? runIndex : last;
        const run = data.runs[shown];
        if (!run) {
          set({ sessionActionError: `“${listing.name}” holds no run to show.` });
          return;
        }
        if (!get().showRecordedRun(snapshotOfStoredRun(run, data.meta.target))) {
          set({ sessionActionError: 'A run is going: stop it before opening a recorded session.' });
          return;
        }
        set({
          viewedSession: listing,
          // A sweep's other points stay at hand (RunHeader.tsx offers them); one run: nothing to keep.
          viewedRuns:
            data.runs.length > 1
              ? { sessionId: listing.id, runs: data.runs, shown, sweep: sweepTableOf(data), target: data.meta.target }
              : null,
          viewedPreview: preview ? { sessionId: listing.id } : null,
          view: 'run',
        });
        if (preview) void completeViewedSession(listing.id);
      } catch (error) {
        set({ sessionActionError: `Could not open the session: ${errorText(error)}` });
        // Its file may have been deleted, damaged or replaced behind the app's back since the list was
        // read: the list is read again, so the row shows what is there now (gone, or "cannot be
        // read") instead of the old numbers and an Open that fails again. Rename and export alike.
        void get().loadSessions();
      }
    },

    showViewedRun(index) {
      const { viewedRuns, viewedSession } = get();
      const run = viewedRuns?.runs[index];
      if (!viewedRuns || !run || viewedSession?.id !== viewedRuns.sessionId || index === viewedRuns.shown) return;
      if (get().showRecordedRun(snapshotOfStoredRun(run, viewedRuns.target)))
        set({ viewedRuns: { ...viewedRuns, shown: index } });
    },

    async showStartScreen(remembered) {
      try {
        await get().loadSessions();
        const { openOnStart, sessions } = get();
        // The comparison picks again, less sessions deleted since (in another tab); kept for a later
        // reload when the list could not be read.
        const compare = remembered?.compare;
        const stillThere = compare?.ids.filter((id) => sessions.some((s) => s.id === id)) ?? [];
        if (compare && get().sessionsStatus === 'ready' && stillThere.length > 0)
          get().restoreCompare(stillThere, compare.align);
        // The others are said by the names they had when picked (never by their ids); one whose name
        // was not remembered is left out of the note rather than shown as an id.
        const gone = compare?.ids.filter((id) => !stillThere.includes(id)) ?? [];
        const named = compare?.names ?? {};
        const goneNames = gone.flatMap((id) => (Object.hasOwn(named, id) ? [named[id] as string] : []));
        if (get().sessionsStatus === 'ready' && goneNames.length > 0) set({ compareVanished: goneNames });
        const sessionId = remembered ? remembered.sessionId : openOnStart;
        let shown = false;
        let unreadable = false;
        if (sessionId !== null && sessions.some((s) => s.id === sessionId)) {
          const runs = await api.listRuns({}).catch(() => []);
          if (!runs.some((r) => isActivePhase(r.state))) {
            await get().viewSession(sessionId, remembered?.sessionId === sessionId ? remembered.runIndex : undefined);
            shown = get().viewedSession?.id === sessionId;
            unreadable = !shown && get().sessionActionError !== null;
          }
        }
        if (!shown) await get().resumeLatestRun();
        if (remembered && remembered.view !== get().view) get().setView(remembered.view);
        // The session asked for (`kvscope web --open <file>`, or the one open before a reload) could
        // not be read: the Sessions view says why and shows its row, instead of a dashboard that
        // says nothing of the file the user asked for.
        if (unreadable && get().view === 'run') get().setView('sessions');
      } finally {
        set({ startScreenShown: true });
      }
    },

    leaveSession() {
      set({ viewedSession: null, viewedRuns: null, viewedPreview: null });
      // Its run leaves the dashboard with it: the newest run of the app is shown instead, or none.
      if (get().clearRecordedRun()) void get().resumeLatestRun();
    },

    startRename(id) {
      const session = get().sessions.find((s) => s.id === id);
      if (session) set({ renaming: { id, name: session.name, error: null } });
    },
    setRenameText(name) {
      const renaming = get().renaming;
      if (renaming) set({ renaming: { ...renaming, name, error: null } });
    },
    cancelRename() {
      set({ renaming: null });
    },
    async commitRename() {
      const renaming = get().renaming;
      if (!renaming) return;
      // The contract's own check, so its limits read as the field's words, not as an API error.
      const checked = SessionNameSchema.safeParse(renaming.name);
      if (!checked.success) {
        set({ renaming: { ...renaming, error: checked.error.issues[0]?.message ?? 'not a valid name' } });
        return;
      }
      try {
        const listing = await api.renameSession({ id: renaming.id, name: renaming.name });
        set((s) => ({
          renaming: null,
          sessions: s.sessions.map((x) => (x.id === listing.id ? listing : x)),
          viewedSession: s.viewedSession?.id === listing.id ? listing : s.viewedSession,
        }));
      } catch (error) {
        set({ renaming: { ...renaming, error: errorText(error) } });
        void get().loadSessions();
      }
    },

    askDelete(id) {
      set({ confirmDelete: get().sessions.find((s) => s.id === id) ?? null });
    },
    cancelDelete() {
      set({ confirmDelete: null });
    },
    async confirmDeleteSession() {
      const target = get().confirmDelete;
      if (!target) return;
      set({ confirmDelete: null, sessionActionError: null });
      try {
        await api.deleteSession({ id: target.id });
        set((s) => ({ sessions: s.sessions.filter((x) => x.id !== target.id) }));
        get().forgetCompared([target.id]);
        // The deleted session was on the dashboard: it goes, as when closed. So does the app's run
        // it recorded (a session's id is its first run's), shown as the newest run and not opened.
        if (get().viewedSession?.id === target.id) get().leaveSession();
        else if (get().run.runId === target.id && get().clearRecordedRun()) void get().resumeLatestRun();
      } catch (error) {
        set({ sessionActionError: `Could not delete “${target.name}”: ${errorText(error)}` });
      }
      void get().loadSessions();
    },

    async exportSession(id, format) {
      set({ lastExport: { sessionId: id, format, status: 'working', message: `Exporting ${format.toUpperCase()}…` } });
      try {
        const file = await api.exportSession({ id, format });
        set({ lastExport: { sessionId: id, format, status: 'done', message: deliverExport(file) } });
      } catch (error) {
        set({ lastExport: { sessionId: id, format, status: 'error', message: `Export failed: ${errorText(error)}` } });
        void get().loadSessions();
      }
    },

    fileDialog: null,
    openFileDialog(mode) {
      set({ fileDialog: { mode, working: false, error: null } });
    },
    closeFileDialog() {
      const importKey = get().fileDialog?.importKey;
      set({ fileDialog: null });
      // Closed while it imports: the import stops and writes nothing (it may have answered already).
      if (importKey) void api.cancelImport({ importKey }).catch(() => undefined);
    },
    clearFileDialogError() {
      const dialog = get().fileDialog;
      if (dialog && !dialog.working && dialog.error !== null) set({ fileDialog: { ...dialog, error: null } });
    },
    async browseForFile() {
      const dialog = get().fileDialog;
      if (!dialog) return null;
      try {
        const { path } = await api.pickLocalFile({ purpose: dialog.mode === 'open' ? 'session' : 'log' });
        return path;
      } catch (error) {
        if (get().fileDialog) set({ fileDialog: { ...dialog, error: errorText(error) } });
        return null;
      }
    },
    async submitFileDialog({ path, kind, intervalMs }) {
      const dialog = get().fileDialog;
      if (!dialog || dialog.working) return;
      // Said on the field in the field's words, before any request (the API would refuse it with its method's name).
      const checked = LocalFilePathSchema.safeParse(path);
      if (!checked.success) {
        set({ fileDialog: { ...dialog, error: checked.error.issues[0]?.message ?? 'not a path' } });
        return;
      }
      const importKey = dialog.mode === 'import' ? crypto.randomUUID() : undefined;
      const working: FileDialogState = { ...dialog, working: true, error: null, ...(importKey ? { importKey } : {}) };
      set({ fileDialog: working });
      try {
        const listing =
          dialog.mode === 'open'
            ? await api.addSessionFile({ path: checked.data })
            : (
                await api.importSessionLog({
                  kind: kind ?? 'tegrastats',
                  path: checked.data,
                  ...(intervalMs !== undefined ? { intervalMs } : {}),
                  ...(importKey ? { importKey } : {}),
                })
              ).listing;
        // Cancelled as it answered (an Open, or an import that had finished): listed, but the view
        // stays, and a dialog opened since is left alone.
        const stillWanted = get().fileDialog === working;
        if (stillWanted) set({ fileDialog: null });
        await get().loadSessions();
        if (stillWanted) await get().viewSession(listing.id);
      } catch (error) {
        // Closed meanwhile (Cancel while it worked): nothing to say it in; nor in a dialog opened since.
        if (get().fileDialog === working) set({ fileDialog: { ...dialog, working: false, error: errorText(error) } });
      }
    },
  };
};
