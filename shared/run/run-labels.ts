// How a run is named to people: one place, so the session list, the reports and the exports
// name a model alike. Pure.
import type { RunRequest } from '../api/schemas';
import type { RunRecord } from './run-record';

/**
 * The stop event's reason when the user pressed Stop (electron/node/run/run-controller.ts stop()'s
 * default): how the window and the session list tell a stopped run from one that ended by itself.
 */
export const USER_STOP_REASON = 'stopped by user';
/** The stop event's reason when the CLI's user stopped the run with a signal (Ctrl-C, kill). */
export const INTERRUPT_STOP_REASON = 'interrupted';
/** The stop event's reason when the app closed under a run that was not to keep running. */
export const APP_CLOSING_STOP_REASON = 'app closing';

/**
 * Whether a run was stopped by its user, at the window's Stop or the CLI's Ctrl-C, rather than
 * ending by itself: the window's STOPPED badge and the session list's state.
 */
export function isUserStop(event: { kind: string; message?: string }): boolean {
  return event.kind === 'stop' && (event.message === USER_STOP_REASON || event.message === INTERRUPT_STOP_REASON);
}

const MODEL_FLAG = /(?:^|\s)(?:-m|--model)(?:=|\s+)("[^"]*"|'[^']*'|\S+)/;
const basename = (path: string) => path.split('/').pop() || path;

/** The model a run measured: the GGUF header's name, the --gguf file, the engine's -m file, or the demo shape. */
export function modelLabel(run: Pick<RunRecord, 'request' | 'engine'>): string {
  const model = run.engine?.model;
  if (model && typeof model === 'object') {
    const { name, architecture } = model as { name?: unknown; architecture?: unknown };
    if (typeof name === 'string' && name) return name;
    if (typeof architecture === 'string' && architecture) return architecture;
  }
  const engine = run.request.engine;
  if (engine.kind === 'command' && engine.gguf) return basename(engine.gguf);
  // llama.cpp and its kin name the model with -m / --model.
  const m = MODEL_FLAG.exec(run.engine?.command ?? '');
  if (m?.[1]) return basename(m[1].replace(/^(["'])(.*)\1$/, '$2'));
  if (engine.kind === 'demo') {
    const d = engine.demo;
    return `demo ${d.layers}L×${d.kvHeads}H×${d.headDim} ${d.kvType}`;
  }
  return '';
}

/**
 * The label of a run nobody named: the demo's shape, or the start of the engine command. `mask`
 * hides the command's secrets BEFORE it is cut: cut first, a secret across the cut kept its start,
 * which no mask recognises any more (electron/node/util/redact.ts).
 */
export function defaultRunLabel(request: RunRequest, mask: (text: string) => string = (text) => text): string {
  if (request.engine.kind === 'demo') {
    const d = request.engine.demo;
    return `demo ${d.mode} ${d.layers}L×${d.kvHeads}H×${d.headDim} ${d.kvType}`;
  }
  return mask(request.engine.command).slice(0, 80);
}
