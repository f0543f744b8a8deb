// How CLI commands turn `<target>` and the SSH options into a Target. "local" needs nothing;
// SSH targets come from electron/node/target/target-spec.ts.
import { hostname, release, arch, cpus, totalmem } from 'node:os';
import type { TargetSpec } from '../../../shared/api/schemas';
import type { Target } from '../target/target';
import { LocalTarget } from '../target/local-target';
import { CliError } from './cli-io';
import type { TargetFactory } from '../run/run-service';

export const cliTargetSupport = {
  options: {} as Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>,
  async targetFromCli(text: string, _values: Record<string, unknown>): Promise<TargetSpec> {
    if (text === 'local') return { kind: 'local' };
    throw new CliError(`target "${text}": only "local" is supported in this build`, 2);
  },
  targetFactory(_values: Record<string, unknown>): TargetFactory {
    return async (spec) => {
      if (spec.kind === 'local') return new LocalTarget();
      throw new CliError('SSH targets are not supported in this build', 2);
    };
  },
  async targetFacts(target: Target): Promise<Record<string, unknown>> {
    if (target.kind === 'local') {
      return { kind: 'local', label: target.label, hostname: hostname(), arch: arch(), kernel: release(), cores: cpus().length, memTotalBytes: totalmem() };
    }
    return { kind: target.kind, label: target.label };
  },
};
