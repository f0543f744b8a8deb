// Entry of the self-contained demo engine bundle: `node demo-engine.cjs '<config JSON>'`.
// The client validates and computes the config (demo-config.ts); this side only runs it, so
// the bundle needs nothing but Node (works on a board's old node).
import { nodeIo, runDemoEngine, type DemoEngineConfig } from './demo-engine';

const raw = process.argv[2];
if (!raw) {
  process.stderr.write('usage: node demo-engine.cjs <config JSON>\n');
  process.exit(2);
}
let config: DemoEngineConfig;
try {
  config = JSON.parse(raw) as DemoEngineConfig;
} catch {
  process.stderr.write('demo-engine: the config is not JSON\n');
  process.exit(2);
}
runDemoEngine(config, nodeIo());
