#!/usr/bin/env node
// The kvscope command. Runs the TypeScript CLI through tsx so that `npx kvscope` works right
// after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
const { main, installProcessGuards } = await import('../electron/node/cli/main.ts');
installProcessGuards();
process.exitCode = await main(process.argv.slice(2));
