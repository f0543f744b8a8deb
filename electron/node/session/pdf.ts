// HTML → PDF with the system's Chromium, headless (`--print-to-pdf`), so the PDF is the HTML
// report exactly as a browser prints it. Chromium runs with a throw-away profile and without
// any of its background networking; the page itself loads nothing (its CSP forbids it).
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where Chromium is looked for, in order (KVSCOPE_CHROMIUM first when set). */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** A quiet Chromium: no sandbox (root in CI), no GPU, none of its calls home (docs/DEVELOPING.md, "The test machine"). */
export const CHROMIUM_QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const CHROMIUM_PDF_FLAGS = [
  '--headless',
  ...CHROMIUM_QUIET_FLAGS,
  // No date/title/URL header and footer: the current name, and the one before Chromium 120.
  '--no-pdf-header-footer',
  '--print-to-pdf-no-header',
];

/** A report of a few runs prints in 1–3 s; a cold start on a slow disk takes longer. */
export const PDF_TIMEOUT_MS = 120_000;

export class PdfError extends Error {
  override name = 'PdfError';
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The Chromium to print with, or a one-line error naming what is missing. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.KVSCOPE_CHROMIUM;
  if (override) {
    if (executable(override)) return override;
    throw new PdfError(`PDF needs Chromium: KVSCOPE_CHROMIUM=${override} is not an executable file`);
  }
  const found = CHROMIUM_CANDIDATES.find(executable);
  if (!found)
    throw new PdfError(
      `PDF needs Chromium: ${CHROMIUM_CANDIDATES[0]} not found (install the "chromium" package, or set KVSCOPE_CHROMIUM to a Chromium/Chrome binary)`,
    );
  return found;
}

/** `signal`: stops the printing (Chromium is killed) and rejects with PdfError 'interrupted'. */
type PdfOptions = { chromium?: string; timeoutMs?: number; signal?: AbortSignal };

/** Prints `html` to a PDF file at `outPath` and resolves when the file is complete. */
export async function htmlToPdf(html: string, outPath: string, options: PdfOptions = {}): Promise<void> {
  writeFileSync(outPath, await htmlToPdfBytes(html, options));
}

/** Prints `html` to PDF and resolves with the PDF's bytes (`kvscope report -o -` writes them to stdout). */
export async function htmlToPdfBytes(html: string, options: PdfOptions = {}): Promise<Buffer> {
  const chromium = options.chromium ?? findChromium();
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-pdf-'));
  try {
    const page = join(dir, 'report.html');
    const pdf = join(dir, 'report.pdf');
    writeFileSync(page, html);
    const args = [
      ...CHROMIUM_PDF_FLAGS,
      `--user-data-dir=${join(dir, 'profile')}`,
      `--print-to-pdf=${pdf}`,
      pathToFileURL(page).href,
    ];
    const stderr = await new Promise<string>((resolve, reject) => {
      if (options.signal?.aborted) return reject(new PdfError('interrupted'));
      const child = spawn(chromium, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        if (err.length < 64_000) err += d.toString();
      });
      /** Kills Chromium and rejects: at the time limit, or on Ctrl-C (a large report prints for up to PDF_TIMEOUT_MS). */
      const stop = (reason: string) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        child.kill('SIGKILL');
        reject(new PdfError(reason));
      };
      const timer = setTimeout(
        () =>
          stop(`Chromium did not finish printing within ${Math.round((options.timeoutMs ?? PDF_TIMEOUT_MS) / 1000)} s`),
        options.timeoutMs ?? PDF_TIMEOUT_MS,
      );
      const onAbort = () => stop('interrupted');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const settled = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      child.on('error', (error) => {
        settled();
        reject(new PdfError(`cannot start Chromium (${chromium}): ${error.message}`));
      });
      child.on('close', (code) => {
        settled();
        if (code === 0) resolve(err);
        else reject(new PdfError(`Chromium exited with status ${code} while printing: ${lastMeaningfulLine(err)}`));
      });
    });
    let bytes: Buffer;
    try {
      bytes = readFileSync(pdf);
    } catch {
      throw new PdfError(`Chromium wrote no PDF: ${lastMeaningfulLine(stderr)}`);
    }
    if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
      throw new PdfError('Chromium wrote something that is not a PDF');
    return bytes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Chromium's stderr is mostly dbus noise: keep the last line that is not. */
function lastMeaningfulLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/dbus|Fontconfig|unexpected operator/i.test(l));
  return lines[lines.length - 1]?.slice(0, 300) ?? 'no message';
}
