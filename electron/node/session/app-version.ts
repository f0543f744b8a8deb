// The KVScope version written into session files (package.json "version").
import { readFileSync } from 'node:fs';
import { packagePath } from '../util/package-root';

let cached: string | null = null;

export function appVersion(): string {
  if (cached) return cached;
  try {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    cached = pkg.name === 'kvscope' && pkg.version ? pkg.version : null;
  } catch {
    cached = null;
  }
  // A packaged app without its package.json.
  cached ??= process.env.npm_package_version ?? 'unknown';
  return cached;
}
