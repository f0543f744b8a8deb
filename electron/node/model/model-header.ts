// The KV calculator's model source: a GGUF on this computer or on a board, read the same way the
// `kv --gguf` command and engine runs with --gguf read it (gguf-reader.ts: the header only, with
// byte-range reads, never the whole file), turned into the shape shared/kv/kv-theory.ts computes with.
import type { ModelHeader } from '../../../shared/api/session-schemas';
import { modelShapeFromGguf } from '../../../shared/kv/model-config';
import { localPath } from '../transport/local-target';
import type { Target } from '../transport/target';
import { readGgufHeaderFromFile, readGgufHeaderFromTarget } from './gguf-reader';

/**
 * The header of `path` on 'local' (read from disk) or on a saved board (`connect` opens it; the
 * connection is closed afterwards). The path is passed to the target's readFile as one argument;
 * `~/…` is under the home of the target's user (electron/node/transport/target.ts).
 */
export async function readModelHeader(
  path: string,
  targetId: string,
  connect: () => Promise<Target>,
): Promise<ModelHeader> {
  let metadata: Record<string, unknown>;
  let fileBytes: number | null = null;
  if (targetId === 'local') {
    // As a run's --gguf on This computer reads it (LocalTarget.readFile): `~/…` is under the home.
    const header = await readGgufHeaderFromFile(localPath(path));
    metadata = header.metadata;
    fileBytes = header.fileBytes;
  } else {
    const target = await connect();
    try {
      metadata = (await readGgufHeaderFromTarget(target, path)).metadata;
    } finally {
      await target.close().catch(() => undefined);
    }
  }
  const { shape, summary } = modelShapeFromGguf(metadata);
  return { path, targetId, fileBytes, shape, summary };
}
