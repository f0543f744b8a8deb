// ollama's own memory lines (its Go engine, 2025+), which replace llama.cpp's KV and buffer lines
// when ollama runs a model on that engine. Lines cut verbatim from published ollama logs (journald
// prefix included), values read off them by hand.
import { describe, expect, it } from 'vitest';
import {
  diagnostics,
  MiB,
  ofKind,
  parse,
  parseClean,
  parseFixture,
  parseFixtureClean,
} from '../../../helpers/parser-test-kit';
import { SERVER_MEMORY_REASON, SERVER_STATE_REASON } from '../../../../shared/parsers/llama-log-server';

/** A file of test/fixtures/llama-cpp/format-strings-2023-2026 (see its SOURCE), parsed; no diagnostics expected. */
const clean = (name: string) => parseFixtureClean('llama-log', `llama-cpp/format-strings-2023-2026/${name}`);

describe("ollama's memory lines", () => {
  it('kv cache per device is a KV buffer; model weights, compute graph and total memory one model record per load', () => {
    // Lines 1–8: ollama on a ROCm machine, September 2025 (backend.go), as journald shows it
    // (github.com/ROCm/ROCm issue 4909). Lines 9–14: ollama on a CPU-only Raspberry Pi 5,
    // February 2026 (device.go), as its user published it (github.com/josheeg/Game-Note-).
    const all = clean('ollama-memory-2025-2026.txt');
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.device, k.sizeBytes, k.source])).toEqual([
      [4, 'device-buffer', 'ROCm0', 450 * MiB, 'ollama'],
      [11, 'device-buffer', 'CPU', 384 * MiB, 'ollama'],
    ]);
    expect(ofKind(all, 'model')).toEqual([
      {
        kind: 'model',
        line: 1,
        source: 'ollama',
        extra: {
          'offloaded layers': '37/37',
          'ROCm0 model weights': '59.8 GiB',
          'CPU model weights': '1.1 GiB',
          'ROCm0 compute graph': '121.8 MiB',
          'CPU compute graph': '5.6 MiB',
          'total memory': '61.4 GiB',
        },
      },
      {
        kind: 'model',
        line: 9,
        source: 'ollama',
        extra: {
          'offloaded layers': '0/49',
          'CPU model weights': '10.1 GiB',
          'CPU compute graph': '88.0 MiB',
          'total memory': '10.5 GiB',
        },
      },
    ]);
  });

  it("the engine's first releases (July 2025): the device under buffer= and backend=, not device=", () => {
    // ggml.go printed `msg="model weights" buffer=CUDA0 size=…` and `msg="compute graph" backend=CUDA0
    // buffer_type=CUDA0 size=…` (github.com/ollama/ollama pull 11090): an earlier reader wanted device=
    // and made every such line a diagnostic, so the weights on each GPU were lost.
    const weights = clean('ollama-model-weights-buffer-2025-07.txt');
    expect(ofKind(weights, 'model')).toEqual([
      {
        kind: 'model',
        line: 4,
        source: 'ollama',
        extra: {
          'offloaded layers': '41/41',
          'CUDA0 model weights': '11.5 GiB',
          'CUDA1 model weights': '11.9 GiB',
          'CPU model weights': '680.0 MiB',
          'CUDA0 compute graph': '0 B',
        },
      },
    ]);
    // The graph reserved twice on ROCm: each reservation kept, the second one marked.
    const graphs = clean('ollama-compute-graph-backend-2025-07.txt');
    expect(ofKind(graphs, 'model').map((m) => m.extra)).toEqual([
      {
        'ROCm0 compute graph': '1.1 GiB',
        'CPU compute graph': '0 B',
        'ROCm0#2 compute graph': '1.1 GiB',
        'CPU#2 compute graph': '10.5 MiB',
      },
    ]);
    // Written from ggml.go of spring 2025 (slog.Info("compute graph", "backend", …, "buffer_type", …)):
    // the backends listed before any graph is reserved, with no size: no reading, and no diagnostic.
    const listed = parse(
      'llama-log',
      'time=2025-04-01T10:00:00.000Z level=INFO source=ggml.go:289 msg="compute graph" backend=CPU buffer_type=CPU',
    );
    expect(listed).toEqual([]);
  });

  it('a memory line whose size cannot be read is a diagnostic', () => {
    const all = parse(
      'llama-log',
      'time=2026-01-04T09:59:31.514-06:00 level=INFO source=device.go:256 msg="kv cache" device=CPU size="lots"',
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[1, 'unreadable ollama memory line']]);
    expect(ofKind(all, 'kv')).toEqual([]);
  });

  // Audit: these planning lines were skipped without a word. Line 1 journald, August 2025 (github.com/
  // ollama/ollama pull 12000, a comment's log); line 2 the 2024 form (`msg="offload to cuda"`, as ollama's
  // llm/memory.go logged it), its numbers cut short here.
  it("ollama's offload plan is a diagnostic saying it is an estimate, not a reading: never silently skipped", () => {
    const all = parse(
      'llama-log',
      [
        'Aug 22 17:36:22 amobile ollama[30907]: time=2025-08-22T17:36:22.027-04:00 level=INFO source=server.go:175 msg=offload library=cuda layers.requested=-1 layers.model=49 layers.offload=48 layers.split="" memory.available="[11.1 GiB]" memory.gpu_overhead="0 B" memory.required.full="11.4 GiB" memory.required.partial="8.9 GiB" memory.required.kv="992.0 MiB" memory.required.allocations="[8.9 GiB]" memory.weights.total="6.8 GiB"',
        'time=2024-09-14T09:12:01.000Z level=INFO source=memory.go:326 msg="offload to cuda" layers.requested=-1 layers.model=81 layers.offload=44 memory.required.kv="2.5 GiB"',
      ].join('\n'),
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [1, "ollama's offload plan (estimates before loading, not what was allocated): not read"],
      [2, "ollama's offload plan (estimates before loading, not what was allocated): not read"],
    ]);
    expect(ofKind(all, 'kv')).toEqual([]);
  });

  it("llama-server's context per slot, every era's line, is a model record with nCtxPerSeq", () => {
    // Line 1 ik_llama.cpp's text log (github.com/ikawrakow/ik_llama.cpp pull 259); line 2 a user's notes
    // (github.com/thebiss/llama-cpp-mkl-docker); lines 3–4 slots 0 and 1 of a four-slot server with the
    // common-log prefix (github.com/ggml-org/llama.cpp pull 24124).
    const all = clean('server-slot-context-2024-2026.txt');
    expect(ofKind(all, 'model').map((m) => [m.line, m.source, m.nCtxPerSeq, m.extra?.slot])).toEqual([
      [1, 'slot', 32768, '0'],
      [2, 'slot', 4096, '0'],
      [3, 'slot', 4096, '0'],
      [4, 'slot', 4096, '1'],
    ]);
    // ollama's runner, 2024 (the server log before llama.cpp renamed `initialize` and `slot_id`), under journald.
    const ollama = parseFixtureClean('llama-log', 'llama-cpp/ollama-runner-orin-nano-2024-09/journal-slots.txt');
    expect(ofKind(ollama, 'model').map((m) => [m.line, m.source, m.nCtxPerSeq, m.extra?.slot])).toEqual([
      [1, 'llama_new_context_with_model', undefined, undefined],
      [6, 'slot', 2048, '0'],
      [7, 'slot', 2048, '1'],
      [8, 'slot', 2048, '2'],
      [9, 'slot', 2048, '3'],
    ]);
    const damaged = parse('llama-log', 'slot   load_model: id  0 | task -1 | new slot, n_ctx = lots');
    expect(diagnostics(damaged).map((d) => d.reason)).toEqual(['unreadable slot context line']);
  });

  // Audit: these lines were skipped without a word. Each gives the size of a copy of a slot's state that
  // llama-server keeps in host memory (tools/server: SLT_* "created/erasing old/restored/erased invalidated
  // context checkpoint (…, size = %.3f MiB)", SRV_* "- cache state: %zu prompts, %.3f MiB (limits: …)",
  // "- prompt %p: %7d tokens, checkpoints: %2zu, %9.3f MiB", "total state size = %.3f MiB"); with the
  // default 32 checkpoints per slot they can reach gigabytes. Lines 1–4 github.com/ggml-org/llama.cpp
  // pull 13194 (a comment's log), line 5 pull 19408, lines 6–8 pull 22929 (common-log prefixes, journald),
  // lines 9–10 ik_llama.cpp's form without the `srv` lead (github.com/ikawrakow/ik_llama.cpp issue 2320).
  it("llama-server's saved state in host memory (context checkpoints, prompt cache) is counted, never dropped", () => {
    const all = parseFixture('llama-log', 'llama-cpp/format-strings-2023-2026/server-state-memory-2025-2026.txt');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((line) => [line, SERVER_STATE_REASON]),
    );
    expect(all.filter((r) => r.kind !== 'diagnostic')).toEqual([]);
    // The server lines around them that give no size stay chatter (same log, pull 13194).
    expect(parse('llama-log', 'srv  get_availabl: prompt cache update took 105.71 ms')).toEqual([]);
    // A server line with another size is no saved state: the server's estimate for a draft (MTP) context, verbatim
    // from a log in https://github.com/ggml-org/llama.cpp/pull/24682 (2026), is counted under a reason of its own.
    const estimate = parse(
      'llama-log',
      '[54387] 183.18.301.119 I srv    load_model: [spec] estimated memory usage of MTP context is 1869.48 MiB',
    );
    expect(diagnostics(estimate).map((d) => d.reason)).toEqual([SERVER_MEMORY_REASON]);
  });

  // Audit: llama-server of late 2023 – early 2024 printed each slot's context under `Available slots:` with
  // `LOG_TEE(" -> Slot %i - max context: %i\n", …)`, and that reading was dropped without a word. Verbatim from a
  // comment's log (turn 39) in https://github.com/ggml-org/llama.cpp/pull/5104 (January 2024).
  it("the early server's `-> Slot N - max context: M` is a slot context record", () => {
    const all = parseClean('llama-log', ['Available slots:', ' -> Slot 0 - max context: 512']);
    expect(ofKind(all, 'model').map((m) => [m.line, m.source, m.nCtxPerSeq, m.extra?.slot])).toEqual([
      [2, 'slot', 512, '0'],
    ]);
  });
});
