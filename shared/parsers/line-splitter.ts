// Streaming line splitter. Output from SSH channels, child processes and files arrives in chunks
// that split wherever the transport likes: in the middle of a line, between \r and \n, inside a
// multi-byte UTF-8 character. This turns any chunking of the same bytes into the same lines.
//
// - Line terminators: \n, \r\n and a lone \r (progress output, old pastes), like Node's readline.
//   A chunk ending in \r is held until the next chunk says whether \n follows.
// - A final line without a terminator is returned by end(); a terminator at the very end does not
//   make an extra empty line.
// - A leading UTF-8 byte-order mark is dropped.
// - Bytes are decoded as UTF-8 (invalid sequences become U+FFFD) with a streaming decoder, so a
//   character split across chunks is decoded once, whole.
// - A line longer than MAX_LINE_CHARS (line-cap.ts, with its reason) keeps its first characters;
//   the rest is counted and dropped as it streams in — a line without a newline never makes the
//   splitter hold more than the cap. `pushLines`/`endLines` say how many characters each line lost
//   (parsers turn that into a diagnostic, see capLines); `push`/`end` give the kept text only.
//
// shared/ sees no DOM or Node types; TextDecoder is looked up on globalThis (every runtime we run
// in has it: Node ≥ 11, Electron, browsers) and a small decoder below stands in if it is missing.

import { MAX_LINE_CHARS } from './line-cap';

interface Utf8Decoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
type DecoderCtor = new (label?: string) => Utf8Decoder;

function makeDecoder(): Utf8Decoder {
  const Ctor = (globalThis as unknown as { TextDecoder?: DecoderCtor }).TextDecoder;
  return Ctor ? new Ctor('utf-8') : new FallbackUtf8Decoder();
}

/**
 * Streaming UTF-8 decoder used only when the runtime has no TextDecoder: the decoder algorithm of
 * the WHATWG Encoding Standard, so it gives exactly TextDecoder('utf-8')'s output, U+FFFD for each
 * maximal invalid subpart included.
 */
export class FallbackUtf8Decoder implements Utf8Decoder {
  private needed = 0;
  private seen = 0;
  private codePoint = 0;
  private lower = 0x80;
  private upper = 0xbf;

  decode(input: Uint8Array = new Uint8Array(0), options: { stream?: boolean } = {}): string {
    let out = '';
    for (let i = 0; i < input.length; i++) {
      const b = input[i] ?? 0;
      if (this.needed === 0) {
        if (b <= 0x7f) out += String.fromCharCode(b);
        else if (b >= 0xc2 && b <= 0xdf) {
          this.needed = 1;
          this.codePoint = b & 0x1f;
        } else if (b >= 0xe0 && b <= 0xef) {
          if (b === 0xe0) this.lower = 0xa0;
          if (b === 0xed) this.upper = 0x9f;
          this.needed = 2;
          this.codePoint = b & 0x0f;
        } else if (b >= 0xf0 && b <= 0xf4) {
          if (b === 0xf0) this.lower = 0x90;
          if (b === 0xf4) this.upper = 0x8f;
          this.needed = 3;
          this.codePoint = b & 0x07;
        } else out += '\ufffd';
        continue;
      }
      if (b < this.lower || b > this.upper) {
        // The sequence broke off: one U+FFFD for it, and the byte is read again as a fresh start.
        this.reset();
        out += '\ufffd';
        i--;
        continue;
      }
      this.lower = 0x80;
      this.upper = 0xbf;
      this.codePoint = (this.codePoint << 6) | (b & 0x3f);
      if (++this.seen === this.needed) {
        out += String.fromCodePoint(this.codePoint);
        this.reset();
      }
    }
    if (!options.stream && this.needed !== 0) {
      this.reset();
      out += '\ufffd';
    }
    return out;
  }

  private reset(): void {
    this.needed = 0;
    this.seen = 0;
    this.codePoint = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }
}

/** A line as split: its text (at most the cap) and the characters dropped beyond the cap. */
export interface SplitLine {
  text: string;
  droppedChars: number;
}

export class LineSplitter {
  /** The current line so far (never longer than the cap). */
  private carry = '';
  /** Characters of the current line dropped beyond the cap. */
  private dropped = 0;
  /** The previous chunk ended with \r: a \n at the start of the next chunk belongs to it. */
  private pendingCr = false;
  private started = false;
  private decoder: Utf8Decoder | null = null;
  private readonly maxLineChars: number;

  constructor(options: { maxLineChars?: number } = {}) {
    this.maxLineChars = Math.max(2, options.maxLineChars ?? MAX_LINE_CHARS);
  }

  /** Feed a chunk (bytes or already-decoded text); returns the lines it completed (kept text only). */
  push(chunk: string | Uint8Array): string[] {
    return this.pushLines(chunk).map((l) => l.text);
  }

  /** Flush: the last line if it had no terminator (kept text only). */
  end(): string[] {
    return this.endLines().map((l) => l.text);
  }

  /** Feed a chunk; returns the lines it completed with the characters each lost to the cap. */
  pushLines(chunk: string | Uint8Array): SplitLine[] {
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else {
      this.decoder ??= makeDecoder();
      text = this.decoder.decode(chunk, { stream: true });
    }
    return this.split(text, false);
  }

  /** Flush: the last line if it had no terminator, with the characters it lost to the cap. */
  endLines(): SplitLine[] {
    const tail = this.decoder ? this.decoder.decode(new Uint8Array(0), { stream: false }) : '';
    this.decoder = null;
    return this.split(tail, true);
  }

  private split(text: string, final: boolean): SplitLine[] {
    const lines: SplitLine[] = [];
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.pendingCr && text.length > 0) {
      this.pendingCr = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    const n = text.length;
    // indexOf for both terminators, each searched again only once passed (one pass over the text).
    let nl = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    while (nl !== -1 || cr !== -1) {
      let end: number;
      let next: number;
      if (cr === -1 || (nl !== -1 && nl < cr)) {
        end = nl;
        next = nl + 1;
      } else {
        end = cr;
        if (cr + 1 < n) next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        else {
          next = cr + 1;
          this.pendingCr = true;
        }
      }
      this.append(text, start, end);
      lines.push(this.take());
      start = next;
      if (nl !== -1 && nl < start) nl = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    if (start < n) this.append(text, start, n);
    if (final) {
      if (this.carry.length > 0 || this.dropped > 0) lines.push(this.take());
      this.carry = '';
      this.dropped = 0;
      this.pendingCr = false;
    }
    return lines;
  }

  /** Add text[from, to) to the current line, dropping (and counting) what exceeds the cap. */
  private append(text: string, from: number, to: number): void {
    const room = this.maxLineChars - this.carry.length;
    const len = to - from;
    if (len <= room) {
      if (len > 0) this.carry += text.slice(from, to);
      return;
    }
    if (room > 0) this.carry += text.slice(from, from + room);
    this.dropped += len - Math.max(room, 0);
  }

  private take(): SplitLine {
    let text = this.carry;
    let droppedChars = this.dropped;
    // Never end a cut line on half a surrogate pair (the same cut whatever the chunking).
    if (droppedChars > 0) {
      const last = text.charCodeAt(text.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        text = text.slice(0, -1);
        droppedChars++;
      }
    }
    this.carry = '';
    this.dropped = 0;
    return { text, droppedChars };
  }
}

/** All lines of a whole text (same rules as the streaming splitter; cut lines keep their first characters). */
export function splitLines(text: string, options: { maxLineChars?: number } = {}): string[] {
  const s = new LineSplitter(options);
  return [...s.push(text), ...s.end()];
}
