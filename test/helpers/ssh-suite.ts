// A vitest suite that runs against one real sshd on loopback (test/helpers/sshd.ts): started before
// the suite's tests, with a known_hosts file that already trusts it, and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { RunRequestSchema, type RunRequest } from '../../shared/api/schemas';
import { ensureKeyUser, type Sshd, sshCliTarget, type SshdOptions, sshTargetSpec, startTrustedSshd } from './sshd';

export interface SshSuite {
  /** The running server (read it inside tests and hooks: it exists once beforeAll has run). */
  readonly sshd: Sshd;
  /** A known_hosts file holding the server's host key. */
  readonly knownHosts: string;
  /** Who logs in: the user running the tests, or the plain `kvscope-key` account when asked for. */
  readonly user: string;
  /** `user@host:port --identity … --known-hosts …`: the `<target>` of a CLI command. */
  cliTarget(): string[];
}

export interface SshSuiteOptions {
  /** Log in as the plain `kvscope-key` user (no root, no heavy shell profile), as on a field board. */
  keyUser?: boolean;
  /** Runs first in beforeAll (e.g. a check that the engine the suite needs is installed). */
  before?: () => void;
  /** How to start the server (e.g. `extraConfig: ['SetEnv TMPDIR=…']` for the sessions' environment). */
  sshd?: SshdOptions;
}

export function useTrustedSshd(options: SshSuiteOptions = {}): SshSuite {
  let started: { sshd: Sshd; knownHosts: string; user: string } | undefined;
  const get = () => {
    if (!started) throw new Error('the sshd of this suite is not started yet (read it inside a test)');
    return started;
  };
  beforeAll(async () => {
    options.before?.();
    const { sshd, knownHosts } = await startTrustedSshd(options.sshd);
    started = { sshd, knownHosts, user: options.keyUser ? await ensureKeyUser() : sshd.user };
  });
  afterAll(async () => {
    await started?.sshd.stop();
  });
  return {
    get sshd() {
      return get().sshd;
    },
    get knownHosts() {
      return get().knownHosts;
    },
    get user() {
      return get().user;
    },
    cliTarget: () => sshCliTarget(get().sshd, get().knownHosts, get().user),
  };
}

/** A run of the demo engine on a suite's server (a 4 MB weights buffer: quick to start); `demo` adds to it. */
export function sshDemoRequest(suite: SshSuite, demo: Record<string, unknown>, intervalMs = 100): RunRequest {
  return RunRequestSchema.parse({
    target: sshTargetSpec(suite.sshd, suite.knownHosts, suite.user),
    engine: { kind: 'demo', demo: { weightsMb: 4, ...demo } },
    intervalMs,
  });
}
