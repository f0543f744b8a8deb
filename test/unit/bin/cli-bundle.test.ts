// Which code `kvscope` runs (bin/cli-bundle.mjs): the bundle while it is newer than every source it
// lists, else the sources; and both give the same answers (the real command, each way).
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freshCliBundle } from '../../../bin/cli-bundle.mjs';
import { kvscopeBin, projectRoot } from '../../helpers/cli';
import { orinLogLines } from '../../helpers/tegrastats-log';

const fresh = freshCliBundle;
const work = mkdtempSync(join(tmpdir(), 'kvscope-cli-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A root with sources a.ts and b.ts and a bundle built at `builtS` (seconds since the epoch) listing them. */
function tree(name: string, builtS: number, sourceS: [number, number]): string {
  const root = join(work, name);
  mkdirSync(join(root, 'out/cli'), { recursive: true });
  writeFileSync(join(root, 'a.ts'), '');
  writeFileSync(join(root, 'b.ts'), '');
  utimesSync(join(root, 'a.ts'), sourceS[0], sourceS[0]);
  utimesSync(join(root, 'b.ts'), sourceS[1], sourceS[1]);
  writeFileSync(join(root, 'out/cli/inputs.json'), JSON.stringify(['a.ts', 'b.ts']));
  writeFileSync(join(root, 'out/cli/main.js'), '');
  utimesSync(join(root, 'out/cli/main.js'), builtS, builtS);
  return root;
}

describe('freshCliBundle', () => {
  it('runs the bundle while every source it lists is older than it', () => {
    const root = tree('fresh', 2000, [1000, 1999]);
    expect(fresh(root, {})).toBe(pathToFileURL(join(root, 'out/cli/main.js')).href);
  });

  it('runs the sources when one is newer than the bundle, or gone', () => {
    expect(fresh(tree('stale', 2000, [1000, 2001]), {})).toBeNull();
    const root = tree('gone', 2000, [1000, 1000]);
    rmSync(join(root, 'b.ts'));
    expect(fresh(root, {})).toBeNull();
  });

  it('runs the sources without a bundle or its list, and when told to (KVSCOPE_CLI_FROM_SOURCE, KVSCOPE_DEBUG)', () => {
    const root = tree('told', 2000, [1000, 1000]);
    expect(fresh(root, { KVSCOPE_CLI_FROM_SOURCE: '1' })).toBeNull();
    expect(fresh(root, { KVSCOPE_DEBUG: '1' })).toBeNull();
    expect(fresh(root, { KVSCOPE_DEBUG: '0' })).not.toBeNull();
    writeFileSync(join(root, 'out/cli/inputs.json'), '[]');
    expect(fresh(root, {})).toBeNull();
    rmSync(join(root, 'out/cli/inputs.json'));
    expect(fresh(root, {})).toBeNull();
    expect(fresh(join(work, 'nothing-here'), {})).toBeNull();
  });
});

describe('the bundle and the sources', () => {
  const run = (args: string[], fromSource: boolean) =>
    spawnSync(process.execPath, [kvscopeBin, ...args], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, KVSCOPE_CLI_FROM_SOURCE: fromSource ? '1' : '', npm_package_version: undefined },
    });

  it('answer alike (a command, failure lines); the bundle writes sessions with the package version', () => {
    // `npm test` builds first; after a source changed since (test:unit alone), build the bundle here.
    if (fresh(projectRoot, {}) === null)
      expect(
        spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-cli.ts'], { cwd: projectRoot }).status,
      ).toBe(0);
    expect(fresh(projectRoot, {})).not.toBeNull();
    for (const args of [
      ['kv', '--layers', '16', '--kv-heads', '8', '--head-dim', '64', '--ctx', '4096', '--json'],
      ['report', join(work, 'no-such.kvscope'), '-o', join(work, 'r.md')],
      ['web', '--port', 'x'],
    ]) {
      const bundled = run(args, false);
      const source = run(args, true);
      expect([args[0], bundled.status, bundled.stdout, bundled.stderr]).toEqual([
        args[0],
        source.status,
        source.stdout,
        source.stderr,
      ]);
    }
    // The bundle finds package.json from out/cli/ as the sources do from electron/node/.
    const log = join(work, 'orin.log');
    writeFileSync(log, orinLogLines(5).join('\n') + '\n');
    const out = join(work, 'bundled.kvscope');
    expect(run(['import', 'tegrastats', log, '--out', out], false).status).toBe(0);
    const db = new Database(out, { readonly: true });
    const row = db.prepare("SELECT value FROM meta WHERE key = 'appVersion'").get() as { value: string };
    db.close();
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    expect(JSON.parse(row.value)).toBe(pkg.version);
  });
});
