// Writes the self-contained demo engine to out/demo-engine/demo-engine.cjs (packaged apps
// upload this file to boards; in development it is bundled on first use).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoEngineBundle } from '../electron/node/demo-engine/demo-engine-bundle';

const outDir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../out/demo-engine');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'demo-engine.cjs'), await demoEngineBundle(), { mode: 0o755 });
