// JSON text that leaves the main side as text. A finished run's samples are stored packed as one
// JSON text (electron/node/session/run-snapshot.ts); parsing the 3.5 MB of an 8-hour run only to
// stringify it again into openSession's answer would cost tens of ms (bench/ui.bench.ts). A handler
// returns such text as a RawJson in place of the value, and each transport puts it in its answer:
//  - the WebSocket bridge (electron/node/web/bridge-server.ts) splices the text into the answer
//    unparsed (stringifyWithRawJson);
//  - Electron IPC sends values (structured clone), not text: resolveRawJson parses each text once
//    there (electron/main/index.ts);
//  - anything else that stringifies a RawJson (JSON.stringify) gets the parsed value, only slower.
// The text must be exactly one JSON value: whoever makes a RawJson of stored text checks that first
// (a session file is untrusted; shared/api/packed-samples.ts isPackedSamplesJson). The page then
// parses the answer as a whole, as it does every answer.

/** One JSON value as text, standing for a value of type T. */
export class RawJson<T> {
  constructor(readonly text: string) {}

  parse(): T {
    return JSON.parse(this.text) as T;
  }

  /** Inside stringifyWithRawJson a placeholder, spliced afterwards; in a plain JSON.stringify the value itself. */
  toJSON(): unknown {
    return splicing ? splicing.placeholder(this.text) : this.parse();
  }
}

/** The stringifyWithRawJson call under way (JSON.stringify is synchronous: at most one). */
let splicing: { placeholder(text: string): string } | null = null;

/** A character outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = new RegExp(NON_ASCII.source, 'g');
const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON text with every character outside ASCII written as its \uXXXX escape: the same value. (A
 * pair of surrogates becomes two escapes, which JSON reads back as the one character.)
 */
export function asciiJson(text: string): string {
  return NON_ASCII.test(text) ? text.replace(NON_ASCII_ALL, escapeChar) : text;
}

export interface StringifyOptions {
  /**
   * Only ASCII in the text (asciiJson). The WebSocket bridge asks for it: a browser makes a
   * received text of pure ASCII a one-byte string, and one character outside it (the "–" of a
   * session without a target, the "×" of a model shape) makes the whole answer two-byte — for an
   * 8-hour session 3.5 MB of cells, twice the memory and a slower JSON.parse (renderer CPU to
   * open it 310 → 280 ms, bench/ui.bench.ts). Each piece is escaped before the texts are spliced in
   * (finished runs' stored texts are ASCII as JSON.stringify wrote them: checked, not rewritten).
   */
  asciiOnly?: boolean;
}

/**
 * JSON.stringify(value) with the text of every RawJson in it written as it is. Each RawJson first
 * becomes a placeholder string ("<marker><index>", the marker random per call), which the text is
 * split at. Should a string of the value happen to hold the marker, there are more pieces than
 * texts, and the value is stringified the slow way instead (each RawJson parsed): always correct.
 */
export function stringifyWithRawJson(value: unknown, options: StringifyOptions = {}): string {
  const finish = options.asciiOnly ? asciiJson : (text: string) => text;
  const marker = `kvscope-raw-json-${Math.random().toString(36).slice(2)}-`;
  const texts: string[] = [];
  splicing = {
    placeholder(text) {
      texts.push(text);
      return `${marker}${texts.length - 1}`;
    },
  };
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = null;
  }
  if (texts.length === 0) return finish(text);
  const pieces = text.split(`"${marker}`);
  if (pieces.length !== texts.length + 1) return finish(JSON.stringify(value));
  const out: string[] = [finish(pieces[0] as string)];
  for (let i = 0; i < texts.length; i++) {
    const piece = pieces[i + 1] as string;
    const rest = `${i}"`;
    if (!piece.startsWith(rest)) return finish(JSON.stringify(value));
    out.push(finish(texts[i] as string), finish(piece.slice(rest.length)));
  }
  return out.join('');
}

/**
 * The value with every RawJson in it parsed (for transports that send values, not text): plain
 * objects and arrays are copied where they hold one, everything else is kept as it is.
 */
export function resolveRawJson<T>(value: T): T {
  return resolve(value) as T;
}

function resolve(value: unknown): unknown {
  if (value instanceof RawJson) return value.parse();
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const resolved = resolve(item);
      if (resolved !== item) (copy ??= value.slice())[i] = resolved;
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(value)) {
      const resolved = resolve(item);
      if (resolved !== item) (copy ??= { ...value })[key] = resolved;
    }
    return copy ?? value;
  }
  return value;
}
