// The boards the user saved in the app: one JSON file in the app data dir (targets.json, next to
// the app's known_hosts), written atomically with mode 0600. It holds how to reach a board —
// host, port, user, identity file PATH, jump hosts, known-hosts file — and never a secret:
// entries are parsed with the strict SavedSshTargetSpecSchema on the way in and on the way out,
// so a `password` field is refused by saveTarget and ignored (with a note) when hand-edited in.
// Passwords and passphrases the user asks to remember live in the SecretStore (secret-store.ts),
// encrypted by the OS keychain, keyed by target id.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import {
  SavedSshTargetSpecSchema,
  TargetIdSchema,
  TargetLabelSchema,
  type SavedSshTargetSpec,
} from '../../../shared/api/schemas';
import { appDataDir } from '../config/app-paths';
import { describeZodError } from '../api/api-dispatch';
import { parseUserHostPort, TargetSpecError } from '../transport/target-spec';
import { SerialQueue, writeFileAtomic } from '../util/atomic-file';

export const TARGETS_FILE_NAME = 'targets.json';
/** Bumped only with a migration; a newer file is refused rather than rewritten by an older app. */
const FILE_VERSION = 1;

export interface SavedTarget {
  id: string;
  label: string;
  spec: SavedSshTargetSpec;
  createdAt: string;
  updatedAt: string;
}

export interface SaveTargetInput {
  id?: string;
  label: string;
  spec: unknown;
}

export class TargetStoreError extends Error {
  readonly code = 'TARGET_STORE';
}

const EntrySchema = z
  .object({
    id: TargetIdSchema,
    label: TargetLabelSchema,
    spec: SavedSshTargetSpecSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict();

const FileSchema = z.object({ version: z.number().int(), targets: z.array(z.unknown()) });

interface Loaded {
  targets: SavedTarget[];
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
      .replace(/^-+|-+$/g, '')
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
export function normalizeSavedSpec(spec: unknown, home = homedir()): SavedSshTargetSpec {
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
                  ? v.map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '')
                  : v,
            ]),
        )
      : spec;
  const parsed = SavedSshTargetSpecSchema.safeParse(cleaned);
  if (!parsed.success) throw new TargetStoreError(`invalid target: ${describeZodError(parsed.error)}`);
  const out: SavedSshTargetSpec = { ...parsed.data };
  for (const field of ['identityFile', 'knownHostsFile'] as const) {
    const value = out[field];
    if (value === undefined) continue;
    const expanded = expandHome(value, home);
    if (!isAbsolute(expanded))
      throw new TargetStoreError(`${field}: "${value}" must be an absolute path (or start with ~/)`);
    out[field] = expanded;
  }
  for (const hop of out.jump ?? []) {
    try {
      parseUserHostPort(hop);
    } catch (error) {
      throw new TargetStoreError(`jump: ${error instanceof TargetSpecError ? error.message : String(error)}`);
    }
  }
  if (out.jump && out.jump.length === 0) delete out.jump;
  return out;
}

export class TargetStore {
  readonly path: string;
  private readonly writes = new SerialQueue();
  private readonly home: string;

  constructor(options: { dir?: string; env?: NodeJS.ProcessEnv; homeDir?: string } = {}) {
    this.path = join(options.dir ?? appDataDir(options.env), TARGETS_FILE_NAME);
    this.home = options.homeDir ?? homedir();
  }

  private async load(): Promise<Loaded> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { targets: [], invalid: [], notes: [] };
      throw new TargetStoreError(
        `cannot read ${this.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new TargetStoreError(
        `${this.path} is not valid JSON (${(error as Error).message}); fix it or move it away`,
      );
    }
    const file = FileSchema.safeParse(json);
    if (!file.success) throw new TargetStoreError(`${this.path} is not a KVScope targets file`);
    if (file.data.version > FILE_VERSION)
      throw new TargetStoreError(
        `${this.path} was written by a newer KVScope (version ${file.data.version}); not changed`,
      );
    const loaded: Loaded = { targets: [], invalid: [], notes: [] };
    const seen = new Set<string>();
    file.data.targets.forEach((raw, i) => {
      const entry = EntrySchema.safeParse(raw);
      if (!entry.success || seen.has(entry.data.id)) {
        loaded.invalid.push(raw);
        loaded.notes.push(
          `${this.path}: entry ${i + 1} ignored (${entry.success ? 'duplicate id' : describeZodError(entry.error)})`,
        );
        return;
      }
      seen.add(entry.data.id);
      loaded.targets.push(entry.data);
    });
    return loaded;
  }

  private async write(loaded: Loaded): Promise<void> {
    const body = { version: FILE_VERSION, targets: [...loaded.targets, ...loaded.invalid] };
    await writeFileAtomic(this.path, JSON.stringify(body, null, 2) + '\n');
  }

  async list(): Promise<SavedTarget[]> {
    return (await this.load()).targets;
  }

  /** Entries skipped while reading (for a log line), without failing the listing. */
  async notes(): Promise<string[]> {
    return (await this.load()).notes;
  }

  async get(id: string): Promise<SavedTarget | undefined> {
    return (await this.list()).find((t) => t.id === id);
  }

  /** Add (no id) or replace (id of an existing target). Returns what was stored. */
  save(input: SaveTargetInput): Promise<SavedTarget> {
    const label = TargetLabelSchema.safeParse(input.label);
    if (!label.success) return Promise.reject(new TargetStoreError(`label: ${describeZodError(label.error)}`));
    let spec: SavedSshTargetSpec;
    try {
      spec = normalizeSavedSpec(input.spec, this.home);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writes.run(async () => {
      const loaded = await this.load();
      const now = new Date().toISOString();
      if (input.id !== undefined) {
        const index = loaded.targets.findIndex((t) => t.id === input.id);
        if (index < 0) throw new TargetStoreError(`no saved target "${input.id}"`);
        const updated: SavedTarget = { ...loaded.targets[index], label: label.data, spec, updatedAt: now };
        loaded.targets[index] = updated;
        await this.write(loaded);
        return updated;
      }
      const taken = new Set([
        ...loaded.targets.map((t) => t.id),
        ...loaded.invalid.map((r) => String((r as { id?: unknown })?.id)),
      ]);
      const created: SavedTarget = {
        id: newId(label.data, taken),
        label: label.data,
        spec,
        createdAt: now,
        updatedAt: now,
      };
      loaded.targets.push(created);
      await this.write(loaded);
      return created;
    });
  }

  remove(id: string): Promise<boolean> {
    return this.writes.run(async () => {
      const loaded = await this.load();
      const before = loaded.targets.length;
      loaded.targets = loaded.targets.filter((t) => t.id !== id);
      if (loaded.targets.length === before) return false;
      await this.write(loaded);
      return true;
    });
  }

  /** The saved target whose spec is exactly `spec` (a run request carries the spec, not the id). */
  async findBySpec(spec: unknown): Promise<SavedTarget | undefined> {
    const key = canonicalJson(spec);
    return (await this.list()).find((t) => canonicalJson(t.spec) === key);
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
