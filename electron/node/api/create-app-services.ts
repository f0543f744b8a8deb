// Builds the AppServices: the handlers of every API method over the Node services. The same
// object serves the Electron window (IPC), browser mode (WebSocket bridge) and tests.
import { EventEmitter } from 'node:events';
import type { ApiEventName, ApiHandlers, EventPayload, EventSink } from '../../../shared/api/contract';
import { computeKv } from '../../../shared/kv/kv-theory';
import type { AppServices, AppServicesOptions } from './app-services';
import { RunService, type TargetFactory } from '../run/run-service';
import { LocalTarget } from '../target/local-target';

export interface CreateAppServicesOptions extends AppServicesOptions {
  /** How a run reaches its target; default: this computer only (SSH comes through options). */
  targetFactory?: TargetFactory;
}

const localOnly: TargetFactory = async (spec) => {
  if (spec.kind === 'local') return new LocalTarget();
  throw new Error('SSH targets are not available in this window yet');
};

export function createAppServices(options: CreateAppServicesOptions): AppServices {
  const bus = new EventEmitter();
  bus.setMaxListeners(100);
  const emit: EventSink = (event, payload) => void bus.emit('event', event, payload);
  const runs = new RunService(emit, options.targetFactory ?? localOnly);

  const requireRun = (runId: string) => {
    const run = runs.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    return run;
  };

  const handlers: ApiHandlers = {
    appInfo: async () => ({ version: options.version ?? '0.1.0', shell: options.shell, platform: process.platform }),
    listTargets: async () => [{ id: 'local', label: 'This computer', spec: { kind: 'local' } }],
    computeKv: async (input) => computeKv(input),
    startRun: async (request) => {
      const run = await runs.start(request);
      return { runId: run.runId };
    },
    stopRun: async ({ runId }) => ({ ok: await runs.stop(runId) }),
    listRuns: async () => runs.list(),
    getRun: async ({ runId }) => {
      const run = requireRun(runId);
      return {
        status: run.status,
        samples: run.samples,
        events: run.events,
        analysis: run.analysis,
        theory: { bytesPerToken: run.theoryBytesPerToken, ctx: run.ctx },
      };
    },
  };
  return {
    handlers,
    subscribe(sink) {
      const listener = <E extends ApiEventName>(event: E, payload: EventPayload<E>) => sink(event, payload);
      bus.on('event', listener);
      return () => void bus.off('event', listener);
    },
    dispose: () => runs.dispose(),
  };
}
