// Turns on V8's linear-time regular expression engine (the `l` flag) in this process. Imported for
// its effect by the code that matches a user's token pattern against an engine's output
// (electron/node/run/stdout-token-counter.ts) and by the request schemas' users through it: a
// pattern is checked and compiled by shared/run/token-pattern.ts, which uses the engine when it is
// on. The flag only makes the `l` flag parse; no other RegExp changes. It must be set before the
// first such RegExp is built, hence at module load.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--enable-experimental-regexp-engine');
