// ollama's own memory lines (its Go engine, 2025+), which replace llama.cpp's KV and buffer lines
// when ollama runs a model on that engine. Lines as published in ollama logs (journald prefix
// included), values as printed.
import { describe, expect, it } from 'vitest';
import { diagnostics, MiB, ofKind, parse, parseClean } from '../../../helpers/parser-test-kit';

describe("ollama's memory lines", () => {
  it('kv cache per device is a KV buffer; model weights, compute graph and total memory one model record', () => {
    // ollama on a ROCm machine, September 2025 (backend.go), as journald shows it; the last two lines
    // from a CPU machine's log of February 2026 (device.go).
    const all = parseClean('llama-log', [
      'Sep 11 00:42:50 ai ollama[3110]: time=2025-09-11T00:42:50.484+02:00 level=INFO source=ggml.go:494 msg="offloaded 49/49 layers to GPU"',
      'Sep 11 00:42:50 ai ollama[3110]: time=2025-09-11T00:42:50.484+02:00 level=INFO source=backend.go:310 msg="model weights" device=ROCm0 size="59.8 GiB"',
      'Sep 11 00:42:50 ai ollama[3110]: time=2025-09-11T00:42:50.484+02:00 level=INFO source=backend.go:315 msg="model weights" device=CPU size="1.1 GiB"',
      'Sep 11 00:42:50 ai ollama[3110]: time=2025-09-11T00:42:50.484+02:00 level=INFO source=backend.go:321 msg="kv cache" device=ROCm0 size="450.0 MiB"',
      'Sep 11 00:42:50 ai ollama[3110]: time=2025-09-11T00:42:50.484+02:00 level=INFO source=backend.go:332 msg="compute graph" device=ROCm0 size="121.8 MiB"',
      'Sep 11 00:42:50 ai ollama[3110]: time=2025-09-11T00:42:50.484+02:00 level=INFO source=backend.go:337 msg="compute graph" device=CPU size="5.6 MiB"',
      'time=2026-02-21T14:14:46.128-06:00 level=INFO source=device.go:272 msg="total memory" size="61.5 GiB"',
      'time=2026-02-21T14:14:46.128-06:00 level=INFO source=sched.go:537 msg="loaded runners" count=1',
    ]);
    expect(ofKind(all, 'kv').map((k) => [k.line, k.scope, k.device, k.sizeBytes, k.source])).toEqual([
      [4, 'device-buffer', 'ROCm0', 450 * MiB, 'ollama'],
    ]);
    expect(ofKind(all, 'model')).toEqual([
      {
        kind: 'model',
        line: 1,
        source: 'ollama',
        extra: {
          'offloaded layers': '49/49',
          'ROCm0 model weights': '59.8 GiB',
          'CPU model weights': '1.1 GiB',
          'ROCm0 compute graph': '121.8 MiB',
          'CPU compute graph': '5.6 MiB',
          'total memory': '61.5 GiB',
        },
      },
    ]);
  });

  it('a memory line whose size cannot be read is a diagnostic', () => {
    const all = parse(
      'llama-log',
      'time=2026-01-04T09:59:31.514-06:00 level=INFO source=device.go:256 msg="kv cache" device=CPU size="lots"',
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([[1, 'unreadable ollama memory line']]);
    expect(ofKind(all, 'kv')).toEqual([]);
  });
});
