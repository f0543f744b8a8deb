// Maps a URL path to a file of the built renderer (out/renderer), for browser mode and for the
// Electron shell's app:// protocol alike. Only regular files strictly inside the root are
// served: no directory listings, no `..`, no encoded separators, no symlinks leading out, no
// dotfiles.
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export type StaticLookup =
  { ok: true; filePath: string; contentType: string; sizeBytes: number } | { ok: false; status: 400 | 404 };

/**
 * `urlPath` is the path part of a request URL, still percent-encoded (e.g. "/assets/index-x.js").
 * "/" means index.html; every other directory is a 404, never a listing.
 */
export async function resolveStaticFile(rootDir: string, urlPath: string): Promise<StaticLookup> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { ok: false, status: 400 };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 400 };
  const segments = decoded.split('/').slice(1);
  // ".." anywhere is refused outright rather than normalised: a legitimate asset URL never has it.
  if (segments.some((s) => s === '..' || s === '.')) return { ok: false, status: 400 };
  if (segments.some((s) => s.startsWith('.'))) return { ok: false, status: 404 };
  const relative = decoded === '/' ? 'index.html' : segments.join('/');
  if (relative === '' || relative.endsWith('/')) return { ok: false, status: 404 };

  const root = resolve(rootDir);
  const candidate = resolve(root, relative);
  if (!candidate.startsWith(root + sep)) return { ok: false, status: 400 };
  try {
    // Resolve symlinks and check again: a link inside out/renderer must not lead outside it.
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
    if (!realFile.startsWith(realRoot + sep)) return { ok: false, status: 404 };
    const info = await stat(realFile);
    if (!info.isFile()) return { ok: false, status: 404 };
    return { ok: true, filePath: realFile, contentType: contentTypeFor(realFile), sizeBytes: info.size };
  } catch {
    return { ok: false, status: 404 };
  }
}
