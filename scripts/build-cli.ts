// Writes the `kvscope` command's bundle to out/cli/ (bin/kvscope.mjs runs it while it is fresh):
// the CLI's TypeScript as plain ES modules, one chunk per command (main.ts imports each command
// when it runs), dependencies left to node_modules. Running the sources through tsx costs its
// loader thread and a resolve-and-transform round trip per module: ~0.4 s before any command
// starts (2-core x86 VM), against ~0.05 s for the bundle. out/cli/inputs.json lists the sources
// it was built from, for bin/cli-bundle.mjs's freshness check.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const outDir = join(root, 'out/cli');
rmSync(outDir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'electron/node/cli/main.ts' },
  outdir: outDir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  metafile: true,
  logLevel: 'warning',
});
writeFileSync(join(outDir, 'inputs.json'), JSON.stringify(Object.keys(result.metafile.inputs).sort(), null, 1) + '\n');
