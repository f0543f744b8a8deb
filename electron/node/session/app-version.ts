// The KVScope version written into session files (package.json "version").
import { readFileSync } from 'node:fs';

let cached: string | null = null;

export function appVersion(): string {
  if (cached) return cached;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      name?: string;
      version?: string;
    };
    cached = pkg.name === 'kvscope' && pkg.version ? pkg.version : null;
  } catch {
    cached = null;
  }
  // Bundled builds (electron-vite) have no package.json beside the module.
  cached ??= process.env.npm_package_version ?? 'unknown';
  return cached;
}
