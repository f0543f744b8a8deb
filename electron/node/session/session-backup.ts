// A session is hours of someone's measurement: a new session never destroys one. When `profile
// --out` or `import --out` names an existing session (a script re-run with the same --out, a
// name reused by tab completion), the old one is moved aside to `<name>.<n><ext>` (run.kvscope →
// run.1.kvscope, then run.2.kvscope …; the highest number is the newest, as `cp
// --backup=numbered` counts) and the new one takes the name, so scripts that re-run keep working
// and read the newest session where they always did. Backups are never deleted or renumbered:
// removing them is the user's call. SQLite's -wal and -shm files go with their database (a session
// whose writer was killed keeps its last commits in its -wal).
import Database from 'better-sqlite3';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** The files of one SQLite database in WAL mode: the database, then its journal and shared memory. */
function databaseFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `<stem>.<n><ext>` one above the highest n in use next to `path` (a gap left by a deleted backup is not reused). */
export function nextBackupPath(path: string): string {
  const dir = dirname(path);
  const ext = extname(path);
  const stem = basename(path, ext);
  const numbered = new RegExp(`^${escapeRegExp(stem)}\\.(\\d{1,9})${escapeRegExp(ext)}(?:-wal|-shm)?$`);
  let highest = 0;
  for (const name of readdirSync(dir)) {
    const n = Number(numbered.exec(name)?.[1] ?? 0);
    if (n > highest) highest = n;
  }
  return join(dir, `${stem}.${highest + 1}${ext}`);
}

/**
 * Folds the session's -wal into the file and removes the -wal and -shm, as SQLite does when the last
 * connection closes: a killed writer's WAL, and the empty ones a read-only open (isSessionFile)
 * leaves behind, would otherwise sit next to the backup. Nothing is lost when this cannot be done
 * (another process has the session open, a read-only folder): the files move together.
 */
function foldJournal(path: string): void {
  try {
    const db = new Database(path, { fileMustExist: true });
    // SQLite reads the file, and so finds its WAL, at the first statement: a bare open and close does nothing.
    db.pragma('schema_version');
    db.close();
  } catch {
    // left as it is: keepPreviousSession moves the -wal and -shm with the file
  }
}

/** Moves the session at `path` (with its -wal and -shm) to nextBackupPath(path); returns where it went. */
export function keepPreviousSession(path: string): string {
  foldJournal(path);
  const keptAs = nextBackupPath(path);
  const from = databaseFiles(path);
  const to = databaseFiles(keptAs);
  from.forEach((file, i) => {
    if (existsSync(file)) renameSync(file, to[i] as string);
  });
  return keptAs;
}

/**
 * Undoes keepPreviousSession: the session at `path` (a new one that recorded nothing) is removed
 * and the one kept aside goes back to its name. For a command that failed before it stored a run.
 */
export function restorePreviousSession(path: string, keptAs: string): void {
  const kept = databaseFiles(keptAs);
  databaseFiles(path).forEach((file, i) => {
    rmSync(file, { force: true });
    if (existsSync(kept[i] as string)) renameSync(kept[i] as string, file);
  });
}
