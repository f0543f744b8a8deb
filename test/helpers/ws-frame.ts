import type { RawData } from 'ws';

/** The text of one WebSocket frame as `ws` hands it over (a Buffer, fragments, or an ArrayBuffer). */
export function frameText(data: RawData): string {
  const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  return bytes.toString('utf8');
}
