// Which code `kvscope` runs: the bundle `npm run build` wrote to out/cli/ (scripts/build-cli.ts)
// while it is fresh, else the TypeScript sources (through tsx), so the command works right after
// `npm install` and never runs code older than the sources beside it.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const set = (value) => value !== undefined && value !== '' && value !== '0';

/**
 * The URL of out/cli/main.js under `root`, or null to run the sources: when there is no bundle, when
 * a source it lists (out/cli/inputs.json) is newer than it or gone, with KVSCOPE_CLI_FROM_SOURCE
 * set, or with KVSCOPE_DEBUG set (its stacks then name the .ts files and lines).
 */
export function freshCliBundle(root, env = process.env) {
  if (set(env.KVSCOPE_CLI_FROM_SOURCE) || set(env.KVSCOPE_DEBUG)) return null;
  const main = join(root, 'out/cli/main.js');
  let builtMs;
  let inputs;
  try {
    builtMs = statSync(main).mtimeMs;
    inputs = JSON.parse(readFileSync(join(root, 'out/cli/inputs.json'), 'utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return null;
  for (const input of inputs) {
    try {
      if (typeof input !== 'string' || statSync(join(root, input)).mtimeMs > builtMs) return null;
    } catch {
      return null;
    }
  }
  return pathToFileURL(main).href;
}
