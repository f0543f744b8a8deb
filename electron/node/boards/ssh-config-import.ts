// "Import from ~/.ssh/config": every concrete Host entry, resolved the way ssh(1) resolves it
// (HostName, User, Port, ProxyJump, IdentityFile, UserKnownHostsFile, ServerAliveInterval), as
// a ready-to-save spec. Nothing is saved here: the user picks, then the UI calls saveBoard.
import { stat } from 'node:fs/promises';
import type { SshConfigHost, SshTargetSpec } from '../../../shared/api/schemas';
import {
  listSshConfigHosts,
  readSshConfigText,
  resolveSshAlias,
  sshConfigPath,
  type SshAliasResolution,
} from '../transport/ssh-config';
import { normalizeSavedSpec, type BoardStore } from './board-store';

export interface SshConfigImport {
  path: string;
  found: boolean;
  hosts: SshConfigHost[];
}

/**
 * What ssh(1) itself would refuse in an entry that the board spec cannot show: without this, a
 * `Port abc` was dropped (the board went to port 22) and `HostName orin:2222` became a host name.
 */
function entryProblem(r: SshAliasResolution): string | undefined {
  if (r.badPort !== undefined) return `Port ${r.badPort} is not a port (1–65535)`;
  if (/^[^:]+:\d*$/.test(r.hostName)) return `HostName ${r.hostName} has a port in it: give it on a Port line`;
  return undefined;
}

export async function importSshConfig(
  boards: BoardStore,
  options: { env?: NodeJS.ProcessEnv; homeDir?: string } = {},
): Promise<SshConfigImport> {
  const path = sshConfigPath(options.env ?? process.env);
  const found = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!found) return { path, found, hosts: [] };
  const text = await readSshConfigText(path, { homeDir: options.homeDir });
  const saved = await boards.list().catch(() => []);
  const hosts: SshConfigHost[] = [];
  for (const entry of listSshConfigHosts(text, { homeDir: options.homeDir })) {
    const r = resolveSshAlias(entry.alias, text, { homeDir: options.homeDir });
    const raw: SshTargetSpec = {
      kind: 'ssh',
      host: r.hostName,
      port: r.port,
      user: r.user,
      alias: entry.alias,
      identityFile: r.identityFiles[0],
      jump: r.proxyJump.length ? r.proxyJump : undefined,
      knownHostsFile: r.userKnownHostsFiles?.[0],
      keepaliveSec: r.serverAliveIntervalSec !== undefined ? Math.min(r.serverAliveIntervalSec, 3600) : undefined,
    };
    let spec: SshConfigHost['spec'] = null;
    let problem = entryProblem(r);
    if (problem === undefined) {
      try {
        spec = normalizeSavedSpec(raw, options.homeDir);
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    const savedBoard = saved.find((t) => t.spec.alias === entry.alias);
    hosts.push({
      alias: entry.alias,
      hostName: r.hostName,
      user: r.user,
      port: r.port,
      proxyJump: r.proxyJump,
      identityFiles: r.identityFiles,
      knownHostsFile: r.userKnownHostsFiles?.[0],
      unsupported: r.unsupported,
      spec,
      ...(problem ? { problem } : {}),
      ...(savedBoard ? { savedBoardId: savedBoard.id } : {}),
    });
  }
  return { path, found, hosts };
}
