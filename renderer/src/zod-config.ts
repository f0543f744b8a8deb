// zod compiles object parsers with `new Function` when it may. The UI's CSP forbids eval
// (script-src 'self'), and zod's probe for it, though caught, is reported by the browser as a
// CSP violation on every start: tell zod up front not to try. Imported first by main.tsx.
import { z } from 'zod';

z.config({ jitless: true });
