// The shape of the app store: every slice's state and actions, and what slices are made from.
// Interfaces only, so slice implementations and the store can import them without cycles.
import type { TargetFacts } from '../../../shared/run/target-facts';
import type { ApiEventName, EventPayload, KvScopeApi, MethodOutput } from '../../../shared/api/contract';
import type { PackedSamples } from '../../../shared/api/packed-samples';
import type {
  PendingPrompt,
  RunAnalysis,
  RunEvent,
  RunState,
  RunStatus,
  SecretStorageStatus,
  SshConfigHost,
  SweepStatus,
  BoardInfo,
} from '../../../shared/api/schemas';
import type { BoardDraft, BoardErrors } from './board-form';
import type { DashboardSlice } from './dashboard-types';
import type { ConnectionState } from '../api/ws-client';
import type { ChartSeries } from '../live/chart-series';
import type { MemoryRing } from '../live/ring-buffer';
import type { SeriesReadout } from '../live/series-readouts';
import type { RunForm, RunFormErrors } from './run-form';
import type { CompareSlice, KvSlice, RecordedRunSnapshot, SessionsSlice } from './view-types';
import type { LeftRun } from '../../../shared/api/session-schemas';

export interface StoreDeps {
  api: KvScopeApi;
  ring: MemoryRing;
  maxPointsPerSeries?: number;
}

export interface AppSlice {
  connection: ConnectionState;
  appInfo: MethodOutput<'appInfo'> | null;
  setConnection: (state: ConnectionState) => void;
  loadAppInfo: () => Promise<void>;
}

/** This computer and the saved boards, and which one a run goes to. */
export interface BoardListSlice {
  boards: BoardInfo[];
  boardsStatus: 'idle' | 'loading' | 'ready' | 'error';
  boardsError: string | null;
  selectedBoardId: string | null;
  loadBoards: () => Promise<void>;
  selectBoard: (id: string) => void;
}

export type ProbeOutcome = MethodOutput<'probeBoard'>;

export type ProbeState =
  | { status: 'probing'; startedAt: number }
  | { status: 'done'; result: ProbeOutcome }
  | { status: 'error'; error: string; at: number };

export interface BoardEditor {
  mode: 'add' | 'edit';
  /** The saved board being edited (mode edit). */
  id: string | null;
  draft: BoardDraft;
  errors: BoardErrors;
  saving: boolean;
}

export interface SshConfigImporter {
  status: 'loading' | 'ready' | 'error';
  path: string | null;
  found: boolean;
  hosts: SshConfigHost[];
  error: string | null;
  /** Aliases being saved right now. */
  adding: string[];
}

/** Saved boards: add, edit, remove, import from ~/.ssh/config, test & probe. */
export interface BoardsSlice {
  editor: BoardEditor | null;
  importer: SshConfigImporter | null;
  /** Last probe per board id. */
  probes: Record<string, ProbeState>;
  openEditor: (boardId?: string) => void;
  setBoardField: <K extends keyof BoardDraft>(field: K, value: BoardDraft[K]) => void;
  saveBoard: () => Promise<boolean>;
  closeEditor: () => void;
  removeBoard: (boardId: string) => Promise<void>;
  forgetSecrets: (boardId: string) => Promise<void>;
  openImporter: () => Promise<void>;
  importHost: (alias: string) => Promise<void>;
  closeImporter: () => void;
  probeBoard: (boardId: string) => Promise<void>;
}

/** Questions a connection asks (host key, password, passphrase), answered in dialogs. */
export interface PromptsSlice {
  /** Open prompts, oldest first; the dialog shows the first. */
  prompts: PendingPrompt[];
  secretStorage: SecretStorageStatus | null;
  /** Why the last answer could not be delivered (the prompt had closed meanwhile). */
  promptError: string | null;
  loadPrompts: () => Promise<void>;
  loadSecretStorage: () => Promise<void>;
  handlePromptEvent: (event: 'hostKeyPrompt' | 'credentialPrompt' | 'promptClosed', payload: unknown) => void;
  answerHostKey: (requestId: string, accept: boolean) => Promise<void>;
  answerCredential: (requestId: string, value: string | null, remember: boolean) => Promise<void>;
}

export interface RunFormSlice {
  form: RunForm;
  formErrors: RunFormErrors;
  /**
   * How many times Start was refused for the form's errors (the button or its shortcut): the form
   * moves the focus to its first invalid field each time (RunFormPanel.tsx). Not the errors
   * themselves, which change as the user types.
   */
  refusedStarts: number;
  setFormField<K extends keyof RunForm>(field: K, value: RunForm[K]): void;
}

export type RunPhase = 'idle' | RunState;

export interface OutputLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface LiveRun {
  runId: string | null;
  phase: RunPhase;
  label: string | null;
  /** Why the run failed (status.error, or the startRun error), or why stopping failed. */
  error: string | null;
  engineExitCode: number | null;
  analysis: RunAnalysis | null;
  theory: MethodOutput<'getRun'>['theory'] | null;
  events: RunEvent[];
  /** The engine's last lines (OUTPUT_TAIL_LINES at most). */
  output: OutputLine[];
  /** How many lines the engine has printed in this run: output[0] is line outputLines − output.length. */
  outputLines: number;
  /** From the request (the analysis repeats it once it runs). */
  budgetBytes: number | null;
  windowTokens: number | null;
  /** The newest value of every registered series the run's samples hold (shared/collectors/registry.ts). */
  series: SeriesReadout[];
  /**
   * The facts of the board a recorded run was made on, as its session keeps them ({} when it
   * keeps none: an imported log); null for a live run, whose board's probe has them. The
   * dashboard's trip points and clock maxima come from these, never from the probe of whatever
   * board is selected while a session is open.
   */
  recordedTarget: TargetFacts | null;
}

export interface LiveRunSlice {
  run: LiveRun;
  /** The sweep started from this window (or followed again after a reload); the live run is its current step. */
  sweep: SweepStatus | null;
  chart: ChartSeries;
  startRun(): Promise<void>;
  stopRun(): Promise<void>;
  /** Show a run that is already known to the main side (after a reload): everything so far comes from getRun. */
  attachRun(status: RunStatus): Promise<void>;
  /** Show a recorded run (a session) in the dashboard; false while a run is going. */
  showRecordedRun(snapshot: RecordedRunSnapshot): boolean;
  /**
   * Draws a recorded run on show again from other samples of it (its preview's full samples,
   * sessions-slice.ts): the same events, analysis and time window. False when another run is on show.
   */
  replaceRecordedSamples(runId: string, samples: PackedSamples): boolean;
  /** Takes a recorded run (an opened session) off the dashboard: back to no run. False while a run is going on. */
  clearRecordedRun(): boolean;
  /** On startup: attach to the newest run, running or not. */
  resumeLatestRun(): Promise<void>;
  /** Resynchronise the run on screen (after the bridge reconnected: events may have been missed). */
  resyncRun(): Promise<void>;
  handleApiEvent<E extends ApiEventName>(event: E, payload: EventPayload<E>): void;
  flushChart(): void;
}

/** Runs a dead app left on a board (left-runs-slice.ts). */
export interface LeftRunsState {
  status: 'loading' | 'ready' | 'error';
  runs: LeftRun[];
  /** When `runs` was read from the board (Date.now()): the ages it holds are as of then. */
  listedAtMs: number;
  /** The run directory being recovered, discarded or stopped right now. */
  busyDir: string | null;
  error: string | null;
  /** What the last action did, in words ("Recovered … into the session list."). */
  notice: string | null;
}

export interface LeftRunsSlice {
  /** Per board id. */
  leftRuns: Record<string, LeftRunsState>;
  /** A discard waiting for the user's confirmation. */
  confirmDiscard: { boardId: string; run: LeftRun } | null;
  /** A stop of a run still running on the board, waiting for the user's confirmation. */
  confirmStopLeftRun: { boardId: string; run: LeftRun } | null;
  loadLeftRuns: (boardId: string) => Promise<void>;
  recoverLeftRun: (boardId: string, dir: string) => Promise<void>;
  askDiscardLeftRun: (boardId: string, dir: string) => void;
  cancelDiscardLeftRun: () => void;
  discardLeftRun: () => Promise<void>;
  askStopLeftRun: (boardId: string, dir: string) => void;
  cancelStopLeftRun: () => void;
  /** Ends the confirmed run's engine on the board, then lists the board's runs again (it is then one to recover). */
  stopLeftRun: () => Promise<void>;
}

export type AppState = AppSlice &
  BoardListSlice &
  RunFormSlice &
  LiveRunSlice &
  BoardsSlice &
  PromptsSlice &
  DashboardSlice &
  SessionsSlice &
  CompareSlice &
  KvSlice &
  LeftRunsSlice;

export type SetState = (partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
export type GetState = () => AppState;
export type SliceCreator<T> = (set: SetState, get: GetState, deps: StoreDeps) => T;
