#!/usr/bin/env node
// `npm start`: the desktop app when Electron can run here, otherwise browser mode.
// - Electron: `electron-vite build`, then the Electron binary on this package.
// - Otherwise one line saying why, a build if out/ is missing or older than the sources, then
//   `node bin/kvscope.mjs web` (arguments after `npm start --` are passed on, e.g. --port 8080,
//   or --open <file.kvscope> — passed to the Electron app too, which opens that session).
// Expected failures print one line, never a stack trace.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Electron ≥ 45 downloads its binary on the first require('electron'); this long is allowed for it. */
const ELECTRON_PROBE_TIMEOUT_MS = 10 * 60_000;
/** A probe that takes longer than this is downloading: say so once. */
const DOWNLOAD_NOTICE_AFTER_MS = 2_000;
/** What `npm run build` reads: when any of it is newer than out/, out/ is stale. */
const BUILD_INPUTS = ['renderer', 'shared', 'electron', 'package.json', 'electron.vite.config.ts'];

class StartError extends Error {}

/** Runs a child; resolves with its exit code and captured output (or inherits stdio). */
function run(command, args, { capture = false, onSlow, timeoutMs } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (t) => (stdout += t));
    child.stderr?.setEncoding('utf8').on('data', (t) => (stderr += t));
    const slow = onSlow ? setTimeout(onSlow, DOWNLOAD_NOTICE_AFTER_MS) : null;
    const limit = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : null;
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (error) => {
      if (slow) clearTimeout(slow);
      reject(new StartError(`cannot run ${command}: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      if (slow) clearTimeout(slow);
      if (limit) clearTimeout(limit);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/** npm as the running npm started us (npm_execpath), so no shell is needed on any platform. */
function npmCommand(args) {
  const npmCli = process.env.npm_execpath;
  return npmCli && /\.[cm]?js$/.test(npmCli)
    ? [process.execPath, [npmCli, ...args]]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm', args];
}

/** The first "SomethingError: message" line of a child's stderr, else its last non-empty line. */
function shortReason(text) {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error = lines.map((l) => /^\w*Error(?: \[\w+\])?: (.+)$/.exec(l)).find(Boolean);
  return (error ? error[1] : (lines.at(-1) ?? 'no reason given')).slice(0, 160);
}

/** The Electron executable, or why there is none. Never lets Electron's installer print to the terminal. */
async function findElectron() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { reason: 'no display: DISPLAY is not set' };
  try {
    createRequire(import.meta.url).resolve('electron');
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  // require('electron') returns the binary's path, downloading it first if needed (and printing
  // the installer's stack trace when that fails): do it in a child whose output we keep.
  const probe = await run(process.execPath, ['-e', "process.stdout.write(String(require('electron')))"], {
    capture: true,
    timeoutMs: ELECTRON_PROBE_TIMEOUT_MS,
    onSlow: () => process.stderr.write('Downloading the Electron binary (first start only)…\n'),
  }).catch((error) => ({ code: 1, stdout: '', stderr: error.message }));
  const binary = probe.stdout.trim();
  if (probe.code === 0 && binary && existsSync(binary)) return { binary };
  return { reason: `no Electron binary: ${shortReason(probe.stderr || probe.stdout)}` };
}

function newestMtimeMs(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

function buildIsCurrent() {
  const built = statSync(join(ROOT, 'out', 'renderer', 'index.html'), { throwIfNoEntry: false });
  if (!built) return false;
  return BUILD_INPUTS.every((input) => newestMtimeMs(join(ROOT, input)) <= built.mtimeMs);
}

async function build() {
  const [command, args] = npmCommand(['run', 'build', '--silent']);
  const result = await run(command, args, { capture: true });
  if (result.code !== 0) {
    process.stderr.write((result.stdout + result.stderr).split('\n').slice(-20).join('\n') + '\n');
    throw new StartError('`npm run build` failed (output above)');
  }
}

/**
 * Arguments after `npm start --`, with the file of `--open <file.kvscope>` made absolute against
 * the directory npm was started from (INIT_CWD): the children run in the package root.
 */
function passedArgs() {
  const args = process.argv.slice(2);
  const base = process.env.INIT_CWD || process.cwd();
  return args.map((arg, i) =>
    args[i - 1] === '--open'
      ? resolve(base, arg)
      : arg.replace(/^--open=(.+)$/, (_m, f) => `--open=${resolve(base, f)}`),
  );
}

async function main() {
  const electron = await findElectron();
  if (electron.binary) {
    await build();
    const result = await run(electron.binary, [ROOT, ...passedArgs()]);
    return result.code;
  }
  process.stderr.write(`Electron cannot start on this machine (${electron.reason}); serving browser mode instead\n`);
  if (!buildIsCurrent()) await build();
  const result = await run(process.execPath, [join(ROOT, 'bin', 'kvscope.mjs'), 'web', ...passedArgs()]);
  return result.code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(
      `npm start: ${error instanceof StartError ? error.message : (error?.message ?? String(error)).split('\n')[0]}\n`,
    );
    process.exitCode = 1;
  },
);
