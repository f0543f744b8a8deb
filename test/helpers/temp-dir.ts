// A temp folder for the tests of one describe block: made before them, removed after them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** `at(name)` is a path inside the folder (call it inside a test: the folder exists from beforeAll on). */
export function useTempDir(prefix: string): { at(name: string): string } {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    at(name) {
      if (!dir) throw new Error(`the temp folder ${prefix}… is not made yet (use it inside a test)`);
      return join(dir, name);
    },
  };
}
