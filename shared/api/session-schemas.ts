// The shapes of the session library API (listSessions, openSession, renameSession, deleteSession,
// exportSession, readModelHeader): what crosses IPC / the WebSocket bridge. Ids and names are
// checked here, so a handler never sees a path, a "..", a slash or a NUL from a window.
import { z } from 'zod';
import type { ModelShape } from '../kv/kv-theory';
import type { GgufModelSummary } from '../kv/model-config';

/**
 * A session's id is its file name without `.kvscope` in the app's sessions folder: letters,
 * digits, `_` and `-`, starting with a letter or digit (so never ".", "..", "-x" or a path).
 */
export const SessionIdSchema = z
  .string()
  .regex(/^[a-z\d][\w-]{0,79}$/i, 'session id: letters, digits, _ and - (a file name in the sessions folder)');

/**
 * What the user calls a session; shown in lists and reports, never used as a file name. One line:
 * a tab or a line break pasted into it would break the list's row and the reports' titles.
 */
export const SessionNameSchema = z
  .string()
  .trim()
  .min(1, 'a name is required')
  .max(120, 'at most 120 characters')
  // eslint-disable-next-line no-control-regex -- the control characters are what it refuses
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'one line of text: no tab, line break or other control character');

/**
 * A path on the computer KVScope runs on (the Sessions view's Open and Import): absolute, or from
 * the home folder (`~/…`); a relative one would be read from wherever the app was started.
 */
export const LocalFilePathSchema = z
  .string()
  .trim()
  .min(1, 'a path is required')
  .max(4096, 'at most 4096 characters')
  .refine((p) => !p.includes('\0'), 'a path holds no NUL character')
  .refine(
    (p) => p.startsWith('/') || p === '~' || p.startsWith('~/') || /^[a-z]:[\\/]/i.test(p) || p.startsWith('\\\\'),
    'the full path, from / (or ~/, C:\\ on Windows): it is read on the computer KVScope runs on',
  );

/** The kinds of board log `kvscope import` and the Sessions view's Import read (electron/node/import/). */
export const IMPORT_KINDS = ['tegrastats', 'perf', 'pmap', 'vcgencmd', 'llama-log'] as const;
export const ImportKindSchema = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof ImportKindSchema>;

export const EXPORT_FORMATS = ['html', 'md', 'csv', 'json', 'pdf', 'perfetto'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** The numbers a list row shows (the session's last run; null where the run did not produce one). */
export const SessionHeadlineSchema = z.object({
  peakRssBytes: z.number().nullable(),
  theoryBytesPerToken: z.number().nullable(),
  measuredBytesPerToken: z.number().nullable(),
  decodeTokensPerSecond: z.number().nullable(),
  maxSafeContextTokens: z.number().nullable(),
  tokens: z.number(),
});
export type SessionHeadline = z.infer<typeof SessionHeadlineSchema>;

export const SessionListingSchema = z.object({
  id: SessionIdSchema,
  /** The user's name for it (renameSession), else the first run's label. */
  name: z.string(),
  /** The target's name (saved board label, or This computer). */
  target: z.string(),
  /** What ran: the demo's shape, the GGUF's file name or the engine command's program. */
  model: z.string(),
  /** ISO 8601 UTC: when the session was created. */
  createdAt: z.string(),
  durationMs: z.number(),
  runs: z.number().int(),
  /** The last run's state; 'recording' while this app still records into the file. */
  state: z.enum(['recording', 'done', 'stopped', 'failed', 'recovered']),
  headline: SessionHeadlineSchema.nullable(),
  sizeBytes: z.number(),
  /** Opened from elsewhere (`kvscope web --open <file>`): never deleted or renamed by the app. */
  external: z.boolean(),
  /** Set when the file could not be read (damaged, newer schema): the row says so and offers delete. */
  error: z.string().nullable(),
});
export type SessionListing = z.infer<typeof SessionListingSchema>;

export const ExportedFileSchema = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  /** 'saved': written through the desktop save dialog (content empty); 'cancelled': the dialog was dismissed. */
  delivery: z.enum(['content', 'saved', 'cancelled']),
  encoding: z.enum(['utf8', 'base64']),
  content: z.string(),
  savedPath: z.string().nullable(),
  sizeBytes: z.number(),
});
export type ExportedFile = z.infer<typeof ExportedFileSchema>;

/** A GGUF's header as the KV calculator needs it: the model's KV shape (for shared/kv/kv-theory.ts) and its facts. */
export const ModelHeaderSchema = z.object({
  path: z.string(),
  /** Where it was read: 'local' or a saved board's id. */
  targetId: z.string(),
  fileBytes: z.number().nullable(),
  /** Produced by shared/kv/model-config.ts on the main side: not re-validated. */
  shape: z.custom<ModelShape>((v) => typeof v === 'object' && v !== null),
  summary: z.custom<GgufModelSummary>((v) => typeof v === 'object' && v !== null),
});
export type ModelHeader = z.infer<typeof ModelHeaderSchema>;

/**
 * A run left on a target by an app that died (electron/node/run/run-recovery.ts): its run
 * directory, how long ago its spool was last written, and what its run.json says.
 */
export const LeftRunSchema = z.object({
  /** The run directory on the target; the key of recoverLeftRun / discardLeftRun / stopLeftRun. */
  dir: z.string(),
  /**
   * Its launcher still runs: a run kept running by an app that closed since, or another
   * KVScope's. Offered to stop (stopLeftRun), after which it is a left run to recover.
   */
  running: z.boolean(),
  /** Seconds since its spool was last written; null when the target cannot tell. */
  ageS: z.number().nullable(),
  /**
   * Seconds since a client last beat for it (an app or a CLI following a run rewrites its
   * heartbeat every second: a few seconds means one follows it now); null when none ever did.
   */
  heartbeatAgeS: z.number().nullable(),
  runId: z.string().nullable(),
  label: z.string().nullable(),
  startedAt: z.string().nullable(),
  /** Why it cannot be recovered (no or unreadable run.json), else null. */
  problem: z.string().nullable(),
});
export type LeftRun = z.infer<typeof LeftRunSchema>;

/** What recoverLeftRun made: the session that now holds the run. */
export const RecoveredRunSchema = z.object({
  dir: z.string(),
  sessionId: z.string(),
  label: z.string(),
  samples: z.number().int(),
  /**
   * The session of the same run that was in the list (the app's recording, cut where the app
   * stopped), kept under this id; absent when there was none.
   */
  previousSessionId: z.string().optional(),
});
export type RecoveredRun = z.infer<typeof RecoveredRunSchema>;
