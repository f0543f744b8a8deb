// A run's link to its target, dropped and found again (spool-watch.ts onFollowEnded): the run
// goes on on the target, spooling, while these probe and reconnect with backoff.
import type { Target } from '../transport/target';

/** A command that must answer within this long on a live link (a stalled TCP link never errors). */
const PROBE_TIMEOUT_MS = 10_000;

/** True when the target answers a trivial command. */
export async function targetAnswers(target: Target): Promise<boolean> {
  try {
    await target.exec('true', { timeoutMs: PROBE_TIMEOUT_MS });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reconnects until the target answers again, `ended()` turns true, or `giveUpMs` pass. Throws why
 * it gave up; a refused host key and a refused login are final at once.
 */
export async function reconnectTarget(target: Target, giveUpMs: number, ended: () => boolean): Promise<void> {
  if (!target.reconnect) throw new Error('this target cannot reconnect');
  const giveUp = AbortSignal.timeout(giveUpMs);
  while (!ended()) {
    try {
      await target.reconnect({ maxAttempts: 1000, initialDelayMs: 250, maxDelayMs: 5000, signal: giveUp });
      await target.exec('true', { timeoutMs: PROBE_TIMEOUT_MS });
      return;
    } catch (error) {
      if (giveUp.aborted) throw error;
      const code = (error as { code?: string }).code ?? '';
      if (code.startsWith('HOST_KEY_') || code === 'SSH_AUTH_FAILED') throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
