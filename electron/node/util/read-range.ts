// Reading a byte range of an open file in full: FileHandle.read may return fewer bytes than asked
// (a pipe, a network file system), so it is called until the range is read or the file ends.
import type { FileHandle } from 'node:fs/promises';

/** Up to `length` bytes from `offset`; fewer only where the file ends first. */
export async function readRange(handle: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, offset + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/** Everything from `offset` to the end, for files whose size says nothing (procfs, sysfs: 0). */
export async function readToEnd(handle: FileHandle, offset: number, chunkBytes = 64 * 1024): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let at = offset; ;) {
    const buffer = Buffer.alloc(chunkBytes);
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, at);
    if (bytesRead === 0) break;
    parts.push(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
  return Buffer.concat(parts);
}
