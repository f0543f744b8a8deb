// vitest setup file (vitest.config.ts setupFiles): one fast-check seed per test file that uses
// fast-check, printed before the file runs. fast-check names the seed of a property that fails,
// but a property whose input kills the worker (a V8 fatal error, as a probe-parser fuzz input did
// in CI) leaves no report at all; the seed printed first makes that run reproducible:
//   KVSCOPE_FC_SEED=<seed> npx vitest run <file>
// The line goes to stderr with a synchronous write, so it is out before anything can crash.
import { randomInt } from 'node:crypto';
import { readFileSync, writeSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

const testPath = expect.getState().testPath;
/** The file, or a module it imports by a relative path (the parser test kits), imports fast-check. */
const usesFastCheck = (path: string, depth = 1): boolean => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return false;
  }
  if (/\bfrom 'fast-check'/.test(text)) return true;
  if (depth === 0) return false;
  return [...text.matchAll(/\bfrom '(\.{1,2}\/[^']+)'/g)].some((m) =>
    usesFastCheck(resolve(dirname(path), `${(m[1] ?? '').replace(/\.js$/, '')}.ts`), depth - 1),
  );
};

if (testPath && usesFastCheck(testPath)) {
  const fromEnv = process.env.KVSCOPE_FC_SEED;
  const seed = fromEnv !== undefined && /^-?\d+$/.test(fromEnv) ? Number(fromEnv) : randomInt(2 ** 31);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
  writeSync(2, `fast-check seed ${seed}: ${relative(process.cwd(), testPath)} (replay: KVSCOPE_FC_SEED=${seed})\n`);
}
