// The layering rules (docs/DESIGN.md, docs/DEVELOPING.md) are enforced by dependency-cruiser and by
// per-layer tsconfigs. These tests break each rule on purpose, in a scratch tree laid out like
// the project, and check that the real checkers fail on it — and pass on a clean tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../helpers/cli';

let scratch: string;

function write(rel: string, text: string) {
  mkdirSync(dirname(join(scratch, rel)), { recursive: true });
  writeFileSync(join(scratch, rel), text);
}

function depcruise(): { code: number | null; out: string } {
  const r = spawnSync(
    process.execPath,
    [
      join(projectRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
      'shared',
      'electron',
      'renderer',
    ],
    {
      cwd: scratch,
      encoding: 'utf8',
    },
  );
  return { code: r.status, out: r.stdout + r.stderr };
}

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'kvscope-layers-'));
  for (const f of [
    '.dependency-cruiser.cjs',
    'tsconfig.base.json',
    'tsconfig.shared.json',
    'tsconfig.renderer.json',
    'tsconfig.node.json',
  ]) {
    cpSync(join(projectRoot, f), join(scratch, f));
  }
  // The scratch tree resolves packages from the project's node_modules.
  execFileSync('ln', ['-s', join(projectRoot, 'node_modules'), join(scratch, 'node_modules')]);
  write('shared/kv/math.ts', 'export const two = 2;\n');
  write(
    'electron/node/service.ts',
    "import { readFileSync } from 'node:fs';\nimport { two } from '../../shared/kv/math';\nexport const f = () => readFileSync('/x') && two;\n",
  );
  write('renderer/src/app.ts', "import { two } from '../../shared/kv/math';\nexport const app = two;\n");
});

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('layering check (dependency-cruiser)', () => {
  it('passes a tree that keeps the rules', () => {
    const r = depcruise();
    expect(r.out).toContain('no dependency violations');
    expect(r.code).toBe(0);
  });

  it('fails when shared/ imports a Node built-in', () => {
    write('shared/kv/bad.ts', "import { readFileSync } from 'node:fs';\nexport const bad = readFileSync;\n");
    const r = depcruise();
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('shared-is-pure');
  });

  it('fails when shared/ imports from electron/', () => {
    write('shared/kv/bad.ts', "import { f } from '../../electron/node/service';\nexport const bad = f;\n");
    const r = depcruise();
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('shared-imports-only-shared');
  });

  it('fails when the renderer imports the main side or Node', () => {
    write(
      'renderer/src/bad.ts',
      "import { f } from '../../electron/node/service';\nimport { join } from 'node:path';\nexport const bad = [f, join];\n",
    );
    const r = depcruise();
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('renderer-not-to-electron');
    expect(r.out).toContain('renderer-no-node');
  });

  it('fails when a plain-Node service imports electron', () => {
    write('electron/node/bad.ts', "import { app } from 'electron';\nexport const bad = app;\n");
    const r = depcruise();
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('node-services-without-electron');
  });
});

describe('per-layer type check', () => {
  const tsc = (config: string) =>
    spawnSync(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', config], {
      cwd: scratch,
      encoding: 'utf8',
    });

  it('shared/ cannot use Node or DOM globals', () => {
    expect(tsc('tsconfig.shared.json').status).toBe(0);
    write('shared/kv/uses-globals.ts', 'export const a = process.env.HOME;\nexport const b = document.title;\n');
    const r = tsc('tsconfig.shared.json');
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain("Cannot find name 'process'");
    expect(r.stdout).toContain("Cannot find name 'document'");
  });

  it('renderer/ sees the DOM but not Node', () => {
    write('renderer/src/uses-node.ts', 'export const t = document.title;\nexport const b = Buffer.from("x");\n');
    const r = tsc('tsconfig.renderer.json');
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain("Cannot find name 'Buffer'");
    expect(r.stdout).not.toContain("Cannot find name 'document'");
  });
});
