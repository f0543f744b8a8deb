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

  // A file that breaks a rule ([path, source]), and the rules the check must name.
  const broken: Array<{ what: string; file: [string, string]; rules: string[] }> = [
    {
      what: 'shared/ imports a Node built-in',
      file: ['shared/kv/bad.ts', "import { readFileSync } from 'node:fs';\nexport const bad = readFileSync;\n"],
      rules: ['shared-is-pure'],
    },
    {
      what: 'shared/ imports from electron/',
      file: ['shared/kv/bad.ts', "import { f } from '../../electron/node/service';\nexport const bad = f;\n"],
      rules: ['shared-imports-only-shared'],
    },
    {
      what: 'the renderer imports the main side or Node',
      file: [
        'renderer/src/bad.ts',
        "import { f } from '../../electron/node/service';\nimport { join } from 'node:path';\nexport const bad = [f, join];\n",
      ],
      rules: ['renderer-not-to-electron', 'renderer-no-node'],
    },
    {
      what: 'a plain-Node service imports electron',
      file: ['electron/node/bad.ts', "import { app } from 'electron';\nexport const bad = app;\n"],
      rules: ['node-services-without-electron'],
    },
  ];
  it.each(broken)('fails when $what', ({ file: [path, source], rules }) => {
    write(path, source);
    const r = depcruise();
    expect(r.code).not.toBe(0);
    for (const rule of rules) expect(r.out).toContain(rule);
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
