// Tokens in an engine's stdout as the launcher stamps it (electron/node/run/run-scripts.ts): `O`
// records are whole lines, `P` records text that arrived without its newline (one flushed write).
// With --token-regex: its matches in the line so far, less those counted already (a match may
// span records). Else one per line for engines that print a line per token, and one per flushed
// write for engines that stream text (llama.cpp's CLI): every `P` record counts, and an `O` counts
// only when its line came whole (no `P` before it), so a line the reader's window cut in two is
// one token. Writes closer together than that window merge, so a streamed count can run low: the
// engine's own final count then wins (shared/analysis/throughput.ts reconcileTokenEvents).
// The pattern is the user's and runs in this process: on V8's linear-time engine, never one that
// backtracks (shared/run/token-pattern.ts).
import '../util/linear-regexp';
import { LEGACY_NO_TOKENS_REGEX, SERVER_MODE_DEFAULTS } from '../../../shared/api/schemas';
import { compileTokenPattern } from '../../../shared/run/token-pattern';

export class StdoutTokenCounter {
  private readonly tokenRegex: RegExp | null;
  /** The stdout line being received (P records so far), for --token-regex matches that span records. */
  private line = '';
  private lineTokens = 0;
  /** Whether the stdout line being received came in P records (then its closing O is no new token). */
  private linePieces = false;

  constructor(tokenRegex: string | undefined) {
    // A run of an older version (recovered from its board) may hold server mode's old pattern.
    const source = tokenRegex === LEGACY_NO_TOKENS_REGEX ? SERVER_MODE_DEFAULTS.noTokensRegex : tokenRegex;
    this.tokenRegex = source ? compileTokenPattern(source) : null;
  }

  /** What a live count is made of, for the words of a reconciliation event. */
  get unit(): 'matches' | 'writes' {
    return this.tokenRegex ? 'matches' : 'writes';
  }

  /** Tokens in one stdout record. */
  push(tag: 'O' | 'P', text: string): number {
    if (this.tokenRegex) {
      const line = this.line + text;
      const matches = line.match(this.tokenRegex)?.length ?? 0;
      const n = Math.max(0, matches - this.lineTokens);
      this.line = tag === 'P' ? line : '';
      this.lineTokens = tag === 'P' ? matches : 0;
      return n;
    }
    const n = tag === 'P' || !this.linePieces ? 1 : 0;
    this.linePieces = tag === 'P';
    return n;
  }
}
