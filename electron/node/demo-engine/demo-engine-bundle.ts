// The demo engine as ONE self-contained CommonJS file, for `node` on a target (uploaded over
// SSH, or written into the run directory locally). Built with esbuild on first use and cached;
// `npm run build` also writes it to out/demo-engine/ for packaged apps.
import { existsSync, readFileSync } from 'node:fs';
import { packagePath } from '../util/package-root';

const ENTRY = packagePath('electron/node/demo-engine/demo-engine-entry.ts');
/** Oldest Node we expect on a board (Ubuntu 18.04 / JetPack 4 ship node 8–12 via apt or nvm). */
export const DEMO_ENGINE_NODE_TARGET = 'node12';

let cached: Promise<string> | undefined;

export function demoEngineBundle(): Promise<string> {
  cached ??= (async () => {
    const prebuilt = packagePath('out/demo-engine/demo-engine.cjs');
    if (existsSync(prebuilt) && !existsSync(ENTRY)) return readFileSync(prebuilt, 'utf8');
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: DEMO_ENGINE_NODE_TARGET,
      write: false,
      logLevel: 'silent',
      legalComments: 'none',
    });
    return '#!/usr/bin/env node\n' + (result.outputFiles[0]?.text ?? '');
  })();
  return cached;
}
