// A crash that escapes main() (an error thrown from a callback, a rejection nobody awaited) is one
// line on stderr, printed by installProcessGuards: masked and without terminal control sequences,
// as every other line the CLI writes on stderr (main.ts), though no command caught it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-guards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'pw-Zq95crash';

/** Runs `crash` (a statement) in a process with the CLI's guards and SECRET registered; its stderr and status. */
function crashWith(crash: string): Promise<{ code: number | null; stderr: string }> {
  const script = join(dir, `crash-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    script,
    [
      `import { installProcessGuards } from ${JSON.stringify(join(projectRoot, 'electron/node/cli/main.ts'))};`,
      `import { registerSecret } from ${JSON.stringify(join(projectRoot, 'electron/node/util/redact.ts'))};`,
      `registerSecret(${JSON.stringify(SECRET)});`,
      'installProcessGuards();',
      crash,
    ].join('\n'),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: projectRoot,
      env: { ...process.env, KVSCOPE_DEBUG: '' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a crash that escapes main', () => {
  it.each([
    [
      'thrown from a callback',
      `setTimeout(() => { throw new Error('auth failed for ${SECRET} \\x1b]0;owned\\x07'); });`,
    ],
    ['a rejection nobody awaited', `void Promise.reject(new Error('auth failed for ${SECRET} \\x1b]0;owned\\x07'));`],
  ])('%s: one line, the secret masked, no control sequence', async (_what, crash) => {
    const r = await crashWith(crash);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('kvscope: auth failed for *** ]0;owned\n');
  });
});
