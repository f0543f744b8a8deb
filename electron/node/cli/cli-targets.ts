// How CLI commands turn `<target>` and the SSH options into a Target (docs/DESIGN.md: local,
// user@host[:port], ssh://…, ~/.ssh/config aliases; --identity, --known-hosts,
// --accept-new-host-key, --password-env, --jump).
import { hostname, release, arch, cpus, totalmem } from 'node:os';
import type { TargetSpec } from '../../../shared/api/schemas';
import type { Target } from '../transport/target';
import {
  createTarget,
  createTargetOptionsFromCli,
  sshCliOptions,
  targetFromCli,
  TargetSpecError,
} from '../transport/target-spec';
import { probeTarget } from '../probe/probe';
import { CliError } from './cli-io';
import type { TargetFactory } from '../run/run-service';

export const cliTargetSupport = {
  options: sshCliOptions,
  async targetFromCli(text: string, values: Record<string, unknown>): Promise<TargetSpec> {
    try {
      return await targetFromCli(text, values);
    } catch (error) {
      if (error instanceof TargetSpecError) throw new CliError(error.message, 2);
      throw error;
    }
  },
  targetFactory(values: Record<string, unknown>, err?: (line: string) => void): TargetFactory {
    return (spec, signal) => createTarget(spec, { ...createTargetOptionsFromCli(values, err), signal });
  },
  /** The probe's facts for the summary; the local machine's basics if the probe fails. */
  async targetFacts(target: Target): Promise<Record<string, unknown>> {
    try {
      const probe = await probeTarget(target, { timeoutMs: 20_000 });
      return { kind: target.kind, label: target.label, ...probe };
    } catch {
      if (target.kind === 'local') {
        return {
          kind: 'local',
          label: target.label,
          hostname: hostname(),
          arch: arch(),
          kernel: release(),
          cores: cpus().length,
          memTotalBytes: totalmem(),
        };
      }
      return { kind: target.kind, label: target.label };
    }
  },
};
