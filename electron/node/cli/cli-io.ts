// Where a CLI command writes. `--json` output goes to out() and nothing else does; progress
// and errors go to err(). Tests pass their own CliIo to capture both.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, for `parse … -`. */
  stdin: NodeJS.ReadableStream;
  /** Aborted on SIGINT/SIGTERM so long commands can stop cleanly. */
  signal: AbortSignal;
}

export function defaultIo(): CliIo {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    stdin: process.stdin,
    signal: controller.signal,
  };
}

/** An expected failure: printed as one line, exit status non-zero. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** node:util parseArgs with our error style (unknown options become a CliError, exit 2). */
export function parseCliArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = true,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
}

const sizeUnits: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gib: 1024 ** 3,
  t: 1e12,
  tb: 1e12,
  tib: 1024 ** 4,
};

/** "2GiB", "1.5 GB", "512MiB", "1000000" → bytes. */
export function parseBytes(text: string, what = 'size'): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = m ? sizeUnits[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new CliError(`${what}: cannot read "${text}" (e.g. 2GiB, 512MiB, 4000000000)`, 2);
  return Math.round(Number(m[1]) * unit);
}

/** "60s", "2m", "1500ms", "90" (seconds) → milliseconds. */
export function parseDurationMs(text: string, what = 'duration'): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|[smh])?$/.exec(text.trim());
  if (!m) throw new CliError(`${what}: cannot read "${text}" (e.g. 60s, 2m, 1500ms)`, 2);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'] as number;
  return Math.round(Number(m[1]) * factor);
}

export function parseIntArg(text: string | undefined, what: string, min = 1): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < min)
    throw new CliError(`${what}: expected a whole number ≥ ${min}, got "${text}"`, 2);
  return Number(text);
}
