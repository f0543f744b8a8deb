// Builds the AppServices: the handlers of every API method over the Node services. The same
// object serves the Electron window (IPC), browser mode (WebSocket bridge) and tests.
import { EventEmitter } from 'node:events';
import {
  PROMPT_TIMEOUT_MS,
  type ApiEventName,
  type ApiHandlers,
  type EventPayload,
  type EventSink,
} from '../../../shared/api/contract';
import { collectorSettingsProblem } from '../../../shared/collectors/collector-plan';
import { SERVER_MODE_DEFAULTS, type BoardInfo, type TargetSpec } from '../../../shared/api/schemas';
import { computeKv } from '../../../shared/kv/kv-theory';
import { healthFindings } from '../../../shared/probe/health';
import type { AppServices, AppServicesOptions } from './app-services';
import { probeTarget } from '../probe/probe';
import { RunService, type TargetFactory } from '../run/run-service';
import { AppConnector, defaultBoardLabel } from '../boards/app-connector';
import { PromptBroker } from '../boards/prompt-broker';
import { noSecretStore, secretKeys, type SecretStore } from '../boards/secret-store';
import { importSshConfig } from '../boards/ssh-config-import';
import { BoardStore, type SavedBoard } from '../boards/board-store';
import { describeError } from '../util/describe-error';
import { redact, redactError, redactValue } from '../util/redact';
import { readModelHeader } from '../model/model-header';
import { openAppRecording, recordAppRun, type AppRecording } from '../session/app-run-recording';
import { SweepService } from '../run/app-sweeps';
import { driveServerMode, engineOutputCollector } from '../engines/server-run';
import { SESSION_FILE_EXT, SessionLibrary, sessionsDir } from '../session/session-library';
import { basename } from 'node:path';
import { importLog } from '../import/import-log';
import { localPath } from '../transport/local-target';
import { previewSessionData } from '../../../shared/api/packed-preview';
import type { Target } from '../transport/target';
import {
  discardRun,
  findLeftRun,
  findRunningRun,
  leftRunDetails,
  listLeftRuns,
  recoverRun,
  stopLeftRun,
} from '../run/run-recovery';

export interface CreateAppServicesOptions extends AppServicesOptions {
  /** How a run reaches its target; default: the app's connector (SSH with prompts as events). */
  targetFactory?: TargetFactory;
  /** Where remembered credentials go. Default: none (browser mode); Electron passes its safeStorage store. */
  secretStore?: SecretStore;
  /** Saved boards; default: boards.json in the app data dir. */
  boardStore?: BoardStore;
  /** Environment for paths (KVSCOPE_HOME, KVSCOPE_SSH_CONFIG) and ssh (SSH_AUTH_SOCK). */
  env?: NodeJS.ProcessEnv;
  promptTimeoutMs?: number;
  /** Connection progress lines (redacted); default: on stderr only with KVSCOPE_DEBUG. */
  log?: (line: string) => void;
  /** Where runs started from the app are recorded; default: <app data>/sessions. */
  sessionsDir?: string;
  /** A session file to show when the window opens (`kvscope web --open <file>`). */
  openSessionFile?: string;
  /**
   * The desktop app's save dialog: writes `data` where the user chooses and returns the path, or
   * null when cancelled. Without it (browser mode) exports come back as content for a download.
   */
  saveFile?: (suggestedName: string, data: Buffer) => Promise<string | null>;
  /** The desktop's open dialog (Electron): a file's path, or null when cancelled; absent in browser mode. */
  pickFile?: (purpose: 'session' | 'log') => Promise<string | null>;
}

/** A synchronous handler's result as a promise; what it throws becomes the rejection, as in an async function. */
function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(describeError(error)));
  }
}

const LOCAL_BOARD: BoardInfo = { id: 'local', label: 'This computer', spec: { kind: 'local' } };

export function createAppServices(options: CreateAppServicesOptions): AppServices {
  const bus = new EventEmitter();
  bus.setMaxListeners(100);
  // Everything the services send the window (and browser mode to every page) is masked here:
  // an engine's live output and events, a run's command and its stderr (util/redact.ts).
  const emit: EventSink = (event, payload) => void bus.emit('event', event, redactValue(payload));
  const env = options.env ?? process.env;
  const log =
    options.log ??
    (env.KVSCOPE_DEBUG ? (line: string) => process.stderr.write(`kvscope: ${redact(line)}\n`) : undefined);
  const promptTimeoutMs = options.promptTimeoutMs ?? PROMPT_TIMEOUT_MS;
  const boards = options.boardStore ?? new BoardStore({ env });
  const secrets = options.secretStore ?? noSecretStore();
  const prompts = new PromptBroker(emit, { timeoutMs: promptTimeoutMs });
  const connector = new AppConnector({ prompts, secrets, boards, env, log, promptTimeoutMs });
  const runs = new RunService(emit, options.targetFactory ?? connector.factory);
  const library = new SessionLibrary(options.sessionsDir ?? sessionsDir(env));
  // Checked at start-up: a wrong --open path fails the command, not a window later.
  const openOnStart = options.openSessionFile ? library.addExternal(options.openSessionFile) : null;
  const appVersion = options.version ?? '0.1.0';
  /** Sessions still being written: dispose() waits for them so no file is left half-closed. */
  const recordings = new Set<Promise<void>>();
  const keepUntilClosed = (closed: Promise<void>) => {
    recordings.add(closed);
    void closed.then(() => recordings.delete(closed));
  };
  const recordingLog = log ?? ((line: string) => process.stderr.write(`kvscope: ${redact(line)}\n`));
  /** The session ids imports under way will write (importSessionLog). */
  const importsUnderWay = new Set<string>();
  /** The imports under way that were given a key, to stop them by it (cancelImport). */
  const importsByKey = new Map<string, AbortController>();
  /** Server conversations going on: dispose() waits for them (each ends by stopping its run). */
  const conversations = new Set<Promise<unknown>>();

  /** The runs recorded into each session the app recorded: deleting it drops them from listRuns. */
  const sessionRuns = new Map<string, string[]>();
  const noteRecorded = (sessionId: string, runId: string) =>
    sessionRuns.set(sessionId, [...(sessionRuns.get(sessionId) ?? []), runId]);
  /** A sweep is recorded into one session: opened with its first run, closed with its plan. */
  const sweepRecordings = new Map<string, AppRecording>();
  const sweeps = new SweepService(runs, emit, {
    onRun: ({ sweepId, targetLabel }, run) => {
      const open = sweepRecordings.get(sweepId);
      if (open) {
        noteRecorded(open.id, run.runId);
        return open.add(run);
      }
      const recording = openAppRecording(library, run, {
        appVersion,
        targetLabel,
        log: recordingLog,
      });
      if (!recording) return;
      noteRecorded(recording.id, run.runId);
      sweepRecordings.set(sweepId, recording);
      keepUntilClosed(recording.closed);
    },
    onEnd: (sweepId, plan) => {
      void sweepRecordings.get(sweepId)?.finish(plan);
      sweepRecordings.delete(sweepId);
    },
  });

  const requireRun = (runId: string) => {
    const run = runs.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    return run;
  };

  const info = async (b: SavedBoard): Promise<BoardInfo> => {
    const rememberedSecrets = await secrets.countPrefix(secretKeys.boardPrefix(b.id)).catch(() => 0);
    return { id: b.id, label: b.label, spec: b.spec, ...(rememberedSecrets > 0 ? { rememberedSecrets } : {}) };
  };

  /** The name the user knows a run's target by: the saved board's label, This computer, or user@host. */
  const targetLabelOf = async (spec: TargetSpec): Promise<string> => {
    if (spec.kind === 'local') return LOCAL_BOARD.label;
    const saved = await boards.findBySpec(spec).catch(() => undefined);
    return saved?.label ?? defaultBoardLabel(spec);
  };

  const requireBoard = async (id: string): Promise<BoardInfo> => {
    if (id === 'local') return LOCAL_BOARD;
    const saved = await boards.get(id);
    if (!saved) throw new Error(`no saved board "${id}" (it may have been removed in another window)`);
    return info(saved);
  };

  /** One connection to a saved board (or This computer) for `use`, closed afterwards. */
  const withBoard = async <T>(boardId: string, use: (target: Target, board: BoardInfo) => Promise<T>): Promise<T> => {
    const board = await requireBoard(boardId);
    const connected = await connector.connect(board.spec, {
      boardId: board.id === 'local' ? undefined : board.id,
      label: board.label,
    });
    try {
      return await use(connected, board);
    } finally {
      await connected.close().catch(() => undefined);
    }
  };

  const handlers: ApiHandlers = {
    appInfo: () => settled(() => ({ version: appVersion, shell: options.shell, platform: process.platform })),
    listBoards: async () => {
      let saved: SavedBoard[] = [];
      try {
        saved = await boards.list();
      } catch (error) {
        // This computer stays usable when the file is damaged; saveBoard reports the problem.
        process.stderr.write(`kvscope: ${(error as Error).message}\n`);
      }
      return [LOCAL_BOARD, ...(await Promise.all(saved.map(info)))];
    },
    saveBoard: async (input) => info(await boards.save(input)),
    removeBoard: async ({ id }) => {
      const ok = await boards.remove(id);
      connector.forgetTyped(id);
      await secrets.deletePrefix(secretKeys.boardPrefix(id)).catch(() => 0);
      return { ok };
    },
    importSshConfig: async () => importSshConfig(boards, { env, homeDir: env.HOME || undefined }),
    probeBoard: ({ boardId }) =>
      withBoard(boardId, async (connected, board) => {
        const probe = await probeTarget(connected);
        // A probe in the app precedes a benchmark: clocks and background load are judged as such.
        return {
          boardId: board.id,
          label: board.label,
          probedAt: Date.now(),
          probe,
          findings: healthFindings(probe, { benchmarking: true }),
        };
      }),
    answerHostKey: ({ requestId, accept }) => settled(() => ({ ok: prompts.answerHostKey(requestId, accept) })),
    answerCredential: ({ requestId, value, remember }) =>
      settled(() => ({ ok: prompts.answerCredential(requestId, value, remember === true) })),
    listPrompts: () => settled(() => prompts.list()),
    secretStorage: () => settled(() => secrets.status()),
    forgetSecrets: async ({ boardId }) => {
      connector.forgetTyped(boardId);
      return { removed: await secrets.deletePrefix(secretKeys.boardPrefix(boardId)) };
    },
    computeKv: (input) => settled(() => computeKv(input)),
    startRun: async ({ server, startKey, ...request }) => {
      // Server mode: a regex that never matches unless one is given, so the server's log lines on
      // stdout are not counted as tokens; the client counts them (as `profile --server-url` does).
      const runRequest =
        server && request.engine.kind === 'command' && request.engine.tokenRegex === undefined
          ? { ...request, engine: { ...request.engine, tokenRegex: SERVER_MODE_DEFAULTS.noTokensRegex } }
          : request;
      if (server && request.engine.kind !== 'command')
        throw new Error('server mode needs an engine command that starts the server');
      // The run form checks the same (renderer/src/state/run-form.ts); a bridge client may not have.
      const collectorProblem = collectorSettingsProblem(request.collectors);
      if (collectorProblem) throw new Error(collectorProblem);
      const output = server ? engineOutputCollector() : null;
      const run = await runs.start(runRequest, { listener: output?.listener, startKey });
      // Every run started from the app is kept (a failure to record never fails the run).
      const recording = recordAppRun(library, run, {
        appVersion,
        targetLabel: await targetLabelOf(request.target),
        log: recordingLog,
      });
      if (recording) {
        noteRecorded(recording.id, run.runId);
        keepUntilClosed(recording.closed);
      }
      if (server && output) {
        // The conversation's steps (waiting for the port, each turn) are the run's events: the
        // window's event log and the session show how the server was driven.
        const conversation = driveServerMode(run, server, output.text, (line) =>
          run.addEvent({ tMs: run.lastTMs, kind: 'info', message: line.trim() }),
        );
        conversations.add(conversation);
        void conversation.then(() => conversations.delete(conversation));
      }
      return { runId: run.runId };
    },
    startSweep: async ({ request, sizes, startKey }) =>
      sweeps.start(request, sizes, await targetLabelOf(request.target), startKey),
    stopSweep: ({ sweepId }) => settled(() => ({ ok: sweeps.stop(sweepId) })),
    listSweeps: () => settled(() => sweeps.list()),
    stopRun: async ({ runId }) => ({ ok: await runs.stop(runId) }),
    cancelStart: ({ startKey }) => settled(() => ({ ok: runs.cancelStart(startKey) || sweeps.cancelStart(startKey) })),
    listRuns: () => settled(() => runs.list()),
    getRun: ({ runId }) =>
      settled(() => {
        const run = requireRun(runId);
        return {
          status: run.status,
          samples: run.samples,
          events: run.events,
          analysis: run.analysis,
          theory: { bytesPerToken: run.theoryBytesPerToken, ctx: run.ctx, trainedCtx: run.trainedCtx },
        };
      }),
    addMarker: ({ runId, label, tMs }) =>
      settled(() => {
        const run = requireRun(runId);
        // The session recorder stops copying a run's events when it ends: a marker then would be
        // shown, and gone from the session it was meant for.
        if (run.status.state === 'done' || run.status.state === 'failed')
          throw new Error('the run has ended: a marker marks a moment of a running run');
        // Numbered: markers pressed within one sample interval share its time, and one label
        // for all of them would make them one event (an event is known by time, kind and text).
        const n = run.events.filter((e) => e.kind === 'marker').length + 1;
        const at = tMs ?? run.lastTMs;
        const text = label ?? `marker ${n}`;
        const taken = run.events.some((e) => e.kind === 'marker' && e.tMs === at && e.message === text);
        const event = { tMs: at, kind: 'marker' as const, message: taken ? `${text} (${n})` : text };
        run.addEvent(event);
        return event;
      }),
    listSessions: () => settled(() => ({ sessions: library.list(), openOnStart })),
    openSession: ({ id, previewBuckets }) =>
      settled(() => {
        const { listing, data } = library.readPacked(id, previewBuckets);
        if (previewBuckets === undefined) return { listing, data, preview: false };
        return { listing, ...previewSessionData(data, previewBuckets) };
      }),
    pickLocalFile: async ({ purpose }) =>
      options.pickFile ? { supported: true, path: await options.pickFile(purpose) } : { supported: false, path: null },
    addSessionFile: ({ path }) => settled(() => library.addFile(localPath(path))),
    importSessionLog: async ({ kind, path, intervalMs, importKey }) => {
      const file = localPath(path);
      if (importKey !== undefined && importsByKey.has(importKey))
        throw new Error('an import with this key is already under way');
      // The file is written once the whole log is read: until then its name is held here, so a
      // second import started meanwhile (another window) takes the next name, not the same file.
      const { id, path: out } = library.newSessionPath(`import-${kind}`, importsUnderWay);
      const stop = new AbortController();
      importsUnderWay.add(id);
      if (importKey !== undefined) importsByKey.set(importKey, stop);
      try {
        // A log with nothing to import writes no file (ImportError: one line, said in the dialog);
        // nor does one stopped by cancelImport (the import checks between chunks of the file).
        const result = await importLog(kind, file, out, { intervalMs, signal: stop.signal });
        return { listing: library.listing(id), samples: result.samples, diagnostics: result.diagnostics };
      } catch (error) {
        if (stop.signal.aborted) throw new Error('import cancelled: nothing was imported');
        throw error;
      } finally {
        importsUnderWay.delete(id);
        if (importKey !== undefined) importsByKey.delete(importKey);
      }
    },
    cancelImport: ({ importKey }) =>
      settled(() => {
        const stop = importsByKey.get(importKey);
        stop?.abort();
        return { ok: stop !== undefined };
      }),
    renameSession: ({ id, name }) => settled(() => library.rename(id, name)),
    deleteSession: ({ id }) =>
      settled(() => {
        library.remove(id);
        // Its runs leave the app's list of runs too: a reload (resumeLatestRun) would otherwise put
        // the deleted run back on the dashboard as the app's newest run.
        for (const runId of sessionRuns.get(id) ?? []) runs.forget(runId);
        sessionRuns.delete(id);
        return { ok: true };
      }),
    exportSession: async ({ id, format }) => {
      const file = await library.export(id, format);
      const base = { fileName: file.fileName, mimeType: file.mimeType, sizeBytes: file.data.length };
      if (options.saveFile) {
        const savedPath = await options.saveFile(file.fileName, file.data);
        return {
          ...base,
          delivery: savedPath ? 'saved' : 'cancelled',
          encoding: 'utf8',
          content: '',
          savedPath,
        } as const;
      }
      const text = format !== 'pdf';
      return {
        ...base,
        delivery: 'content',
        encoding: text ? 'utf8' : 'base64',
        content: file.data.toString(text ? 'utf8' : 'base64'),
        savedPath: null,
      } as const;
    },
    listLeftRuns: ({ boardId }) =>
      withBoard(boardId, async (target) => {
        // A running one is offered unless it is one of this app's own runs (followed here).
        const details = await Promise.all((await listLeftRuns(target)).map((r) => leftRunDetails(target, r)));
        return details.filter((r) => !r.running || !runs.isOwnRun(r.runId, r.dir));
      }),
    recoverLeftRun: ({ boardId, dir }) =>
      withBoard(boardId, async (target) => {
        const result = await recoverRun(target, await findLeftRun(target, dir), library.dir);
        if (result.state !== 'recovered') throw new Error(result.state === 'failed' ? result.reason : 'still running');
        return {
          dir,
          sessionId: basename(result.session, SESSION_FILE_EXT),
          label: result.label,
          samples: result.samples,
          ...(result.previousKeptAs !== undefined
            ? { previousSessionId: basename(result.previousKeptAs, SESSION_FILE_EXT) }
            : {}),
        };
      }),
    discardLeftRun: ({ boardId, dir }) =>
      withBoard(boardId, async (target) => {
        await discardRun(target, await findLeftRun(target, dir));
        return { ok: true };
      }),
    stopLeftRun: ({ boardId, dir }) =>
      withBoard(boardId, async (target) => {
        const details = await leftRunDetails(target, await findRunningRun(target, dir));
        if (runs.isOwnRun(details.runId, dir))
          throw new Error('this run is followed in this app: stop it with its Stop button');
        await stopLeftRun(target, details);
        return { ok: true };
      }),
    readModelHeader: async ({ boardId, path }) => {
      const target = await requireBoard(boardId);
      return readModelHeader(path, target.id, () =>
        connector.connect(target.spec, {
          boardId: target.id === 'local' ? undefined : target.id,
          label: target.label,
        }),
      );
    },
  };
  return {
    handlers: redactingHandlers(handlers),
    subscribe(sink) {
      const listener = <E extends ApiEventName>(event: E, payload: EventPayload<E>) => sink(event, payload);
      bus.on('event', listener);
      return () => void bus.off('event', listener);
    },
    dispose: async () => {
      prompts.cancelAll();
      await Promise.all([sweeps.dispose(), runs.dispose()]);
      await Promise.all(conversations);
      await Promise.all(recordings);
    },
  };
}

/** The handlers with their answers and errors masked, as the events are (emit). */
function redactingHandlers(handlers: ApiHandlers): ApiHandlers {
  const out: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [method, handler] of Object.entries(handlers) as Array<[string, (input: unknown) => Promise<unknown>]>)
    out[method] = async (input) => {
      try {
        return redactValue(await handler(input));
      } catch (error) {
        throw redactError(error);
      }
    };
  return out as ApiHandlers;
}
