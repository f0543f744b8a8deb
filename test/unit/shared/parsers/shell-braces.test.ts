import { describe, expect, it } from 'vitest';
import { expandBraces } from '../../../../shared/parsers/shell-braces';

// bash(1), "Brace Expansion": lists and sequences, left to right, the leftmost group varying slowest.
describe('expandBraces', () => {
  it('lists and ranges in bash order', () => {
    expect(expandBraces('/sys/class/hwmon/hwmon2/{in1_input,curr1_input}')).toEqual([
      '/sys/class/hwmon/hwmon2/in1_input',
      '/sys/class/hwmon/hwmon2/curr1_input',
    ]);
    expect(expandBraces('zone{0..2}/temp')).toEqual(['zone0/temp', 'zone1/temp', 'zone2/temp']);
    expect(expandBraces('z{2..0}')).toEqual(['z2', 'z1', 'z0']);
    expect(expandBraces('a{1,2}b{x,y}')).toEqual(['a1bx', 'a1by', 'a2bx', 'a2by']);
  });

  it('null where bash keeps the word or this does not expand it', () => {
    for (const w of ['plain', '{a}', '{}', 'a}{b', 'a{b,{c,d}}', 'z{0..999}', '{a,b'])
      expect(expandBraces(w)).toBeNull();
  });
});
