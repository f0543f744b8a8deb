// `kvscope demo-engine [options]`: the synthetic reference workload, in this process.
import type { CliIo } from '../cli-io';
import { demoEngineConfig, parseDemoArgs } from '../../demo-engine/demo-config';
import { nodeIo, runDemoEngine } from '../../demo-engine/demo-engine';

export function run(args: string[], io: CliIo): Promise<number> {
  const options = parseDemoArgs(args);
  const engineIo = { ...nodeIo(), out: (text: string) => io.out(text), err: (text: string) => io.err(text) };
  runDemoEngine(demoEngineConfig(options), engineIo, () => io.signal.aborted);
  return Promise.resolve(0);
}
