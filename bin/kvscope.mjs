#!/usr/bin/env node
// The kvscope command. Runs the CLI's bundle (out/cli/, written by `npm run build`) while it is
// newer than every source it was built from, else the TypeScript sources through tsx, so that
// `npx kvscope` works right after `npm install`, with no build step (bin/cli-bundle.mjs).
import { fileURLToPath } from 'node:url';
import { freshCliBundle } from './cli-bundle.mjs';

const bundle = freshCliBundle(fileURLToPath(new URL('..', import.meta.url)));
let cli;
if (bundle !== null) {
  cli = await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../electron/node/cli/main.ts');
}
cli.installProcessGuards();
process.exitCode = await cli.main(process.argv.slice(2));
