// `kvscope demo-engine [options]`: the synthetic reference workload, in this process.
import type { CliIo } from '../cli-io';
import { demoEngineConfig, parseDemoArgs } from '../../demo-engine/demo-config';
import { nodeIo, runDemoEngine } from '../../demo-engine/demo-engine';

export async function run(args: string[], io: CliIo): Promise<number> {
  const options = parseDemoArgs(args);
  const engineIo = { ...nodeIo(), out: io.out, err: io.err };
  runDemoEngine(demoEngineConfig(options), engineIo, () => io.signal.aborted);
  return 0;
}
