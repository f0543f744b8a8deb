// vitest globalSetup: one temporary folder for the whole test run, removed at its end. Every
// test process (and everything they start: sshd homes, run directories of local runs, engines,
// Chromium profiles) inherits TMPDIR pointing into it, so a run leaves nothing in the system's
// temp folder even when a test forgets to clean up or dies half-way. Searchable by all (0755):
// the SSH tests' login user reads its authorized_keys below it.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-tests-'));
  chmodSync(dir, 0o755);
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
