// The target facts a run and a session keep: the probe's result (shared/probe/probe-schema.ts)
// plus the target's kind and label, every field optional (a probe that failed leaves only what
// `os` could tell about "This computer": hostname, arch, kernel, cores, memTotalBytes) and unknown
// keys kept (a newer probe's). Pure.
import { z } from 'zod';
import { ProbeResultSchema } from '../probe/probe-schema';

export const TargetFactsSchema = ProbeResultSchema.partial()
  .extend({
    kind: z.string().optional(),
    label: z.string().optional(),
    /** The fallback facts of a local target whose probe failed (electron/node/cli/cli-targets.ts). */
    cores: z.number().optional(),
    memTotalBytes: z.number().optional(),
  })
  .catchall(z.unknown());
export type TargetFacts = z.infer<typeof TargetFactsSchema>;

const FIELD_SCHEMAS = TargetFactsSchema.shape;

/**
 * Facts read from a file or another process, typed: the object as it came (nested objects are not
 * stripped, so what was stored is what is shown), minus each known field whose value does not
 * have the probe's shape. Null for anything that is not an object.
 */
export function targetFactsOf(value: unknown): TargetFacts | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: TargetFacts = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    // A stored key is data: "valueOf" or "constructor" must not find Object.prototype's members
    // as a schema, and "__proto__" (an own key after JSON.parse) must not set the prototype.
    if (key === '__proto__') continue;
    const schema = Object.hasOwn(FIELD_SCHEMAS, key)
      ? (FIELD_SCHEMAS as Record<string, z.ZodType | undefined>)[key]
      : undefined;
    if (schema && !schema.safeParse(field).success) continue;
    out[key] = field;
  }
  return out;
}
