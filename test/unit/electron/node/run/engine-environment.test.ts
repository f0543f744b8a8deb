// `env` output as a board prints it (engine-environment.ts parseEnvListing): the variables whose
// secret-named values are masked.
import { describe, expect, it } from 'vitest';
import { parseEnvListing } from '../../../../../electron/node/run/engine-environment';

describe('parseEnvListing', () => {
  it('reads NAME=value lines; a value keeps its = signs, a continuation line is no variable', () => {
    expect(parseEnvListing('HF_TOKEN=a=b\nPATH=/bin\nsecond line of a value\n=x\n9X=y\n_OK=1\n')).toEqual({
      HF_TOKEN: 'a=b',
      PATH: '/bin',
      _OK: '1',
    });
  });
});
