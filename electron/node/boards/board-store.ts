// The boards the user saved in the app: one JSON file in the app data dir (boards.json, next to
// the app's known_hosts), written atomically with mode 0600. It holds how to reach a board —
// host, port, user, identity file PATH, jump hosts, known-hosts file — and never a secret:
// entries are parsed with the strict BoardSpecSchema on the way in and on the way out,
// so a `password` field is refused by saveBoard and ignored (with a note) when hand-edited in.
// Passwords and passphrases the user asks to remember live in the SecretStore (secret-store.ts),
// encrypted by the OS keychain, keyed by board id.
//
// Before version 2 the file was targets.json with a `targets` array (same entries). It is read
// as long as boards.json does not exist; the first write creates boards.json and removes it.
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { BoardSpecSchema, BoardIdSchema, BoardLabelSchema, type BoardSpec } from '../../../shared/api/schemas';
import { appDataDir } from '../config/app-paths';
import { describeZodError } from '../api/api-dispatch';
import { parseUserHostPort, TargetSpecError } from '../transport/target-spec';
import { SerialQueue, writeFileAtomic } from '../util/atomic-file';

export const BOARDS_FILE_NAME = 'boards.json';
/** Where KVScope kept the boards before FILE_VERSION 2 (then called "targets"). */
export const LEGACY_TARGETS_FILE_NAME = 'targets.json';
/** Bumped only with a migration; a newer file is refused rather than rewritten by an older app. */
const FILE_VERSION = 2;

export interface SavedBoard {
  id: string;
  label: string;
  spec: BoardSpec;
  createdAt: string;
  updatedAt: string;
}

export interface SaveBoardInput {
  id?: string;
  label: string;
  spec: unknown;
}

export class BoardStoreError extends Error {
  readonly code = 'BOARD_STORE';
}

const EntrySchema = z
  .object({
    id: BoardIdSchema,
    label: BoardLabelSchema,
    spec: BoardSpecSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict();

const FileSchema = z.object({ version: z.number().int(), boards: z.array(z.unknown()) });
const LegacyFileSchema = z.object({ version: z.literal(1), targets: z.array(z.unknown()) });

interface Loaded {
  boards: SavedBoard[];
  /** Entries that did not validate: kept in the file untouched (never lose what a user wrote), not served. */
  invalid: unknown[];
  notes: string[];
}

/** "Jetson Orin (lab)" → "jetson-orin-lab-3fa2c1": readable in the file, unique, safe in a data-testid. */
function newId(label: string, taken: ReadonlySet<string>): string {
  const slug =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'board';
  for (;;) {
    const id = `${slug}-${randomBytes(3).toString('hex')}`;
    if (!taken.has(id) && id !== 'local') return id;
  }
}

function expandHome(path: string, home: string): string {
  return path.replace(/^~(?=\/|$)/, home);
}

/**
 * The spec as it is stored: validated (strict: no unknown field, so no secret), empty optional
 * strings dropped, `~` expanded, paths absolute, jump hops readable.
 */
export function normalizeSavedSpec(spec: unknown, home = homedir()): BoardSpec {
  const cleaned =
    spec && typeof spec === 'object' && !Array.isArray(spec)
      ? Object.fromEntries(
          Object.entries(spec as Record<string, unknown>)
            .filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))
            .map(([k, v]) => [
              k,
              typeof v === 'string'
                ? v.trim()
                : Array.isArray(v)
                  ? v.map((x: unknown) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '')
                  : v,
            ]),
        )
      : spec;
  const parsed = BoardSpecSchema.safeParse(cleaned);
  if (!parsed.success) throw new BoardStoreError(`invalid board: ${describeZodError(parsed.error)}`);
  const out: BoardSpec = { ...parsed.data };
  for (const field of ['identityFile', 'knownHostsFile'] as const) {
    const value = out[field];
    if (value === undefined) continue;
    const expanded = expandHome(value, home);
    if (!isAbsolute(expanded))
      throw new BoardStoreError(`${field}: "${value}" must be an absolute path (or start with ~/)`);
    out[field] = expanded;
  }
  for (const hop of out.jump ?? []) {
    try {
      parseUserHostPort(hop);
    } catch (error) {
      throw new BoardStoreError(`jump: ${error instanceof TargetSpecError ? error.message : String(error)}`);
    }
  }
  if (out.jump && out.jump.length === 0) delete out.jump;
  return out;
}

export class BoardStore {
  readonly path: string;
  /** targets.json beside it: read until the first write migrates it. */
  readonly legacyPath: string;
  private readonly writes = new SerialQueue();
  private readonly home: string;

  constructor(options: { dir?: string; env?: NodeJS.ProcessEnv; homeDir?: string } = {}) {
    const dir = options.dir ?? appDataDir(options.env);
    this.path = join(dir, BOARDS_FILE_NAME);
    this.legacyPath = join(dir, LEGACY_TARGETS_FILE_NAME);
    this.home = options.homeDir ?? homedir();
  }

  /** The file's text and where it came from; undefined when neither file exists. */
  private async readText(): Promise<{ text: string; path: string } | undefined> {
    for (const path of [this.path, this.legacyPath]) {
      try {
        return { text: await readFile(path, 'utf8'), path };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw new BoardStoreError(
          `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
    }
    return undefined;
  }

  private async load(): Promise<Loaded> {
    const read = await this.readText();
    if (!read) return { boards: [], invalid: [], notes: [] };
    const { text, path } = read;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new BoardStoreError(`${path} is not valid JSON (${(error as Error).message}); fix it or move it away`);
    }
    let entries: unknown[];
    const legacy = path === this.legacyPath ? LegacyFileSchema.safeParse(json) : undefined;
    if (legacy?.success) entries = legacy.data.targets;
    else {
      const file = FileSchema.safeParse(json);
      if (!file.success) throw new BoardStoreError(`${path} is not a KVScope boards file`);
      if (file.data.version > FILE_VERSION)
        throw new BoardStoreError(`${path} was written by a newer KVScope (version ${file.data.version}); not changed`);
      entries = file.data.boards;
    }
    const loaded: Loaded = { boards: [], invalid: [], notes: [] };
    const seen = new Set<string>();
    entries.forEach((raw, i) => {
      const entry = EntrySchema.safeParse(raw);
      if (!entry.success || seen.has(entry.data.id)) {
        loaded.invalid.push(raw);
        loaded.notes.push(
          `${path}: entry ${i + 1} ignored (${entry.success ? 'duplicate id' : describeZodError(entry.error)})`,
        );
        return;
      }
      seen.add(entry.data.id);
      loaded.boards.push(entry.data);
    });
    return loaded;
  }

  private async write(loaded: Loaded): Promise<void> {
    const body = { version: FILE_VERSION, boards: [...loaded.boards, ...loaded.invalid] };
    await writeFileAtomic(this.path, JSON.stringify(body, null, 2) + '\n');
    // Migrated: everything the legacy file held (invalid entries too) is in boards.json now.
    await rm(this.legacyPath, { force: true });
  }

  async list(): Promise<SavedBoard[]> {
    return (await this.load()).boards;
  }

  /** Entries skipped while reading (for a log line), without failing the listing. */
  async notes(): Promise<string[]> {
    return (await this.load()).notes;
  }

  async get(id: string): Promise<SavedBoard | undefined> {
    return (await this.list()).find((b) => b.id === id);
  }

  /** Add (no id) or replace (id of an existing board). Returns what was stored. */
  save(input: SaveBoardInput): Promise<SavedBoard> {
    const label = BoardLabelSchema.safeParse(input.label);
    if (!label.success) return Promise.reject(new BoardStoreError(`label: ${describeZodError(label.error)}`));
    let spec: BoardSpec;
    try {
      spec = normalizeSavedSpec(input.spec, this.home);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new BoardStoreError(String(error)));
    }
    return this.writes.run(async () => {
      const loaded = await this.load();
      const now = new Date().toISOString();
      if (input.id !== undefined) {
        const index = loaded.boards.findIndex((b) => b.id === input.id);
        const existing = loaded.boards[index];
        if (!existing) throw new BoardStoreError(`no saved board "${input.id}"`);
        const updated: SavedBoard = { ...existing, label: label.data, spec, updatedAt: now };
        loaded.boards[index] = updated;
        await this.write(loaded);
        return updated;
      }
      const taken = new Set([
        ...loaded.boards.map((b) => b.id),
        ...loaded.invalid.map((r) => String((r as { id?: unknown })?.id)),
      ]);
      const created: SavedBoard = {
        id: newId(label.data, taken),
        label: label.data,
        spec,
        createdAt: now,
        updatedAt: now,
      };
      loaded.boards.push(created);
      await this.write(loaded);
      return created;
    });
  }

  remove(id: string): Promise<boolean> {
    return this.writes.run(async () => {
      const loaded = await this.load();
      const before = loaded.boards.length;
      loaded.boards = loaded.boards.filter((b) => b.id !== id);
      if (loaded.boards.length === before) return false;
      await this.write(loaded);
      return true;
    });
  }

  /** The saved board whose spec is exactly `spec` (a run request carries the spec, not the id). */
  async findBySpec(spec: unknown): Promise<SavedBoard | undefined> {
    const key = canonicalJson(spec);
    return (await this.list()).find((b) => canonicalJson(b.spec) === key);
  }
}

/** JSON with sorted keys and without undefined values: equal specs give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
