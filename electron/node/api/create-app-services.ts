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
import type { TargetInfo, TargetSpec } from '../../../shared/api/schemas';
import { computeKv } from '../../../shared/kv/kv-theory';
import { healthFindings } from '../../../shared/probe/health';
import type { AppServices, AppServicesOptions } from './app-services';
import { probeTarget } from '../probe/probe';
import { RunService, type TargetFactory } from '../run/run-service';
import { AppConnector, defaultTargetLabel } from '../boards/app-connector';
import { PromptBroker } from '../boards/prompt-broker';
import { noSecretStore, secretKeys, type SecretStore } from '../boards/secret-store';
import { importSshConfig } from '../boards/ssh-config-import';
import { TargetStore, type SavedTarget } from '../boards/target-store';
import { redact } from '../util/redact';
import { readModelHeader } from '../model/model-header';
import { recordAppRun } from '../session/app-run-recording';
import { SessionLibrary, sessionsDir } from '../session/session-library';

export interface CreateAppServicesOptions extends AppServicesOptions {
  /** How a run reaches its target; default: the app's connector (SSH with prompts as events). */
  targetFactory?: TargetFactory;
  /** Where remembered credentials go. Default: none (browser mode); Electron passes its safeStorage store. */
  secretStore?: SecretStore;
  /** Saved targets; default: targets.json in the app data dir. */
  targetStore?: TargetStore;
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
}

/** A synchronous handler as a promise: what it throws becomes the rejection. */
const settle = <T>(fn: () => T): Promise<T> => new Promise((resolve) => resolve(fn()));

const LOCAL_TARGET: TargetInfo = { id: 'local', label: 'This computer', spec: { kind: 'local' } };

export function createAppServices(options: CreateAppServicesOptions): AppServices {
  const bus = new EventEmitter();
  bus.setMaxListeners(100);
  const emit: EventSink = (event, payload) => void bus.emit('event', event, payload);
  const env = options.env ?? process.env;
  const log =
    options.log ??
    (env.KVSCOPE_DEBUG ? (line: string) => process.stderr.write(`kvscope: ${redact(line)}\n`) : undefined);
  const promptTimeoutMs = options.promptTimeoutMs ?? PROMPT_TIMEOUT_MS;
  const targets = options.targetStore ?? new TargetStore({ env });
  const secrets = options.secretStore ?? noSecretStore();
  const prompts = new PromptBroker(emit, { timeoutMs: promptTimeoutMs });
  const connector = new AppConnector({ prompts, secrets, targets, env, log, promptTimeoutMs });
  const runs = new RunService(emit, options.targetFactory ?? connector.factory);
  const library = new SessionLibrary(options.sessionsDir ?? sessionsDir(env));
  // Checked at start-up: a wrong --open path fails the command, not a window later.
  const openOnStart = options.openSessionFile ? library.addExternal(options.openSessionFile) : null;
  const appVersion = options.version ?? '0.1.0';
  /** Sessions still being written: dispose() waits for them so no file is left half-closed. */
  const recordings = new Set<Promise<void>>();

  const requireRun = (runId: string) => {
    const run = runs.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    return run;
  };

  const info = async (t: SavedTarget): Promise<TargetInfo> => {
    const rememberedSecrets = await secrets.countPrefix(secretKeys.targetPrefix(t.id)).catch(() => 0);
    return { id: t.id, label: t.label, spec: t.spec, ...(rememberedSecrets > 0 ? { rememberedSecrets } : {}) };
  };

  /** The name the user knows a run's target by: the saved board's label, This computer, or user@host. */
  const targetLabelOf = async (spec: TargetSpec): Promise<string> => {
    if (spec.kind === 'local') return LOCAL_TARGET.label;
    const saved = await targets.findBySpec(spec).catch(() => undefined);
    return saved?.label ?? defaultTargetLabel(spec);
  };

  const requireTarget = async (id: string): Promise<TargetInfo> => {
    if (id === 'local') return LOCAL_TARGET;
    const saved = await targets.get(id);
    if (!saved) throw new Error(`no saved target "${id}" (it may have been removed in another window)`);
    return info(saved);
  };

  const handlers: ApiHandlers = {
    appInfo: async () => ({ version: appVersion, shell: options.shell, platform: process.platform }),
    listTargets: async () => {
      let saved: SavedTarget[] = [];
      try {
        saved = await targets.list();
      } catch (error) {
        // This computer stays usable when the file is damaged; saveTarget reports the problem.
        process.stderr.write(`kvscope: ${(error as Error).message}\n`);
      }
      return [LOCAL_TARGET, ...(await Promise.all(saved.map(info)))];
    },
    saveTarget: async (input) => info(await targets.save(input)),
    removeTarget: async ({ id }) => {
      const ok = await targets.remove(id);
      connector.forgetTyped(id);
      await secrets.deletePrefix(secretKeys.targetPrefix(id)).catch(() => 0);
      return { ok };
    },
    importSshConfig: async () => importSshConfig(targets, { env, homeDir: env.HOME || undefined }),
    probeTarget: async ({ targetId }) => {
      const target = await requireTarget(targetId);
      const connected = await connector.connect(target.spec, {
        targetId: target.id === 'local' ? undefined : target.id,
        label: target.label,
      });
      try {
        const probe = await probeTarget(connected);
        // A probe in the app precedes a benchmark: clocks and background load are judged as such.
        return {
          targetId: target.id,
          label: target.label,
          probedAt: Date.now(),
          probe,
          findings: healthFindings(probe, { benchmarking: true }),
        };
      } finally {
        await connected.close().catch(() => undefined);
      }
    },
    answerHostKey: async ({ requestId, accept }) => ({ ok: prompts.answerHostKey(requestId, accept) }),
    answerCredential: async ({ requestId, value, remember }) => ({
      ok: prompts.answerCredential(requestId, value, remember === true),
    }),
    listPrompts: async () => prompts.list(),
    secretStorage: async () => secrets.status(),
    forgetSecrets: async ({ targetId }) => {
      connector.forgetTyped(targetId);
      return { removed: await secrets.deletePrefix(secretKeys.targetPrefix(targetId)) };
    },
    computeKv: async (input) => computeKv(input),
    startRun: async (request) => {
      const run = await runs.start(request);
      // Every run started from the app is kept (a failure to record never fails the run).
      const recording = recordAppRun(library, run, {
        appVersion,
        targetLabel: await targetLabelOf(request.target),
        log: log ?? ((line) => process.stderr.write(`kvscope: ${redact(line)}\n`)),
      });
      if (recording) {
        recordings.add(recording.closed);
        void recording.closed.then(() => recordings.delete(recording.closed));
      }
      return { runId: run.runId };
    },
    stopRun: async ({ runId }) => ({ ok: await runs.stop(runId) }),
    listRuns: async () => runs.list(),
    getRun: async ({ runId }) => {
      const run = requireRun(runId);
      return {
        status: run.status,
        samples: run.samples,
        events: run.events,
        analysis: run.analysis,
        theory: { bytesPerToken: run.theoryBytesPerToken, ctx: run.ctx },
      };
    },
    listSessions: () => settle(() => ({ sessions: library.list(), openOnStart })),
    openSession: ({ id }) => settle(() => library.read(id)),
    renameSession: ({ id, name }) => settle(() => library.rename(id, name)),
    deleteSession: ({ id }) =>
      settle(() => {
        library.remove(id);
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
    readModelHeader: async ({ targetId, path }) => {
      const target = await requireTarget(targetId);
      return readModelHeader(path, target.id, () =>
        connector.connect(target.spec, {
          targetId: target.id === 'local' ? undefined : target.id,
          label: target.label,
        }),
      );
    },
  };
  return {
    handlers,
    subscribe(sink) {
      const listener = <E extends ApiEventName>(event: E, payload: EventPayload<E>) => sink(event, payload);
      bus.on('event', listener);
      return () => void bus.off('event', listener);
    },
    dispose: async () => {
      prompts.cancelAll();
      await runs.dispose();
      await Promise.all(recordings);
    },
  };
}
