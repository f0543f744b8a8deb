// The engine's own output as a source of series: the launcher writes its stdout (O) and stderr
// (E) lines into the spool (electron/node/run/run-scripts.ts); the run counts generated tokens in
// stdout as it arrives and reads llama.cpp's log (shared/parsers/llama-log-parser.ts) from stderr. It runs no
// script of its own, so it is a series source of the registry, not a collector.
import type { SeriesSource } from './collector';

export const engineSource: SeriesSource = {
  id: 'engine',
  title: 'Engine output',
  series: [
    { key: 'tokens', label: 'tokens generated', unit: 'count', kind: 'counter' },
    // What the tokens are spread over when the engine's own final count differs from the live one
    // (shared/analysis/throughput.ts reconcileTokenEvents).
    { key: 'stdoutChars', label: 'stdout characters', unit: 'count', kind: 'counter' },
    { key: 'started', label: 'engine started', unit: 'count', kind: 'event' },
  ],
};
