// Packed samples' cells as base64 text of their float64 bytes: how a finished run's snapshot is
// stored (electron/node/session/run-snapshot.ts) and sent to a window (shared/api/packed-samples.ts).
// As a JSON array the 460,800 cells of an 8-hour run are 3.5 MB of digits that the page parses
// into as many JavaScript values (a heap number each for the fractional and the large ones, and
// the garbage collections that follow); as one base64 string (4.9 MB) they are a single string
// in the answer, decoded natively into one Float64Array (no value per cell on the JavaScript heap).
// A null cell is NaN, and so is a non-finite number, which JSON writes as null: the cells read back
// are what a JSON array of them gives (-0 too: 0); readers of cells take NaN as null.
// Bytes are little-endian whatever the machine (Electron's platforms all are; a big-endian one
// takes the DataView way).

/** Whether this machine stores a Float64Array's bytes little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;

/** Exactly base64 (RFC 4648, standard alphabet, padded) of a whole number of float64 values. */
const BASE64 = /^[\d+/a-z]*={0,2}$/i;

/** What this runtime has for base64 (the shared layer runs in node and in the page: neither's types are in scope). */
const runtime = globalThis as {
  Buffer?: {
    from(text: string, encoding: 'base64'): Uint8Array;
    from(bytes: Uint8Array): { toString(encoding: 'base64'): string };
  };
  atob?: (text: string) => string;
  btoa?: (binary: string) => string;
};
const uint8Array = Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array };

/** With the runtime's fastest base64 decoder: Uint8Array.fromBase64 (browsers), Buffer (node), else atob. */
function bytesOfBase64(text: string): Uint8Array {
  if (uint8Array.fromBase64) return uint8Array.fromBase64(text);
  if (runtime.Buffer) return runtime.Buffer.from(text, 'base64');
  if (!runtime.atob) throw new Error('no base64 decoder in this runtime');
  const binary = runtime.atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function base64OfBytes(bytes: Uint8Array): string {
  const native = (bytes as unknown as { toBase64?: () => string }).toBase64;
  if (native) return native.call(bytes);
  if (runtime.Buffer) return runtime.Buffer.from(bytes).toString('base64');
  if (!runtime.btoa) throw new Error('no base64 encoder in this runtime');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return runtime.btoa(binary);
}

/** Whether `text` is base64 of a whole number of float64 values (what cellsFromBase64 reads). */
export function isFloat64Base64(text: string): boolean {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return ((text.length / 4) * 3 - padding) % 8 === 0;
}

/** A cell as JSON would give it back: NaN for null and non-finite numbers, 0 for -0. */
function finiteOrNaN(cell: number | null | undefined): number {
  if (typeof cell !== 'number' || !Number.isFinite(cell)) return NaN;
  return cell === 0 ? 0 : cell;
}

/** The cells as base64 of their float64 bytes (little-endian; null and non-finite → NaN, as JSON's null). */
export function cellsToBase64(cells: ArrayLike<number | null>): string {
  const bytes = new Uint8Array(cells.length * 8);
  if (LITTLE_ENDIAN) {
    const values = new Float64Array(bytes.buffer);
    for (let i = 0; i < cells.length; i++) values[i] = finiteOrNaN(cells[i]);
  } else {
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < cells.length; i++) view.setFloat64(i * 8, finiteOrNaN(cells[i]), true);
  }
  return base64OfBytes(bytes);
}

/**
 * The cells of base64 text written by cellsToBase64 (NaN where a cell was null). Throws on text
 * that is not base64; a trailing part shorter than one value is left out.
 */
export function cellsFromBase64(text: string): Float64Array {
  const bytes = bytesOfBase64(text);
  const count = Math.floor(bytes.byteLength / 8);
  // A view needs its offset aligned to 8 (node's Buffer may hand out a slice of a shared pool).
  if (LITTLE_ENDIAN && bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, count);
  if (LITTLE_ENDIAN) return new Float64Array(bytes.slice(0, count * 8).buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) values[i] = view.getFloat64(i * 8, true);
  return values;
}
