// Where KVScope's own files are (package.json, out/renderer, the demo engine's sources), found from
// this module's location: the sources (electron/node/util/), the CLI's bundle (out/cli/, built by
// scripts/build-cli.ts) and the app's main bundle (out/main/) sit at different depths below it, so
// no fixed `../..` is right for all three.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/** The nearest directory above this module whose package.json is KVScope's; null when there is none. */
export function packageRoot(): string | null {
  if (cached !== null) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'kvscope') return (cached = dir);
      } catch {
        // not ours, or unreadable: look further up
      }
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** A path below KVScope's root (`out/renderer`), or below the working directory when no root is found. */
export function packagePath(...parts: string[]): string {
  return join(packageRoot() ?? process.cwd(), ...parts);
}
