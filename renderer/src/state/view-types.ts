// The shapes of the views' state (session library, comparison, KV calculator) — interfaces only,
// like types.ts, so the slices, the store and types.ts import them without cycles.
import type { MethodOutput } from '../../../shared/api/contract';
import type { PackedSamples, PackedSessionRun } from '../../../shared/api/packed-samples';
import type { KvType, SweepStatus } from '../../../shared/api/schemas';
import type { ExportFormat, ImportKind, ModelHeader, SessionListing } from '../../../shared/api/session-schemas';
import type { SessionData } from '../../../shared/report/session-data';
import type { TargetFacts } from '../../../shared/run/target-facts';

export type MainView = 'run' | 'sessions' | 'compare' | 'kv';

/** What a tab showed, kept across a reload (tab-memory.ts): the view, and the session in the dashboard. */
export interface RememberedScreen {
  view: MainView;
  /** The recorded session the dashboard showed, or null: the live run. */
  sessionId: string | null;
  /** Which of that session's runs, when it holds several (absent: the last). */
  runIndex?: number;
  /**
   * The sessions picked for comparison, how they were aligned, and their names when they were
   * picked (by id; to name a pick deleted before the reload). Absent: none picked.
   */
  compare?: { ids: string[]; align: CompareAlign; names: Record<string, string> };
}

export type RunSnapshot = MethodOutput<'getRun'>;

/** A recorded run (an opened session) in getRun's shape, its samples packed as openSession sent them. */
export type RecordedRunSnapshot = Omit<RunSnapshot, 'samples'> & {
  samples: PackedSamples;
  /** The board the run was made on (the run's facts, else its session's), null when the session has none. */
  target: TargetFacts | null;
};

export type CompareAlign = 'tokens' | 'time';

export type KvFormField = keyof KvForm;

export interface ExportState {
  sessionId: string;
  format: ExportFormat;
  status: 'working' | 'done' | 'error';
  message: string;
}

export interface SessionsSlice {
  view: MainView;
  /** The target each run started in this tab ran on (tab-memory.ts keeps it across reloads). */
  runTargets: Record<string, RunTarget>;
  sessions: SessionListing[];
  /** The session named by `kvscope web --open <file>`, shown when the window opens. */
  openOnStart: string | null;
  sessionsStatus: 'idle' | 'loading' | 'ready' | 'error';
  sessionsError: string | null;
  /** The recorded session shown in the dashboard (read-only), or null for the live run. */
  viewedSession: SessionListing | null;
  /**
   * The runs of the viewed session when it holds more than one (a context sweep): the dashboard
   * shows one at a time, `shown` the index (the last at first). Belongs to `sessionId` only.
   */
  viewedRuns: {
    sessionId: string;
    runs: PackedSessionRun[];
    shown: number;
    /** The session's target facts (a run without its own falls back to them). */
    target: TargetFacts | null;
    /** The sweep's result table, as the form shows it at the end of a sweep (null: no run has a context size). */
    sweep: Pick<SweepStatus, 'points' | 'result'> | null;
  } | null;
  /**
   * Set while the viewed session's runs are the previews openSession sent of them (a long run, its
   * extremes per slice of time: shared/api/packed-preview.ts); null once every sample is drawn.
   */
  viewedPreview: { sessionId: string } | null;
  /** True once showStartScreen has shown what the window opens with (ChartWarmup.tsx waits for it). */
  startScreenShown: boolean;
  /** The session waiting for "Delete" to be confirmed. */
  confirmDelete: SessionListing | null;
  /** The session whose name is being edited. */
  renaming: { id: string; name: string; error: string | null } | null;
  lastExport: ExportState | null;
  /** A session problem that belongs to no single row (opening failed…). */
  sessionActionError: string | null;
  setView: (view: MainView) => void;
  loadSessions: () => Promise<void>;
  /** Opens a session into the dashboard: its run `runIndex` (default: the last). */
  viewSession: (id: string, runIndex?: number) => Promise<void>;
  /** Shows another run of the viewed session (viewedRuns). */
  showViewedRun: (index: number) => void;
  /**
   * What the window shows when it opens: after a reload, what this tab showed (its view, the
   * session it had open); in a new tab the session `kvscope web --open` named; else the newest
   * run. A run going on wins over a session, as a run started here replaces it.
   */
  showStartScreen: (remembered: RememberedScreen | null) => Promise<void>;
  /** Closes the recorded session: the dashboard shows the app's newest run again (none if there is none). */
  leaveSession: () => void;
  startRename: (id: string) => void;
  setRenameText: (name: string) => void;
  commitRename: () => Promise<void>;
  cancelRename: () => void;
  askDelete: (id: string) => void;
  cancelDelete: () => void;
  confirmDeleteSession: () => Promise<void>;
  exportSession: (id: string, format: ExportFormat) => Promise<void>;
  /** The Sessions view's "Open file" or "Import log" dialog while it is open. */
  fileDialog: FileDialogState | null;
  openFileDialog: (mode: FileDialogState['mode']) => void;
  closeFileDialog: () => void;
  /**
   * Lists a session file (mode open) or imports a board log into a new session (mode import), then
   * shows that session in the dashboard; a refusal stays in the dialog, next to the path.
   */
  submitFileDialog: (input: { path: string; kind?: ImportKind; intervalMs?: number }) => Promise<void>;
  /** The refusal goes once the file or the log kind it was about is changed (it said nothing of the new one). */
  clearFileDialogError: () => void;
  /** The desktop app's open dialog for the file dialog's path: the path chosen, null when cancelled or refused. */
  browseForFile: () => Promise<string | null>;
}

export interface FileDialogState {
  mode: 'open' | 'import';
  working: boolean;
  error: string | null;
  /** The import under way's key: closing the dialog stops it (cancelImport). */
  importKey?: string;
}

export type LoadedSession =
  { status: 'loading' } | { status: 'ready'; name: string; data: SessionData } | { status: 'error'; error: string };

export interface CompareSlice {
  compareIds: string[];
  compareAlign: CompareAlign;
  compared: Record<string, LoadedSession>;
  toggleCompare: (id: string) => void;
  setCompareAlign: (align: CompareAlign) => void;
  /** Put a picked session first: the reference of the delta table. */
  makeReference: (id: string) => void;
  /** Starts a comparison of these sessions and shows the comparison view. */
  compareSessions: (ids: string[]) => void;
  /** Picks these sessions again, aligned so, without changing the view (a reload: tab-memory.ts). */
  restoreCompare: (ids: string[], align: CompareAlign) => void;
  /** Drops sessions that are gone (deleted here or in another tab) from the picks and the loaded comparison. */
  forgetCompared: (ids: readonly string[]) => void;
  /**
   * Names of picked sessions that left the sessions folder behind the app (deleted in another
   * tab, moved on disk) and so left the comparison: the view says so. A new pick clears it.
   */
  compareVanished: string[];
  /** forgetCompared for sessions the list no longer shows, noting their names for the view. */
  dropVanishedPicks: (ids: readonly string[], names: ReadonlyMap<string, string>) => void;
}

export interface KvForm {
  source: 'gguf' | 'manual';
  /** 'local' (this computer) or a saved board's id. */
  ggufTarget: string;
  ggufPath: string;
  layers: string;
  kvHeads: string;
  headDimK: string;
  /** Empty: same as headDimK. */
  headDimV: string;
  kvType: KvType;
  ctx: string;
  /** Empty: no window (every layer keeps the whole context), unless the model has one. */
  window: string;
  nSeq: string;
  budget: string;
  /** A board preset whose RAM is the budget; '' = the budget as typed. */
  presetId: string;
}

export type KvHeaderState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; header: ModelHeader }
  | { status: 'error'; error: string };

/** The header of the run form's GGUF (engine command runs), read on the selected target. */
export type RunGgufHeader = { path: string; targetId: string } & (
  { status: 'loading' } | { status: 'ready'; summary: string } | { status: 'error'; error: string }
);

export interface KvSlice {
  kvForm: KvForm;
  kvHeader: KvHeaderState;
  runGgufHeader: RunGgufHeader | null;
  setKvField: <K extends KvFormField>(field: K, value: KvForm[K]) => void;
  readKvHeader: () => Promise<void>;
  readRunGgufHeader: () => Promise<void>;
}

export interface RunTarget {
  targetId: string;
  label: string;
}
