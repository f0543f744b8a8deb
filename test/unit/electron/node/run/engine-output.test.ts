import { describe, expect, it } from 'vitest';
import { EngineOutput } from '../../../../../electron/node/run/engine-output';
import { MAX_KEPT_DIAGNOSTICS } from '../../../../../shared/collectors/collector';

describe('EngineOutput: the engine log of a live run', () => {
  it('counts the log lines it cannot read and keeps them as events, the first MAX_KEPT_DIAGNOSTICS with their line', () => {
    const out = new EngineOutput(undefined);
    // A failure (ggml-cuda, 2024+) and a timing line damaged in transit: both were dropped before.
    const oom =
      'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: out of memory';
    expect(out.read('E', 120, oom)).toEqual({
      newTokens: 0,
      events: [
        {
          tMs: 120,
          kind: 'info',
          message: 'engine log: engine out of memory',
          data: { reason: 'engine out of memory', text: oom },
        },
      ],
      diagnostics: 1,
    });
    const damaged = 'llama_perf_context_print:        eval time =    34#6.78 ms /   127 runs';
    expect(out.read('E', 130, damaged).events.map((e) => e.message)).toEqual(['engine log: unreadable timing line']);
    // A reading is a record, not an event; chatter is neither.
    expect(out.read('E', 140, 'llama_perf_context_print:        load time =     845.12 ms')).toEqual({
      newTokens: 0,
      events: [],
      diagnostics: 0,
    });
    expect(out.engineLog.timings.map((t) => [t.phase, t.ms])).toEqual([['load', 845.12]]);
    for (let i = 0; i < MAX_KEPT_DIAGNOSTICS + 5; i++) out.read('E', 200 + i, 'CUDA error: out of memory');
    expect(out.diagnostics).toBe(MAX_KEPT_DIAGNOSTICS + 7);
    // Past the first MAX_KEPT_DIAGNOSTICS of its reason a diagnostic is counted, not kept.
    expect(out.read('E', 999, 'Killed')).toEqual({ newTokens: 0, events: [], diagnostics: 1 });
    // One of another reason still is: a flood of one does not hide the next.
    const full = 'decode: failed to find a memory slot for batch of size 512';
    expect(out.read('E', 1000, full)).toEqual({
      newTokens: 0,
      events: [
        {
          tMs: 1000,
          kind: 'info',
          message: 'engine log: KV cache full',
          data: { reason: 'KV cache full', text: full },
        },
      ],
      diagnostics: 1,
    });
  });
});
