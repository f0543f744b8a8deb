// Writing the app's own small state files (saved boards, remembered secrets) so that a crash, a
// full disk or two writers at once never leave a half-written file: write a temp file next to
// the target (same directory = same file system, so rename is atomic), fsync it, rename it over
// the old one. The mode is set when the temp file is created, so the content is never readable
// by others, not even for a moment.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner read/write only: these files name the user's boards and may hold encrypted credentials. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

export async function writeFileAtomic(path: string, data: string | Buffer, mode = PRIVATE_FILE_MODE): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': never follow or reuse something already at the temp name.
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    // A umask could have narrowed the mode at creation; never widened. Make it exact.
    await handle.chmod(mode);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // An older file could have been created with a wider mode by another tool: rename replaced it.
  await chmod(path, mode).catch(() => undefined);
}

/** Runs writers one after another (read-modify-write of one file must not interleave). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
