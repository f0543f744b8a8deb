import { CliError, type CliIo } from '../cli-io';

export async function run(_args: string[], _io: CliIo): Promise<number> {
  throw new CliError('not implemented yet');
}
