// An engine (a board) that prints terminal control sequences: setting the window title (OSC 0),
// writing the clipboard (OSC 52), clearing the screen (CSI 2J), in 7-bit and C1 form. The CLI's
// lines on the user's terminal and the Markdown report (read with `cat`) carry the text, never the
// sequences; the live progress line keeps its own redraw (CR, erase line).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileArgs, runCli } from '../../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-terminal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// printf's octal escapes: ESC ] 0 ; … BEL, ESC ] 52 ; c ; … BEL, ESC [ 2 J, C1 CSI (U+009B) 2 J.
const ENGINE = `printf 'title\\033]0;PWNED\\007 clip\\033]52;c;cm0gLXJmIH4=\\007 clear\\033[2J c1\\302\\2332J end\\n' >&2; sleep 1; exit 3`;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex -- control characters are what is looked for

describe('terminal control sequences from the engine', () => {
  it('reach neither the terminal nor the Markdown report', async () => {
    const md = join(dir, 'r.md');
    const r = await runCli(profileArgs('local', ENGINE, '--interval-ms', '50', '--report', md));
    expect(r.code).toBe(1);
    // The failure line quotes the engine's last output as text.
    expect(r.stderr).toContain(
      'kvscope profile: engine exited with status 3: title]0;PWNED clip]52;c;cm0gLXJmIH4= clear[2J c12J end',
    );
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stdout).not.toMatch(CONTROL);
    const report = readFileSync(md, 'utf8');
    expect(report).toContain('title]0;PWNED clip]52;c;cm0gLXJmIH4= clear[2J c12J end');
    expect(report).not.toMatch(CONTROL);
  });
});
